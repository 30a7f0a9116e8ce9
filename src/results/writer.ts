/**
 * The results (docs/contract.md §6): one row per input data row, in input order, the input's
 * own cells then the result columns (columns.ts). A format is one encoder of that shape
 * (encoder.ts): adding one is a file beside csv-writer.ts and an entry in ENCODERS.
 * `portin status` writes the same shape with its own column set (order-status.ts) through
 * the same encoders.
 */
import type { SheetLayout } from "../input/types.js";
import { resultsFormat } from "../paths.js";
import type { ResultsFormat } from "../paths.js";
import { RESULT_COLUMN_SET } from "./columns.js";
import type { RowOutcome } from "./row-outcome.js";
import type { ColumnSet } from "./columns.js";
import { openCsvResults } from "./csv-writer.js";
import type { OpenEncoder, ResultsOptions, ResultsWriter } from "./encoder.js";

/** The input's number column, which a results workbook freezes in view. */
export function numberColumnOf(layout: SheetLayout): number | undefined {
  return layout.columns.find((column) => column.role.kind === "number")?.index;
}

const ENCODERS: Readonly<Record<ResultsFormat, OpenEncoder>> = {
  csv: openCsvResults,
  jsonl: async (destination, header, options, columns) => (await import("./jsonl-writer.js")).openJsonlResults(destination, header, options, columns),
  // Loaded when used: every command would otherwise pay for yazl at start-up, before cli.ts
  // has its signal handlers in place.
  xlsx: async (destination, header, options, columns) => (await import("./xlsx-writer.js")).openXlsxResults(destination, header, options, columns),
};

/**
 * Runs `run` with what writing results to `destination` will need, and takes long to start,
 * started as it begins, while the sheet is read: a workbook's zip thread (xlsx-zip.ts), ~0.1 s
 * that a small sheet's run otherwise waited for once its rows were planned. A run that ends
 * without taking it (results never opened) stops it, so that a host of the library (api.ts)
 * is not left with an idle thread.
 */
export async function withResultsAhead<T>(destination: string, run: () => Promise<T>): Promise<T> {
  if (resultsFormat(destination) !== "xlsx") return run();
  // A failure to load the module or to start the thread is openResults's to report, when the results are opened.
  const zip = import("./xlsx-zip.js").then(
    (module) => {
      module.startZipThreadAhead();
      return module;
    },
    () => null,
  );
  try {
    return await run();
  } finally {
    void zip.then((module) => module?.stopZipThreadAhead()).catch(() => undefined);
  }
}

/**
 * Opens the destination in its format, chosen by its extension (`.csv`, `.xlsx`, `.jsonl`;
 * stdout is CSV), and writes the header row. The commands refuse any other extension before
 * anything is read (commands/values.ts resultsPath).
 */
export function openResults(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<RowOutcome> = RESULT_COLUMN_SET): Promise<ResultsWriter> {
  return openReport(destination, header, options, columns);
}

/** Like openResults, for a report with another column set (`portin status`). */
export function openReport<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const format = resultsFormat(destination);
  if (format === null) throw new Error(`results to ${destination}: no format for its extension, which the command should have refused`);
  return ENCODERS[format](destination, header, options, columns);
}
