/**
 * The cells of one results row (SPEC §6): the input's own cells, shaped to the header's
 * width, masked and made safe for spreadsheets, then the `result_*` cells. Pure.
 */
import { RESULT_COLUMNS } from "./status.js";
import type { RowOutcome } from "./status.js";

/** What a masked password cell reads as. */
export const MASK = "***";

// Spreadsheets run a cell beginning with one of these as a formula (OWASP "CSV injection").
// The fullwidth forms are included because Apple Numbers normalizes them to their ASCII twins.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
// SPEC §6: a value made only of these cannot run anything, and `+1 (416) 555-0101` must stay readable.
const PHONE_LIKE = /^[0-9 +\-().]+$/;

/** Prefixes `'` to a cell a spreadsheet would run as a formula, except phone-number-like values. */
export function escapeFormula(value: string): string {
  return FORMULA_START.test(value) && !PHONE_LIKE.test(value) ? `'${value}` : value;
}

/** SPEC §6: a column whose header names a password (`item.SipPassword`, `WebSelfCare Password`). */
export function isPasswordHeader(header: string): boolean {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "")
    .endsWith("password");
}

/** The results header: the input's header cells, then the `result_*` columns. */
export function resultsHeader(header: readonly string[]): string[] {
  return [...header.map(escapeFormula), ...RESULT_COLUMNS];
}

/**
 * Returns a function building one results record. The password columns are found once
 * here, so the per-row work is one array and a pass over its cells.
 *
 * A ragged row (SPEC §3 makes it invalid) is padded with "" or cut to the header's width,
 * so the result columns always sit under their headers; its result_message says why.
 */
export function rowShaper(header: readonly string[]): (cells: readonly string[], outcome: RowOutcome) => string[] {
  const width = header.length;
  const masked = header.map(isPasswordHeader);
  return (cells, outcome) => {
    const record = new Array<string>(width + RESULT_COLUMNS.length);
    for (let i = 0; i < width; i += 1) {
      const cell = cells[i] ?? "";
      record[i] = masked[i] === true && cell !== "" ? MASK : escapeFormula(cell);
    }
    record[width] = outcome.status;
    record[width + 1] = escapeFormula(outcome.number);
    record[width + 2] = outcome.numberType ?? "";
    record[width + 3] = escapeFormula(outcome.operation);
    record[width + 4] = outcome.batch === null ? "" : String(outcome.batch);
    record[width + 5] = escapeFormula(outcome.ticket);
    record[width + 6] = outcome.httpStatus === null ? "" : String(outcome.httpStatus);
    record[width + 7] = escapeFormula(outcome.message);
    return record;
  };
}
