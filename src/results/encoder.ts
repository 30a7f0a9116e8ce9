/**
 * What every results encoder is (docs/contract.md §6): how it is opened, and the writer it
 * hands back. Apart from writer.ts, which picks an encoder by the destination's extension, so
 * that the encoders need nothing of it.
 */
import type { ColumnSet } from "./columns.js";
import type { RowOutcome } from "./row-outcome.js";

export interface ResultsWriter<T = RowOutcome> {
  /**
   * Queues one results row. Resolves at once while the output keeps up, and otherwise when
   * it has drained: await every call, so a run of 1,000,000 rows never piles up in memory.
   * Rejects with an OutputError once the output has failed (disk full, broken pipe).
   */
  write(cells: readonly string[], outcome: T): Promise<void>;
  /**
   * Like write(), for a row whose own cells are handed over as the results' text of them:
   * for CSV, without its line end, the input's bytes of a row that needs no change (cells.ts
   * verbatimTest) or what csv-writer.ts csvRowTexts made of the row's cells; for a workbook,
   * what xlsx-rows.ts xlsxRowTexts made. Result columns last only. The bytes are copied
   * before this returns.
   */
  writeVerbatim(text: Uint8Array | string, outcome: T): Promise<void>;
  /** Flushes, syncs and renames the file into place (or finishes on stdout). Idempotent. */
  close(): Promise<void>;
}

export interface ResultsOptions {
  /** The input's delimiter, byte order mark and line end, so the results open in whatever opened the input. */
  readonly delimiter: string;
  readonly bom: boolean;
  readonly lineEnd: string;
  /** Where "-" writes; never ended, since the caller owns it. */
  readonly stdout: NodeJS.WritableStream;
  /** How many rows will follow: a workbook refuses, before anything is sent or asked, more than a worksheet holds. */
  readonly rows: number;
  /** The option that chose the destination, for messages: `--results` unless given (`status` gives `--output`). */
  readonly option?: string;
  /** `--result-columns`: the result columns after the input's own, or before them (docs/contract.md §6). */
  readonly resultColumns?: ResultColumnsAt;
  /** The input's number column (0-based), which a workbook keeps in view; undefined for none. */
  readonly numberColumn?: number | undefined;
}

/**
 * A results format's text of rows' own cells (`indexes` their results rows), shaped as the
 * results hold them (cells.ts inputShaper), result columns last: made, a batch at a time,
 * while the sheet is read, then handed to writeVerbatim a row each (results/input-copy.ts).
 * CSV's is csv-writer.ts csvRowTexts, a workbook's xlsx-rows.ts xlsxRowTexts.
 */
export type RowTexts = (rows: readonly (readonly string[])[], indexes: readonly number[]) => string[];

/** Where the result columns go: after the input's own columns (the contract's order), or first. */
export type ResultColumnsAt = "last" | "first";

/** How a format opens its writer: eagerly, so an unwritable path stops the run (exit 2) before anything is sent. */
export type OpenEncoder = <T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>) => Promise<ResultsWriter<T>>;
