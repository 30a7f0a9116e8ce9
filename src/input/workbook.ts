/**
 * Opens an `.xlsx` workbook as a Sheet (docs/contract.md §3, "Workbooks"): the first visible
 * worksheet, or the one `--sheet` names, read row by row with exceljs's streaming reader on a
 * thread of its own (workbook-reader.ts), so every CSV rule (header matching, blank rows, one
 * result per data row) holds unchanged. A row's `line` is its Excel row number. Cells become
 * text as a CSV export would hold them had Excel not mangled them (cell-text.ts); a cell that
 * cannot be used where it is sent marks its row, and the validator reports it.
 */
import { dirname, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import { columnLetters, sheetPrefix } from "./cell-ref.js";
import type { ColumnMap } from "./columns.js";
import { matchColumns, NO_COLUMN_MAP } from "./columns.js";
import { nextRecord } from "./row-record.js";
import type { Sheet, TextFormat } from "./sheet.js";
import type { SheetLayout, SheetRow } from "./types.js";
import { checkWorkbookFile } from "./workbook-file.js";
import type { CellProblem, ReaderData, ReaderMessage } from "./workbook-reader.js";

/**
 * The reading thread's script. Vitest runs the sources, and a worker thread runs JavaScript
 * only: there it is the build, which `npm test` makes before it runs the tests.
 */
const READER = import.meta.url.endsWith(".ts") ? new URL("../../dist/src/input/workbook-reader.js", import.meta.url) : new URL("./workbook-reader.js", import.meta.url);

/**
 * Results written as CSV for a workbook open in Excel: with a byte order mark (without one
 * Excel reads a CSV as the local code page) and CRLF, as Excel's own "CSV UTF-8" writes.
 */
const CSV_FOR_EXCEL: TextFormat = { bom: true, lineEnd: "\r\n" };

const nothingSent = "nothing was sent";

export async function openWorkbook(path: string, sheetName: string | undefined, map: ColumnMap = NO_COLUMN_MAP): Promise<Sheet> {
  await checkWorkbookFile(path);
  const reader = new ReaderThread(path, sheetName);
  try {
    const header = await reader.next();
    if (header.kind !== "header") throw new InputError(header.kind === "refused" ? header.message : stopped(path));
    const prefix = sheetPrefix(header.sheet);
    const layout: SheetLayout = {
      source: path,
      baseDir: dirname(resolve(path)),
      // Only CSV results use it.
      delimiter: ",",
      header: header.cells,
      // Refusals name the worksheet, and each header cell as Excel does: `Numbers!C1`.
      columns: matchColumns(`${path}, worksheet ${JSON.stringify(header.sheet)}`, header.cells, map, (index) => `${prefix}${columnLetters(index + 1)}${header.line}`),
    };
    const sent = layout.columns.map((column) => column.role.kind !== "passthrough");
    return {
      layout,
      rows: dataRows(path, reader, sent),
      // Not byte for byte: the engine keeps a workbook's cells aside for the results (input/spool.ts).
      rereadable: false,
      reread: () => Promise.resolve(null),
      textFormat: () => CSV_FOR_EXCEL,
      size: null,
      // Of the zipped file: a progress display shows reading as it goes, not a share of the rows.
      bytesRead: () => reader.bytesRead,
    };
  } catch (error) {
    await reader.stop();
    throw error;
  }
}

function stopped(path: string): string {
  return `${path}: cannot be read as an .xlsx workbook (its contents stop part-way); it may be damaged: save it again from Excel; ${nothingSent}`;
}

async function* dataRows(path: string, reader: ReaderThread, sent: readonly boolean[]): AsyncGenerator<SheetRow> {
  let index = 0;
  try {
    for (;;) {
      const message = await reader.next();
      if (message.kind === "end") return;
      if (message.kind !== "rows") throw new InputError(message.kind === "refused" ? message.message : stopped(path));
      const records = Buffer.from(message.records.buffer, message.records.byteOffset, message.records.byteLength);
      let problems = 0;
      for (let at = 0, read = nextRecord(records, 0); read !== null; at++, read = nextRecord(records, read[1])) {
        const [line, cells] = read[0];
        let problem: string | undefined;
        for (; problems < message.problems.length && (message.problems[problems] as CellProblem).row === at; problems++) {
          const { column, message: why } = message.problems[problems] as CellProblem;
          // A value beyond the header always counts; an unusable cell only where it is sent.
          if (column > sent.length || sent[column - 1] === true) problem ??= why;
        }
        yield problem === undefined ? { index: index++, line, cells } : { index: index++, line, cells, problem };
      }
      reader.read();
    }
  } finally {
    await reader.stop();
  }
}

/** The reading thread, seen from here: its messages in order, and a way to tell it a batch was read or to stop it. */
class ReaderThread {
  bytesRead = 0;
  private readonly progress = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private readonly queue: ReaderMessage[] = [];
  private waiting: ((message: ReaderMessage | null) => void) | null = null;
  /** Set once the thread has ended or failed: what every later next() gets. */
  private last: ReaderMessage | null = null;

  constructor(
    private readonly path: string,
    sheetName: string | undefined,
  ) {
    const data: ReaderData = { path, sheetName, progress: this.progress };
    // execArgv: none of node's options of the main thread (`--input-type`, a loader) concern the reader.
    this.worker = new Worker(READER, { workerData: data, execArgv: [] });
    this.worker.on("message", (message: ReaderMessage) => this.deliver(message));
    this.worker.on("error", (error: Error) => this.deliver({ kind: "refused", message: `${path}: cannot be read as an .xlsx workbook (${error.message}); it may be damaged: save it again from Excel; ${nothingSent}` }));
    // Ending without an "end" or a refusal: the reading stopped part-way (workbook-reader.ts).
    this.worker.on("exit", () => this.deliver(null));
    this.worker.unref();
  }

  /** The thread's next message; a refusal once it has stopped short. */
  async next(): Promise<ReaderMessage> {
    const message = this.queue.shift() ?? this.last ?? (await this.wait());
    if (message.kind === "rows" || message.kind === "end") this.bytesRead = message.bytesRead;
    return message;
  }

  /**
   * The thread keeps the process alive only while a message is awaited: a run that stops before
   * reading the rows (the lookups failed) must not wait for ever on a thread waiting on it.
   */
  private async wait(): Promise<ReaderMessage> {
    this.worker.ref();
    try {
      const message = await new Promise<ReaderMessage | null>((resolve) => (this.waiting = resolve));
      return message ?? { kind: "refused", message: stopped(this.path) };
    } finally {
      this.worker.unref();
    }
  }

  /** Tells the thread one more batch has been read, so it may read on. */
  read(): void {
    Atomics.add(this.progress, 0, 1);
    Atomics.notify(this.progress, 0);
  }

  async stop(): Promise<void> {
    Atomics.store(this.progress, 1, 1);
    Atomics.notify(this.progress, 0);
    await this.worker.terminate();
  }

  private deliver(message: ReaderMessage | null): void {
    if (this.last !== null) return;
    if (message === null || message.kind === "refused" || message.kind === "end") this.last = message ?? { kind: "refused", message: stopped(this.path) };
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting !== null) waiting(message);
    else if (message !== null) this.queue.push(message);
  }
}
