/**
 * A workbook cell's value (CellValue, portin's own, whichever reader read it) turned into the
 * text a CSV export would have held had Excel not mangled it (docs/contract.md §3,
 * "Workbooks"): numbers exactly, dates as YYYY-MM-DD, formulas as their saved result. Pure.
 */
import * as sheetWords from "../messages/sheet.js";

/** A cell that cannot be used where it is sent (an error value, a formula without a result): its text, and why; the caller names the cell. */
export interface UnusableCell {
  readonly text: string;
  readonly problem: string;
}

/** What one cell reads as: its text, or an unusable cell. A string in the usual case: a workbook has millions of cells. */
export type CellText = string | UnusableCell;

/**
 * Excel's General format shows a number too wide for its column as `4.16556E+09`; a sheet saved
 * as CSV and opened again, or pasted as text, keeps only that text, and the digits are gone.
 * Only text cells are tested: a number cell is read exactly. French-Canadian Excel writes the
 * decimal comma: `5,14556E+09`.
 */
const SCIENTIFIC = /^[+-]?\d([.,]\d+)?E[+-]\d{2,3}$/i;

/** Whether a text cell holds a number Excel has already rounded into scientific notation. */
export function isMangledNumber(text: string): boolean {
  // The regex runs only for the few cells with an exponent's E.
  return text.length <= 24 && (text.includes("E") || text.includes("e")) && SCIENTIFIC.test(text.trim());
}

/**
 * A number as its digits: `4165550101`, never `4165550101.0` or `4.16556E+09`. Integers are
 * written in full up to the largest a double holds; anything else as JavaScript's shortest
 * round-trip form, which is the value the file stores.
 */
export function numberText(value: number): string {
  // String() is exact for a safe integer and six times as fast as toFixed() (a number cell a
  // row in a phone sheet); past 2^53 it would round to the shortest form, `…900`, not `…864`.
  if (Number.isSafeInteger(value)) {
    if (value < SMALL_INTEGER && value > -SMALL_INTEGER) return String(value);
    // A phone number is past V8's small integers, where String() takes its path for any double:
    // two halves under 10^8 each take the fast one, twice as fast in all (400,000 numbers, 55 ms against 110-160).
    const magnitude = Math.abs(value);
    const high = Math.floor(magnitude / 1e8);
    return `${value < 0 ? "-" : ""}${high}${String(magnitude - high * 1e8).padStart(8, "0")}`;
  }
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
  return String(value);
}

/** V8 keeps integers below 2^31 as small integers, which it writes as text on a fast path. */
const SMALL_INTEGER = 2 ** 31;

const two = (n: number): string => String(n).padStart(2, "0");

/** Serial 0 in Excel's two date systems, where a time without a date lands. */
const DAY_ZERO = "1899-12-30";
const DAY_ZERO_1904 = "1904-01-01";

/** Milliseconds from Excel's day 0 to 1970-01-01. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * A date-formatted number is a Date at UTC midnight plus the day's fraction (Excel's serial
 * dates have no time zone). A whole day reads `YYYY-MM-DD`; a time alone
 * (Excel's day 0) reads `HH:MM`, the form `RequestedPortTime` takes; both read
 * `YYYY-MM-DD HH:MM`. Seconds appear only when there are some.
 */
export function dateText(date: Date, date1904 = false): string {
  // Excel's fractions of a day land a millisecond off whole seconds.
  const ms = Math.round(date.getTime() / 1000) * 1000;
  if (Number.isNaN(ms)) return "";
  const d = new Date(ms);
  const day = `${String(d.getUTCFullYear()).padStart(4, "0")}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  const seconds = d.getUTCSeconds();
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}${seconds === 0 ? "" : `:${two(seconds)}`}`;
  if (day === (date1904 ? DAY_ZERO_1904 : DAY_ZERO)) return time;
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && seconds === 0;
  return midnight ? day : `${day} ${time}`;
}

/** A serial date as a Date. */
export function serialDate(serial: number, date1904: boolean): Date {
  // To the millisecond: dateText then rounds to the second.
  return new Date(Math.round(EXCEL_EPOCH_MS + (serial + (date1904 ? 1462 : 0)) * 86_400_000));
}

/**
 * Whether a number format shows a date or time: `yyyy-mm-dd`, `h:mm`, `YYYY`, but not `0.00` or
 * `"m"0` (quoted text and [colour] sections do not count), in either case, as Excel reads a
 * format (`YYYY`, `DD`).
 */
export function isDateFormat(format: string | undefined): boolean {
  if (format === undefined || format === "") return false;
  return /[ymdhsb]/i.test(format.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, ""));
}

/**
 * A string of an .xlsx as Excel shows it: ECMA-376's ST_Xstring writes a character XML cannot
 * carry (a carriage return Excel keeps in a cell) as `_x000D_`, and a literal `_x…_` with its
 * `_` written `_x005F_`. Only text holding `_x` is rewritten: a sheet has millions of strings.
 */
export function unescapeXstring(text: string): string {
  return text.includes("_x") ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, code: string) => String.fromCharCode(parseInt(code, 16))) : text;
}

/** An error value a cell holds, as the sheet shows it: `#N/A`, `#REF!`. */
export interface CellError {
  readonly kind: "error";
  readonly text: string;
}

/** A formula the file keeps without a saved result: a script or an export wrote it and nothing calculated it. */
export interface UncalculatedFormula {
  readonly kind: "uncalculated";
}

/**
 * A workbook cell's value as portin reads it, whatever the file's format (worksheet-rows.ts for
 * .xlsx, workbook-sheetjs.ts for .xls and .ods): a formula is its saved result, shared and
 * rich text is its text, a hyperlink its shown text, and a number whose format shows a date or
 * time is a Date (UTC, Excel's serial dates having no zone).
 */
export type CellValue = string | number | boolean | Date | CellError | UncalculatedFormula;

export const UNCALCULATED: UncalculatedFormula = Object.freeze({ kind: "uncalculated" });

export function cellError(text: string): CellError {
  return { kind: "error", text };
}

/** A number cell's value: a Date when its number format shows a date or time, else the number. */
export function numberValue(number: number, format: string | undefined, date1904: boolean): number | Date {
  return Number.isFinite(number) && isDateFormat(format) ? serialDate(number, date1904) : number;
}

/** The text of one cell value; `date1904` is the workbook's date system, which day 0 of a time alone depends on. */
export function cellText(value: CellValue | undefined, date1904: boolean): CellText {
  if (value === undefined) return "";
  if (typeof value === "string") return isMangledNumber(value) ? { text: value, problem: mangled(value) } : value;
  if (typeof value === "number") return Number.isFinite(value) ? numberText(value) : { text: "", problem: sheetWords.NO_EXCEL_NUMBER };
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value, date1904);
  if (value.kind === "error") return { text: value.text, problem: sheetWords.cellError(value.text) };
  // A workbook written by a program that does not calculate (a script, an export) keeps the
  // formula alone: there is no value to send, and guessing one would be worse.
  return { text: "", problem: sheetWords.FORMULA_WITHOUT_RESULT };
}

/** Excel's own words for what happened, and the way to keep it from happening again. */
function mangled(text: string): string {
  return sheetWords.scientificText(JSON.stringify(text));

}
