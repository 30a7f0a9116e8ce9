/**
 * A totals row under the data (docs/contract.md §3): "Total lines", "Total: 42", "Grand total",
 * "Sous-total". It is not a number row, so it is left out of the run and its results rather than
 * reported invalid on every run of the sheet; the command names it once on stderr.
 */
import type { SheetRow } from "./types.js";

/** A cell that starts a totals row, in English or French. */
const TOTAL_WORD = /^\s*(?:grand[\s-]+|sub[\s-]*|sous[\s-]*)?tota(?:l|ux)\b/i;
/** A number cell that holds a number to port: 7 digits at least, however written. */
const SOME_NUMBER = /\d(?:\D?\d){6}/;

/** Whether `row` reads as a totals row: a cell starting "Total…", and no number to port in the number column. */
export function isTotalsRow(row: SheetRow, numberAt: number): boolean {
  if (SOME_NUMBER.test(row.cells[numberAt] ?? "")) return false;
  const first = row.cells.find((cell) => cell.trim() !== "");
  return first !== undefined && TOTAL_WORD.test(first);
}

/**
 * The rows, less the totals rows at the end (a totals row with data rows after it is no
 * totals row, and stays, to be judged as any row). Those left out are added to `leftOut` once
 * the rows are read.
 */
export async function* withoutTotalsRows(rows: AsyncIterable<SheetRow>, numberAt: number, leftOut: SheetRow[]): AsyncGenerator<SheetRow> {
  const held: SheetRow[] = [];
  for await (const row of rows) {
    if (isTotalsRow(row, numberAt)) {
      held.push(row);
      continue;
    }
    // Held rows are rare (a totals row with rows after it): \`yield*\` of an empty list still costs a turn of the loop per row.
    if (held.length > 0) {
      yield* held;
      held.length = 0;
    }
    yield row;
  }
  leftOut.push(...held);
}

/** How the command names a row it left out: `line 45 ("Total lines, 42")`. */
export function describeLeftOut(row: SheetRow): string {
  const text = row.cells.filter((cell) => cell.trim() !== "").join(", ");
  return `line ${row.line} (${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)})`;
}
