/**
 * The results (docs/contract.md §6): one row per input data row, in input order, the input's
 * own cells then the result columns (columns.ts). A format is one encoder of that shape:
 * adding one is a file beside csv-writer.ts and an entry in ENCODERS.
 */
import { isWorkbookPath } from "../paths.js";
import { openCsvResults } from "./csv-writer.js";
import type { RowOutcome } from "./status.js";

export interface ResultsWriter {
  /**
   * Queues one results row. Resolves at once while the output keeps up, and otherwise when
   * it has drained: await every call, so a run of 1,000,000 rows never piles up in memory.
   * Rejects with an OutputError once the output has failed (disk full, broken pipe).
   */
  write(cells: readonly string[], outcome: RowOutcome): Promise<void>;
  /**
   * Like write(), for a row whose own cells need no change (cells.ts verbatimTest): `text` is
   * the row as the input has it, in the results' delimiter, without its line end. The bytes
   * are copied before this returns.
   */
  writeVerbatim(text: Uint8Array, outcome: RowOutcome): Promise<void>;
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
  /** How many rows will follow, when known: a workbook refuses, before anything is sent, more than a worksheet holds. */
  readonly rows?: number;
}

/** How a format opens its writer: eagerly, so an unwritable path stops the run (exit 2) before anything is sent. */
type OpenEncoder = (destination: string, header: readonly string[], options: ResultsOptions) => Promise<ResultsWriter>;

const ENCODERS: Readonly<Record<"csv" | "xlsx", OpenEncoder>> = {
  csv: openCsvResults,
  // Loaded when used: every command would otherwise pay for yazl at start-up, before cli.ts
  // has its signal handlers in place.
  xlsx: async (destination, header, options) => (await import("./xlsx-writer.js")).openXlsxResults(destination, header, options),
};

/** Opens the destination in its format, chosen by its extension (`.xlsx`, else CSV; stdout is CSV), and writes the header row. */
export function openResults(destination: string, header: readonly string[], options: ResultsOptions): Promise<ResultsWriter> {
  return ENCODERS[isWorkbookPath(destination) ? "xlsx" : "csv"](destination, header, options);
}
