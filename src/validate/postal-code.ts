/**
 * `CustomerPostalCode` as carriers check it (docs/contract.md §3 "Values the losing carrier
 * checks"): a Canadian postal code `A1A 1A1`, sent upper-case with one space whatever the
 * spacing or case it was written with; a US ZIP `12345` or ZIP+4 `12345-6789`. A US ZIP that a
 * spreadsheet stored as a number loses its leading zeros (`02134` becomes `2134`), and the
 * message says so: the fix is in the sheet's column format, not in the value typed.
 */
import type { Country } from "./province.js";
import { excelInteger } from "./writings.js";
import * as rows from "../messages/rows.js";

/**
 * Canada Post's letters: D, F, I, O, Q and U are never used, and W and Z never begin a code.
 * A code outside these is a typo (an O for a 0), which the carrier would refuse.
 */
const CANADIAN = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])\s*(\d[ABCEGHJ-NPRSTV-Z]\d)$/;
const ZIP = /^(\d{5})(?:[\s-]?(\d{4}))?$/;
/** A ZIP a spreadsheet shortened: 3 or 4 digits (00501 to 09999), or 7 or 8 for a ZIP+4. */
const SHORTENED_ZIP = /^(\d{3,4}|\d{7,8})$/;

const ACCEPTED: Readonly<Record<Country, string>> = rows.POSTAL_CODE_FORMS;

export type PostalReading = { readonly ok: true; readonly value: string; readonly country: Country } | { readonly ok: false; readonly reason: string };

/** The postal code as carriers expect it, or why not; `country` is the row's CustomerCountry when it has one. */
export function readPostalCode(text: string, country: Country | undefined): PostalReading {
  const quoted = JSON.stringify(text);
  const squeezed = text.trim().toUpperCase().replace(/\s+/g, " ");
  const canadian = CANADIAN.exec(squeezed);
  const zip = canadian ? null : ZIP.exec(squeezed);
  const found: PostalReading | null = canadian
    ? { ok: true, value: `${canadian[1]} ${canadian[2]}`, country: "CA" }
    : zip
      ? { ok: true, value: zip[2] === undefined ? (zip[1] as string) : `${zip[1]}-${zip[2]}`, country: "US" }
      : null;
  if (found?.ok === true) {
    if (country === undefined || found.country === country) return found;
    return { ok: false, reason: rows.postalCodeOfOtherCountry(quoted, found.country === "CA", country, ACCEPTED[country]) };
  }
  const digits = excelInteger(squeezed) ?? squeezed;
  if (country !== "CA" && SHORTENED_ZIP.test(digits)) {
    const whole = digits.length <= 4 ? digits.padStart(5, "0") : `${digits.padStart(9, "0").slice(0, 5)}-${digits.padStart(9, "0").slice(5)}`;
    return {
      ok: false,
      reason: rows.zipLostZeros(quoted, whole),
    };
  }
  const accepted = country === undefined ? `${ACCEPTED.CA}, or ${ACCEPTED.US}` : ACCEPTED[country];
  return { ok: false, reason: rows.notAPostalCode(quoted, country, accepted) };

}
