/**
 * Finding the header (docs/contract.md §3): the first row that names a number column, among
 * the first HEADER_SEARCH_ROWS rows, so that a title above the header ("Acme - numbers to
 * port, wave 3") is passed over, or named in the refusal. The CSV reader (sheet.ts) and the
 * workbook reader (workbook.ts) search the same way.
 */
import type { ColumnMap } from "./columns.js";
import { HEADER_SEARCH_ROWS, matchColumns, NoNumberColumnError, NUMBER_ALIASES } from "./columns.js";
import { likelyColumn } from "./likely-column.js";
import type { Column } from "./types.js";
import * as sheetWords from "../messages/sheet.js";

/** A row the header could be: its line (an Excel row number in a workbook) and its cells. */
export interface HeaderCandidate {
  readonly line: number;
  readonly cells: readonly string[];
}

export interface FoundHeader<R extends HeaderCandidate> {
  readonly header: R;
  readonly columns: Column[];
  /** Rows passed over above it. */
  readonly above: number;
}

/** How much of a would-be title a refusal quotes. */
const TITLE_SHOWN_AT_MOST = 60;

/**
 * Asks `next` for rows until one is a header; null when there is no row at all. Refuses a
 * first row's other problems (an unknown member) as they stand: below a row without a
 * number column, a row is a header or it is not. `cellRef` names a header cell in messages.
 */
export async function findHeader<R extends HeaderCandidate>(
  source: string,
  next: () => Promise<R | undefined>,
  map: ColumnMap | undefined,
  cellRef?: (row: R) => (index: number) => string,
): Promise<FoundHeader<R> | null> {
  const above: R[] = [];
  let firstRefusal: NoNumberColumnError | null = null;
  while (above.length < HEADER_SEARCH_ROWS) {
    const row = await next();
    if (row === undefined) break;
    try {
      return { header: row, columns: matchColumns(source, row.cells, map, cellRef?.(row)), above: above.length };
    } catch (error) {
      if (above.length === 0 && !(error instanceof NoNumberColumnError)) throw error;
      firstRefusal ??= error as NoNumberColumnError;
      above.push(row);
    }
  }
  if (firstRefusal === null) return null;
  // A first row of several names is the header itself, lacking a number column; a first row
  // of one cell is a title, and the refusal says so.
  const looksLikeTitle = (above[0]?.cells ?? []).filter((cell) => cell.trim() !== "").length <= 1;
  const refusal = above.length === 1 || !looksLikeTitle ? firstRefusal : noHeader(source, above);
  throw withNumberHint(refusal, above);
}

/**
 * A header cell that most likely holds the numbers ("Phone #", "DID", "Telephone"), named in
 * the refusal with the mapping that makes the sheet run as it is (docs/contract.md §3).
 */
function withNumberHint(refusal: NoNumberColumnError, rows: readonly HeaderCandidate[]): NoNumberColumnError {
  for (const row of rows) {
    const cell = row.cells.find((text) => text.trim() !== "" && likelyColumn(text) === "number");
    if (cell === undefined) continue;
    const mapping = JSON.stringify({ columns: { [cell.trim()]: "number" } });
    return new NoNumberColumnError(sheetWords.numberColumnHint(refusal.message, JSON.stringify(cell.trim()), row.line, mapping));
  }
  return refusal;
}

/** No row of the first few names a number column: name the first one, which may be a title. */
function noHeader(source: string, rows: readonly HeaderCandidate[]): NoNumberColumnError {
  const first = rows[0];
  const text = (first?.cells ?? []).filter((cell) => cell.trim() !== "").join(", ");
  const shown = text.length > TITLE_SHOWN_AT_MOST ? `${text.slice(0, TITLE_SHOWN_AT_MOST)}…` : text;
  const names = NUMBER_ALIASES.map((alias) => `"${alias}"`).join(", ");
  return new NoNumberColumnError(sheetWords.noNumberColumnInLines(source, first?.line ?? 1, rows.at(-1)?.line ?? 1, JSON.stringify(shown), names));

}
