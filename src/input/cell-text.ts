/**
 * A workbook cell's value, as exceljs's streaming reader gives it (and worksheet-rows.ts, which
 * reads a worksheet's cells by its rules), turned into the text a CSV
 * export would have held had Excel not mangled it (docs/contract.md §3, "Workbooks"): numbers
 * exactly, dates as YYYY-MM-DD, formulas as their saved result. Pure.
 */

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
 * exceljs turns a date-formatted number into a Date at UTC midnight plus the day's fraction
 * (Excel's serial dates have no time zone). A whole day reads `YYYY-MM-DD`; a time alone
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

/** A serial date (a formula's result, which exceljs leaves a number) as a Date. */
export function serialDate(serial: number, date1904: boolean): Date {
  // To the millisecond, as exceljs's own excelToDate: dateText then rounds to the second.
  return new Date(Math.round(EXCEL_EPOCH_MS + (serial + (date1904 ? 1462 : 0)) * 86_400_000));
}

/**
 * Whether a number format shows a date or time: `yyyy-mm-dd`, `h:mm`, `YYYY`, but not `0.00` or
 * `"m"0` (quoted text and [colour] sections do not count). exceljs's own test, but in either
 * case, as Excel reads a format: exceljs's misses `YYYY` and `DD` alone.
 */
export function isDateFormat(format: string | undefined): boolean {
  if (format === undefined || format === "") return false;
  return /[ymdhsb]/i.test(format.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, ""));
}

interface RichTextRun {
  readonly text?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Where a cell's number format is read: the cell itself (exceljs resolves it from the workbook's styles). */
export interface FormatSource {
  readonly numFmt?: string | undefined;
}

/**
 * The text of one cell value. The format is read only for a formula's numeric result, which
 * exceljs does not turn into a Date itself; `date1904` is the workbook's date system.
 */
export function cellText(value: unknown, format: FormatSource, date1904: boolean): CellText {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return isMangledNumber(value) ? { text: value, problem: mangled(value) } : value;
  if (typeof value === "number") return Number.isFinite(value) ? numberText(value) : { text: "", problem: "holds no number Excel can store" };
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value, date1904);
  if (!isObject(value)) return { text: "", problem: "holds a value portin cannot read" };
  // A formula; a shared formula's copies carry an empty `formula` and the master's `sharedFormula`.
  if ("formula" in value || "sharedFormula" in value || "result" in value) return formulaText(value["result"], format, date1904);
  if (Array.isArray(value["richText"])) {
    return cellText((value["richText"] as RichTextRun[]).map((run) => (typeof run.text === "string" ? run.text : "")).join(""), format, date1904);
  }
  // A hyperlink: its shown text, which may itself be rich text.
  if ("hyperlink" in value || "text" in value) return cellText(value["text"], format, date1904);
  if (typeof value["error"] === "string") return { text: value["error"], problem: `holds ${value["error"]}, an error in the source sheet: fix the formula or the value` };
  return { text: "", problem: "holds a value portin cannot read" };
}

/** Excel's own words for what happened, and the way to keep it from happening again. */
function mangled(text: string): string {
  return `holds the text ${JSON.stringify(text)}: Excel showed a long number in scientific notation and the digits were lost when it was saved as text; format the column as Text, type the numbers again, and save`;
}

function formulaText(result: unknown, format: FormatSource, date1904: boolean): CellText {
  if (result === undefined || result === null) {
    // A workbook written by a program that does not calculate (a script, an export) keeps the
    // formula alone: there is no value to send, and guessing one would be worse.
    return { text: "", problem: "is a formula without a saved result (open the workbook in Excel and save it, or type the value)" };
  }
  if (typeof result === "number") {
    // An error result (`#N/A`) reaches here as an `{ error }` value (worksheet-rows.ts); a NaN is no number Excel stores.
    if (!Number.isFinite(result)) return { text: "", problem: "holds an error in the source sheet: fix the formula or the value" };
    if (isDateFormat(format.numFmt)) return dateText(serialDate(result, date1904), date1904);
    return numberText(result);
  }
  return cellText(result, format, date1904);
}
