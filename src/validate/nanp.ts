/**
 * NANP telephone numbers (docs/contract.md §1.2, §3): any common writing in, 10 digits and a kind out.
 * Structure is checked per call; libphonenumber-js's verdict on whether an area code and
 * exchange are in service is taken once per NPA-NXX and cached, so a million-row sheet
 * costs at most one verdict per block, not one per row.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/core";
import type { NumberKind } from "../catalog/operations.js";
import { TOLL_FREE_AREA_CODES } from "../catalog/operations.js";
import { createBlockVerdict } from "./nanp-blocks.js";
import { NANP_METADATA } from "./nanp-metadata.js";
import * as rows from "../messages/rows.js";

export type ParsedNumber =
  | { readonly ok: true; readonly digits: string; readonly kind: NumberKind }
  | { readonly ok: false; readonly reason: string };

/*
 * Why the verdict is one per NPA-NXX block: in the metadata libphonenumber-js ships by
 * default, every +1 region's patterns (US and CA per number type, the Caribbean regions by
 * leading digits, SX by 721-5) constrain at most the first six digits; the last four are
 * always \d{4} (or inside a [2-9]\d{6} or \d{7} that starts at the fourth digit), and
 * leading digits are at most four long. So the verdict for one number holds for its whole
 * NPA-NXX block. This also means fictional 555-01XX numbers are as valid as their area code:
 * 416-555-0101 is accepted.
 * Verdicts: 0 not asked yet, 1 valid, 2 not in service. Indexed by NPA * 1000 + NXX.
 */
const UNKNOWN = 0;
const VALID = 1;
const verdicts = new Uint8Array(1_000_000);

/**
 * libphonenumber-js's own call on one number, through its `core` entry with the +1 countries'
 * metadata (nanp-blocks.ts): what the block verdict must equal.
 */
export function libraryInService(digits: string): boolean {
  const parsed = parsePhoneNumberFromString(`+1${digits}`, NANP_METADATA);
  return parsed !== undefined && parsed.countryCallingCode === "1" && parsed.isValid();
}

/** The same verdict on the library's metadata with its patterns compiled once (nanp-blocks.ts). */
const inService = createBlockVerdict() ?? libraryInService;

function blockInService(digits: string, block: number): boolean {
  let verdict = verdicts[block] ?? UNKNOWN;
  if (verdict === UNKNOWN) {
    verdict = inService(digits) ? VALID : 2;
    verdicts[block] = verdict;
  }
  return verdict === VALID;
}

const ZERO = 48;
const NINE = 57;
const PLUS = 43;

/** The toll-free area codes as numbers, for the area code read from the digits. */
const TOLL_FREE_AREAS: ReadonlySet<number> = new Set([...TOLL_FREE_AREA_CODES].map(Number));

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** Spaces, tabs, no-break spaces and the punctuation people put in numbers: - . ( ) / */
function isSeparator(code: number): boolean {
  return code === 32 || code === 9 || code === 160 || code === 45 || code === 46 || code === 40 || code === 41 || code === 47;
}

function invalid(text: string, why: string): ParsedNumber {
  return { ok: false, reason: rows.notNanp(JSON.stringify(text), why) };
}

/** `4165552104.0`: a number column exported as floats (pandas, some Excel exports). */
const EXCEL_FLOAT = /^(\+?\d+)\.0+$/;
/**
 * `4.16556E+09`: Excel showed the number in scientific notation and kept only what it showed;
 * `5,14556E+09` where a comma is the decimal separator (French-Canadian Excel).
 */
const SCIENTIFIC = /^\d(?:[.,]\d+)?E\+\d+$/i;
/**
 * A number followed by its extension, as people write one in English or French:
 * `416-555-0101 ext. 22`, `x22`, `extension 22`, `poste 22`, `#22`.
 */
const EXTENSION = /^(.*\d)[\s,;]*(ext\.?|extension|x|poste|p\.|#)\s*(\d{1,7})$/i;

/** Whether the block of 10 digits (NPA * 1000 + NXX) is in service. */
export type BlockVerdict = (digits: string, block: number) => boolean;

/**
 * A reader of NANP numbers that asks `inService` about each number's block. portin reads
 * with `parseNanp`, the cached verdict; test/fuzz/nanp-blocks.test.ts reads every block
 * with libphonenumber-js's own call as well and checks both give the same result.
 */
export function nanpReader(inService: BlockVerdict): (raw: string) => ParsedNumber {
  const read = (raw: string): ParsedNumber => {
    const written = raw.trim();
    // One comparison for most numbers; the pattern only for those ending in 0.
    const float = written.charCodeAt(written.length - 1) === ZERO ? EXCEL_FLOAT.exec(written) : null;
    const text = float?.[1] ?? written;
    let digits = "";
    let plus = false;
    // Digits as written, until a separator: a bare number is its own digits, not rebuilt one by one.
    let run = 0;
    while (run < text.length && isDigit(text.charCodeAt(run))) run++;
    if (run === text.length) {
      digits = text;
    } else {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (isDigit(code)) {
          digits += text.charAt(i);
        } else if (code === PLUS && !plus && digits.length === 0) {
          plus = true;
        } else if (!isSeparator(code)) {
          if (SCIENTIFIC.test(text)) {
            return {
              ok: false,
              reason: rows.scientificNumber(JSON.stringify(text)),
            };
          }
          return withExtension(written, read) ?? invalid(written, rows.unexpectedCharacter(JSON.stringify(text.charAt(i))));
        }
      }
    }
    if (plus && !digits.startsWith("1")) {
      return { ok: false, reason: rows.notPlusOne(JSON.stringify(written)) };
    }
    if (plus) {
      digits = digits.slice(1);
      if (digits.length !== 10) return invalid(written, rows.digitsAfterPlusOne(digits.length));
    } else if (digits.length === 11 && digits.startsWith("1")) {
      digits = digits.slice(1);
    } else if (digits.length !== 10) {
      return invalid(written, rows.digitCount(digits.length));
    }
    const npa = digits.charCodeAt(0) - ZERO;
    if (npa < 2) return invalid(written, rows.areaCodeStart(digits.slice(0, 3), npa));
    const nxx = digits.charCodeAt(3) - ZERO;
    if (nxx < 2) return invalid(written, rows.exchangeStart(digits.slice(3, 6), nxx));
    const area = npa * 100 + (digits.charCodeAt(1) - ZERO) * 10 + (digits.charCodeAt(2) - ZERO);
    const block = area * 1000 + nxx * 100 + (digits.charCodeAt(4) - ZERO) * 10 + (digits.charCodeAt(5) - ZERO);
    if (!inService(digits, block)) {
      return invalid(written, rows.notInService(digits.slice(0, 3), digits.slice(3, 6)));
    }
    return { ok: true, digits, kind: TOLL_FREE_AREAS.has(area) ? "toll-free" : "regular" };
  };
  return read;
}

export const parseNanp = nanpReader(blockInService);

/** The reason for a number written with its extension, when the part before it is a number; undefined otherwise. */
function withExtension(written: string, read: (raw: string) => ParsedNumber): ParsedNumber | undefined {
  const match = EXTENSION.exec(written);
  if (match === null) return undefined;
  const [, number = "", word = "", extension = ""] = match;
  if (!read(number).ok) return undefined;
  return {
    ok: false,
    reason: rows.withExtension(JSON.stringify(written), word, extension, number.trim()),

  };
}
