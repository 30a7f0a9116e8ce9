/**
 * The cells of one results row (docs/contract.md §6): the input's own cells, shaped to the header's
 * width, masked and made safe for spreadsheets, then the `result_*` cells. Pure.
 */
import { RESULT_COLUMN_SET } from "./columns.js";
import type { ColumnSet } from "./columns.js";
import { escapeFormula } from "./formula.js";
import type { RowOutcome } from "./row-outcome.js";

/** What a masked password cell reads as. */
export const MASK = "***";

/** docs/contract.md §6: a column whose header names a password (`item.SipPassword`, `WebSelfCare Password`). */
export function isPasswordHeader(header: string): boolean {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "")
    .endsWith("password");
}

/** The results header: the input's header cells, then the `result_*` columns (or another set's). */
export function resultsHeader(header: readonly string[], names: readonly string[] = RESULT_COLUMN_SET.names, at: "first" | "last" = "last"): string[] {
  return placeResults([...header.map(escapeFormula), ...names], header.length, at);
}

/**
 * A results record, `width` input cells then the result cells, in the order `--result-columns`
 * asks (docs/contract.md §6): as it is for "last", the result cells moved to the front for "first".
 */
export function placeResults(record: string[], width: number, at: "first" | "last"): string[] {
  return at === "last" ? record : [...record.slice(width), ...record.slice(0, width)];
}

/**
 * Returns a test of whether a row's own cells go to the results exactly as they are: the
 * header's width, no password to mask, nothing to defuse. Such a row's text can be copied
 * from the input as it is (input/raw.ts) rather than kept in memory and stringified again.
 * A cell holding a line break is excluded too: the input may quote it differently from the
 * results' line ends (an unquoted LF inside a CRLF file), and raw.ts trims blank lines.
 */
export function verbatimTest(header: readonly string[]): (cells: readonly string[]) => boolean {
  const width = header.length;
  const masked = header.map(isPasswordHeader);
  return (cells) => {
    if (cells.length !== width) return false;
    for (let i = 0; i < width; i += 1) {
      const cell = cells[i] as string;
      if (cell === "") continue;
      if (masked[i] === true) return false;
      if (cell.includes("\n") || cell.includes("\r")) return false;
      if (escapeFormula(cell) !== cell) return false;
    }
    return true;
  };
}

/**
 * One cell as csv-stringify writes it with portin's options (a one-character delimiter, `"`
 * quotes): quoted when it holds a quote, the delimiter or a line break, quotes doubled.
 */
export function csvCell(value: string, delimiter: string): string {
  if (value.includes('"')) return `"${value.replaceAll('"', '""')}"`;
  if (value.includes(delimiter) || value.includes("\n") || value.includes("\r")) return `"${value}"`;
  return value;
}

/** The result cells of a row as CSV text after the input's own: `,planned,4165550101,…` plus the line end. */
export function resultTail(outcome: RowOutcome, delimiter: string, lineEnd: string): string;
export function resultTail<T>(outcome: T, delimiter: string, lineEnd: string, cellsOf: (outcome: T) => string[]): string;
export function resultTail<T>(outcome: T, delimiter: string, lineEnd: string, cellsOf?: (outcome: T) => string[]): string {
  // Without cellsOf, the first overload promised a RowOutcome.
  const cells = cellsOf ? cellsOf(outcome) : RESULT_COLUMN_SET.cells(outcome as RowOutcome);
  let text = "";
  for (const cell of cells) text += delimiter + csvCell(cell, delimiter);
  return text + lineEnd;
}

/**
 * Returns a function building one results record. The password columns are found once
 * here, so the per-row work is one array and a pass over its cells.
 *
 * A ragged row (docs/contract.md §3 makes it invalid) is padded with "" or cut to the header's width,
 * so the result columns always sit under their headers; its result_message says why.
 */
export function rowShaper(header: readonly string[]): (cells: readonly string[], outcome: RowOutcome) => string[];
export function rowShaper<T>(header: readonly string[], columns: ColumnSet<T>): (cells: readonly string[], outcome: T) => string[];
export function rowShaper(header: readonly string[], columns: ColumnSet<never> = RESULT_COLUMN_SET): (cells: readonly string[], outcome: never) => string[] {
  const width = header.length;
  const shapeInput = inputShaper(header);
  const resultCells = columns.cells;
  return (cells, outcome) => {
    const record = shapeInput(cells, width + columns.names.length);
    const tail = resultCells(outcome);
    for (let i = 0; i < tail.length; i += 1) record[width + i] = tail[i] as string;
    return record;
  };
}

/**
 * Returns a function shaping a row's own cells as the results hold them: the header's width,
 * passwords masked, formulas defused; into a record of `size` slots (the rest for result cells).
 */
export function inputShaper(header: readonly string[]): (cells: readonly string[], size?: number) => string[] {
  const width = header.length;
  const masked = header.map(isPasswordHeader);
  return (cells, size = width) => {
    const record = new Array<string>(size);
    for (let i = 0; i < width; i += 1) {
      const cell = cells[i] ?? "";
      record[i] = masked[i] === true && cell !== "" ? MASK : escapeFormula(cell);
    }
    return record;
  };
}
