/**
 * Starting the thread that reads a workbook (workbook-reader.ts), early where the command line
 * names one: the thread spends its first ~0.1 s starting node and loading its script (the
 * readers, SheetJS among them, bundled in), which then overlaps portin loading its own code and parsing the command
 * line, rather than following them (bench/README.md, Start-up). The thread only loads until
 * it is handed a workbook (workbook.ts), so a guess that turns out wrong costs some CPU, never a result.
 */
import { setFlagsFromString } from "node:v8";
import type { Worker } from "node:worker_threads";
import { isWorkbookPath } from "../paths.js";
import { builtScript } from "../version.js";

/** The reading thread's script, workbook-reader.ts bundled with the libraries it reads with by the build (scripts/bundle.ts). */
const READER = builtScript("input/workbook-reader.cjs");

/** The options of a command reading a sheet whose value may be a workbook that is not the sheet. */
const OTHER_PATH_OPTIONS: ReadonlySet<string> = new Set(["--results", "--output"]);

/** A thread started ahead and not yet handed a workbook. */
let ahead: Worker | null = null;

/**
 * Whether `argv` (without node and the script) reads a workbook: one of `sheetCommands` first
 * (commands/names.ts SHEET_COMMANDS), then an `.xlsx` word that is no option's, nor the value of
 * one naming an output. A guess before yargs has parsed anything, for start-up alone.
 */
export function readsWorkbook(argv: readonly string[], sheetCommands: ReadonlySet<string>): boolean {
  if (!sheetCommands.has(argv[0] ?? "")) return false;
  return argv.some((word, at) => at > 0 && !word.startsWith("-") && isWorkbookPath(word) && !OTHER_PATH_OPTIONS.has(argv[at - 1] ?? ""));
}

/** Starts the reading thread now, to be handed a workbook later (takeReaderThread). */
export function startReaderThreadAhead(): void {
  if (ahead !== null) return;
  const worker = startReaderThread();
  ahead = worker;
  // Unused (the run stopped before reading, or the guess was wrong), it must not keep the process alive.
  worker.unref();
  // A thread that failed before it was taken is dropped; taking then starts another, whose failure is reported.
  worker.on("error", () => undefined);
  worker.once("exit", () => {
    if (ahead === worker) ahead = null;
  });
}

/** The thread started ahead, if it is still there, else a new one; either waits for its ReaderData. */
export function takeReaderThread(): Worker {
  const worker = ahead ?? startReaderThread();
  ahead = null;
  return worker;
}

function startReaderThread(): Worker {
  // Reading a workbook makes objects for every cell (the XML parser's tags, then each row's
  // cells) and drops them a row later. V8 at times learns from the few that outlive a
  // collection to allocate all of them straight into its old generation ("allocation-site
  // pretenuring"), which then fills with garbage: with the rows parsed by saxes
  // (worksheet-rows.ts) a 200,000-row, 27-column plan peaked at 268-271 MB with it on against
  // 232-257 MB off (bench/README.md, Workbooks). The flag is the
  // process's, set before the thread starts; it stays off for the rest of a run that reads a workbook.
  setFlagsFromString("--no-allocation-site-pretenuring");
  // node:worker_threads is loaded here, not with this module, which every command loads: a run
  // of a CSV sheet never starts a thread, and loading it cost ~4 ms of start-up (docs/contract.md §8).
  const { Worker } = process.getBuiltinModule("node:worker_threads");
  // execArgv: none of node's options of the main thread (`--input-type`, a loader) concern the reader.
  return new Worker(READER, { execArgv: [] });
}
