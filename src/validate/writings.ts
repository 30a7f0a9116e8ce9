/**
 * How people write values in the sheets they are handed (docs/contract.md §3
 * "Values"): Excel's integer-valued floats, yes/no in two languages, locales as language tags,
 * countries by name, dates in the orders people use, 12-hour times, provider names by a word.
 * convert.ts tries these only once its strict reading has failed, so a sheet already written
 * as the contract spells it costs nothing more per cell.
 */
import type { Provider } from "../catalog/account.js";
import * as rows from "../messages/rows.js";

/** Accents and case dropped: "Vidéotron" = "videotron", "Français" = "francais". */
export function plain(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** Lower-case words without accents or punctuation. */
function wordsOf(text: string): string[] {
  return plain(text).split(/[^a-z0-9]+/).filter((word) => word !== "");
}

const EXCEL_INTEGER = /^([+-]?\d+)\.0+$/;

/**
 * `4165552104.0`, `17.0`: an integer written as a float, as Excel, pandas and many exports
 * write a number column. The integer's text, or null for anything else.
 */
export function excelInteger(text: string): string | null {
  return EXCEL_INTEGER.exec(text)?.[1] ?? null;
}

/** Yes and no as the sheets write them, besides true/false/yes/no/1/0: Y/N, French, and French Excel's VRAI/FAUX. */
export const MORE_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ["y", true],
  ["n", false],
  ["oui", true],
  ["non", false],
  ["o", true],
  ["vrai", true],
  ["faux", false],
]);

/**
 * Locales as language names and tags. ThinkTel serves Canada, so a bare "English" or "en" is
 * EnglishCA (2) and anything French is FrenchCA (5), the one French locale; "en-US" and
 * "en-GB" keep their own codes; Spanish is SpanishLatinAmerica (6).
 */
const LOCALE_WORDS: ReadonlyMap<string, number> = new Map([
  ["english", 2],
  ["anglais", 2],
  ["en", 2],
  ["enca", 2],
  ["englishcanada", 2],
  ["enus", 0],
  ["englishus", 0],
  ["engb", 1],
  ["enuk", 1],
  ["french", 5],
  ["francais", 5],
  ["fr", 5],
  ["frca", 5],
  ["frfr", 5],
  ["frenchcanada", 5],
  ["spanish", 6],
  ["espanol", 6],
  ["espagnol", 6],
  ["es", 6],
  ["es419", 6],
  ["esmx", 6],
  ["esus", 6],
]);
/** `SecondLocale` 9, None, in the words people use for it. */
const NO_LOCALE_WORDS: ReadonlySet<string> = new Set(["none", "aucune", "aucun", "no", "non", "na", "n/a"]);
export const SECOND_LOCALE_NONE = 9;

export function looseLocale(text: string, second: boolean): number | undefined {
  const key = plain(text).replace(/[^a-z0-9/]/g, "");
  if (second && NO_LOCALE_WORDS.has(key)) return SECOND_LOCALE_NONE;
  return LOCALE_WORDS.get(key);
}

const COUNTRY_WORDS: ReadonlyMap<string, "CA" | "US"> = new Map([
  ["canada", "CA"],
  ["can", "CA"],
  ["usa", "US"],
  ["us", "US"],
  ["unitedstates", "US"],
  ["unitedstatesofamerica", "US"],
  ["etatsunis", "US"],
  ["america", "US"],
]);

