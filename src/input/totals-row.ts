/**
 * A totals row under the data (docs/contract.md §3): "Total lines", "Total: 42", "Grand total",
 * "Sous-total". It is not a number row, so it is left out of the run and its results rather than
 * reported invalid on every run of the sheet; the command names it once on stderr.
 */
import { rowStream } from "./row-stream.js";
import type { SheetRow } from "./types.js";

/** A cell that starts a totals row, in English or French. */
const TOTAL_WORD = /^\s*(?:grand[\s-]+|sub[\s-]*|sous[\s-]*)?tota(?:l|ux)\b/i;
/** A number cell that holds a number to port: 7 digits at least, however written. */
const SOME_NUMBER = /\d(?:\D?\d){6}/;

/** Whether `row` reads as a totals row: a cell starting "Total…", and no number to port in the number column. */
export function isTotalsRow(row: SheetRow, numberAt: number): boolean {
  // The word first: a data row's first cell fails it at its first character, where the number pattern scans the cell.
  const first = row.cells.find((cell) => cell.trim() !== "");
  if (first === undefined || !TOTAL_WORD.test(first)) return false;
  return !SOME_NUMBER.test(row.cells[numberAt] ?? "");
}

/**
 * The rows, less the totals rows at the end (a totals row with data rows after it is no
 * totals row, and stays, to be judged as any row). Those left out are added to `leftOut` once
 * the rows are read (row-stream.ts: no generator's turn a row).
 */
export function withoutTotalsRows(rows: AsyncIterable<SheetRow>, numberAt: number, leftOut: SheetRow[]): AsyncIterable<SheetRow> {
  return rowStream(rows, (inner) => {
    /** Totals rows read, not yet known to be the last. */
    const held: SheetRow[] = [];
    /** Rows to hand on before reading more: held rows that data rows followed, then that data row. */
    const ready: SheetRow[] = [];
    return async (): Promise<IteratorResult<SheetRow>> => {
      const first = ready.shift();
      if (first !== undefined) return { done: false, value: first };
      for (;;) {
        const read = await inner.next();
        if (read.done === true) {
          leftOut.push(...held.splice(0));
          return read;
        }
        if (isTotalsRow(read.value, numberAt)) {
          held.push(read.value);
          continue;
        }
        if (held.length === 0) return read;
        ready.push(...held.splice(0), read.value);
        return { done: false, value: ready.shift() as SheetRow };
      }
    };
  });
}

/** How the command names a row it left out: `line 45 ("Total lines, 42")`. */
export function describeLeftOut(row: SheetRow): string {
  const text = row.cells.filter((cell) => cell.trim() !== "").join(", ");
  return `line ${row.line} (${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)})`;
}
