/**
 * The results (docs/contract.md §6): one row per input data row, in input order, the input's
 * own cells then the result columns (columns.ts). A format is one encoder of that shape:
 * adding one is a file beside csv-writer.ts and an entry in ENCODERS. `portin status` writes
 * the same shape with its own column set (order-status.ts) through the same encoders.
 */
import type { SheetLayout } from "../input/types.js";
import { resultsFormat } from "../paths.js";
import type { ResultsFormat } from "../paths.js";
import { RESULT_COLUMN_SET } from "./columns.js";
import type { ColumnSet } from "./columns.js";
import { openCsvResults } from "./csv-writer.js";
import type { RowOutcome } from "./status.js";

export interface ResultsWriter<T = RowOutcome> {
  /**
   * Queues one results row. Resolves at once while the output keeps up, and otherwise when
   * it has drained: await every call, so a run of 1,000,000 rows never piles up in memory.
   * Rejects with an OutputError once the output has failed (disk full, broken pipe).
   */
  write(cells: readonly string[], outcome: T): Promise<void>;
  /**
   * Like write(), for a row whose own cells need no change (cells.ts verbatimTest): `text` is
   * the row as the input has it, in the results' delimiter, without its line end. The bytes
   * are copied before this returns.
   */
  writeVerbatim(text: Uint8Array, outcome: T): Promise<void>;
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

/** Where the result columns go: after the input's own columns (the contract's order), or first. */
export type ResultColumnsAt = "last" | "first";

/** The input's number column, which a results workbook freezes in view. */
export function numberColumnOf(layout: SheetLayout): number | undefined {
  return layout.columns.find((column) => column.role.kind === "number")?.index;
}

/** How a format opens its writer: eagerly, so an unwritable path stops the run (exit 2) before anything is sent. */
type OpenEncoder = <T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>) => Promise<ResultsWriter<T>>;

const ENCODERS: Readonly<Record<ResultsFormat, OpenEncoder>> = {
  csv: openCsvResults,
  jsonl: async (destination, header, options, columns) => (await import("./jsonl-writer.js")).openJsonlResults(destination, header, options, columns),
  // Loaded when used: every command would otherwise pay for yazl at start-up, before cli.ts
  // has its signal handlers in place.
  xlsx: async (destination, header, options, columns) => (await import("./xlsx-writer.js")).openXlsxResults(destination, header, options, columns),
};

/**
 * Opens the destination in its format, chosen by its extension (`.csv`, `.xlsx`, `.jsonl`;
 * stdout is CSV), and writes the header row. The commands refuse any other extension before
 * anything is read (commands/values.ts resultsPath).
 */
export function openResults(destination: string, header: readonly string[], options: ResultsOptions): Promise<ResultsWriter> {
  return openReport(destination, header, options, RESULT_COLUMN_SET);
}

/** Like openResults, for a report with another column set (`portin status`). */
export function openReport<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const format = resultsFormat(destination);
  if (format === null) throw new Error(`results to ${destination}: no format for its extension, which the command should have refused`);
  return ENCODERS[format](destination, header, options, columns);
}
