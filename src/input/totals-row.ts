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
  // The word first: a data row's first cell fails it at its first character, where the number pattern scans the cell.
  const first = row.cells.find((cell) => cell.trim() !== "");
  if (first === undefined || !TOTAL_WORD.test(first)) return false;
  return !SOME_NUMBER.test(row.cells[numberAt] ?? "");
}

/**
 * The rows, less the totals rows at the end (a totals row with data rows after it is no
 * totals row, and stays, to be judged as any row). Those left out are added to `leftOut` once
 * the rows are read.
 *
 * An iterator rather than an async generator: a generator's every yield costs promises and
 * turns of the loop of its own, per row of a million-row sheet; this one passes on the
 * reader's own promise for each row.
 */
export function withoutTotalsRows(rows: AsyncIterable<SheetRow>, numberAt: number, leftOut: SheetRow[]): AsyncIterableIterator<SheetRow> {
  const source = rows[Symbol.asyncIterator]();
  /** Totals rows read and not yet known to be the last rows. */
  const held: SheetRow[] = [];
  /** Rows released with the row after them, handed out before anything is read again. */
  const ready: SheetRow[] = [];
  let at = 0;
  const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const step = (next: IteratorResult<SheetRow>): IteratorResult<SheetRow> | Promise<IteratorResult<SheetRow>> => {
    if (next.done === true) {
      leftOut.push(...held);
      held.length = 0;
      return DONE;
    }
    const row = next.value;
    if (isTotalsRow(row, numberAt)) {
      held.push(row);
      return source.next().then(step);
    }
    if (held.length === 0) return next;
    // Totals rows with a data row after them are data rows: handed out first, in order.
    ready.push(...held, row);
    held.length = 0;
    return { done: false, value: ready[at++] as SheetRow };
  };
  const iterator: AsyncIterableIterator<SheetRow> = {
    next() {
      if (at < ready.length) {
        const value = ready[at++] as SheetRow;
        if (at === ready.length) {
          ready.length = 0;
          at = 0;
        }
        return Promise.resolve({ done: false, value });
      }
      return source.next().then(step);
    },
    async return() {
      await source.return?.();
      return DONE;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** How the command names a row it left out: `line 45 ("Total lines, 42")`. */
export function describeLeftOut(row: SheetRow): string {
  const text = row.cells.filter((cell) => cell.trim() !== "").join(", ");
  return `line ${row.line} (${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)})`;
}
