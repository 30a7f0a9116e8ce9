/**
 * A sheet's rows passed through a step of their own (input/totals-row.ts, validate/ranges.ts,
 * results/input-copy.ts): an iterator rather than an async generator, since a generator's turn
 * a row, on top of the reader's, was a tenth of reading a narrow workbook (bench/README.md).
 */
import type { SheetRow } from "./types.js";

/**
 * The rows `next` hands on, made for each iteration from `rows`' own iterator; stopping early
 * (a refusal, a break) lets go of that iterator, as a generator's return would.
 */
export function rowStream(rows: AsyncIterable<SheetRow>, next: (inner: AsyncIterator<SheetRow>) => () => Promise<IteratorResult<SheetRow>>): AsyncIterable<SheetRow> {
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<SheetRow> => {
      const inner = rows[Symbol.asyncIterator]();
      const stop = async (): Promise<IteratorResult<SheetRow>> => {
        await inner.return?.();
        return { done: true, value: undefined };
      };
      return { next: next(inner), return: stop };
    },
  };
}