export function looseCountry(text: string): "CA" | "US" | undefined {
  return COUNTRY_WORDS.get(plain(text).replace(/[^a-z]/g, ""));
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
/** French month names, accents dropped, by the same index. */
const MOIS = ["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"];

/** 1..12 for a month name or its first three letters (or four, "sept", "janv."), English or French. */
function monthOf(word: string): number | undefined {
  const key = plain(word).replace(/\.$/, "");
  if (key.length < 3) return undefined;
  for (const names of [MONTHS, MOIS]) {
    const at = names.findIndex((name) => name === key || (name.startsWith(key) && key.length >= 3 && key.length <= 4));
    if (at >= 0) return at + 1;
  }
  return undefined;
}

export type DateReading = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/** "August" for 8. */
function monthName(month: number): string {
  const name = MONTHS[month - 1] ?? "";
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

const pad = (n: number): string => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number): string => `${y}-${pad(m)}-${pad(d)}`;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A date when y-m-d is one; else why not, in words a person reads: "not a real date (February 2026 has 28 days)". */
function realDate(text: string, year: number, month: number, day: number): DateReading {
  const quoted = JSON.stringify(text);
  if (month < 1 || month > 12) return { ok: false, reason: rows.noSuchMonth(quoted, month) };
  const days = daysIn(year, month);
  if (day < 1 || day > days) return { ok: false, reason: rows.noSuchDay(quoted, monthName(month), year, days) };
  return { ok: true, value: iso(year, month, day) };
}

const YMD = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]0{1,2}:00(?::00(?:\.0+)?)?Z?)?$/;
const DMY_OR_MDY = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:\s+0{1,2}:00(?::00)?)?$/;
const DAY_MONTH_YEAR = /^(\d{1,2})(?:er)?[\s-]+([A-Za-z\u00c0-\u00ff]+\.?)[\s,-]+(\d{4})$/;
const MONTH_DAY_YEAR = /^([A-Za-z\u00c0-\u00ff]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/;

/**
 * `RequestedPortDate` as people write it. Year first (`2026-12-08`, `2026/12/8`, with a
 * midnight time as Excel exports dates) is read as year, month, day. Day and month in either
 * order (`25/12/2026`, `12/25/2026`) are read when only one order makes a date, and refused as
 * ambiguous when both do, naming both: a port on the wrong day costs a customer their phones.
 * Month names in English or French are read.
 */
export function readDate(text: string): DateReading {
  const quoted = JSON.stringify(text);
  const ymd = YMD.exec(text);
  if (ymd) return realDate(text, Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  const either = DMY_OR_MDY.exec(text);
  if (either) {
    const [a, b, year] = [Number(either[1]), Number(either[2]), Number(either[3])];
    if (a === b || (a > 12 && b <= 12)) return realDate(text, year, b, a);
    if (b > 12 && a <= 12) return realDate(text, year, a, b);
    if (a <= 12 && b <= 12) {
      return {
        ok: false,
        reason: rows.ambiguousDate(quoted, a, monthName(b), monthName(a), b, iso(year, b, a), iso(year, a, b)),
      };
    }
    return { ok: false, reason: rows.neitherIsAMonth(quoted, a, b) };
  }
  const named = DAY_MONTH_YEAR.exec(text);
  if (named) {
    const month = monthOf(named[2] ?? "");
    if (month !== undefined) return realDate(text, Number(named[3]), month, Number(named[1]));
  }
  const american = MONTH_DAY_YEAR.exec(text);
  if (american) {
    const month = monthOf(american[1] ?? "");
    if (month !== undefined) return realDate(text, Number(american[3]), month, Number(american[2]));
  }
  return { ok: false, reason: rows.notADate(quoted) };

}

const CLOCK = /^(\d{1,2})(?:[:h](\d{2}))?(?::(\d{2}))?\s*([ap])?\.?\s*(m\.?)?$/i;

/** `RequestedPortTime` as people write it: `09:30:00`, `9:30 AM`, `2 p.m.`, `14h30`. HH:MM, or undefined. */
export function looseTime(text: string): string | undefined {
  const match = CLOCK.exec(text.trim());
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  const half = match[4]?.toLowerCase();
  // A bare hour ("14") is not a time; "14h" and "2 pm" are.
  if (match[2] === undefined && half === undefined && !/h$/i.test(text.trim())) return undefined;
  if (half !== undefined && match[5] === undefined) return undefined;
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === "p" ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || seconds !== 0) return undefined;
  return `${pad(hour)}:${pad(minute)}`;
}

/** `LOA\acme.pdf` as Windows writes a path: the same file here. */
export function portablePath(written: string): string {
  return written.includes("\\") ? written.replace(/\\/g, "/") : written;
}

/** A typed prefix shorter than this matches too much to mean one provider. */
const PROVIDER_PREFIX_AT_LEAST = 3;

/**
 * The providers a name can mean, by its words, ignoring case and accents: "Videotron" is
 * Vidéotron, "TELUS" is TELUS Communications, "Rogers Comm" is Rogers Communications. Every
 * word written must begin a different word of the provider's name, in order.
 */
export function providersByWords(text: string, providers: readonly Provider[]): Provider[] {
  const wanted = wordsOf(text);
  if (wanted.join("").length < PROVIDER_PREFIX_AT_LEAST) return [];
  const exact = providers.filter((p) => wordsOf(p.name).join(" ") === wanted.join(" "));
  if (exact.length > 0) return exact;
  return providers.filter((provider) => {
    const words = wordsOf(provider.name);
    let at = 0;
    for (const word of wanted) {
      while (at < words.length && !(words[at] ?? "").startsWith(word)) at++;
      if (at === words.length) return false;
      at++;
    }
    return true;
  });
}
