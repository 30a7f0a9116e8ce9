/**
 * Opens an `.xlsx`, `.xls` or `.ods` workbook as a Sheet (docs/contract.md §3, "Workbooks"): the
 * first visible worksheet, or the one `--sheet` names, read row by row on a thread of its own
 * (workbook-reader.ts), so every CSV rule (header matching, blank rows, one
 * result per data row) holds unchanged. A row's `line` is its Excel row number. Cells become
 * text as a CSV export would hold them had Excel not mangled them (cell-text.ts); a cell that
 * cannot be used where it is sent marks its row, and the validator reports it.
 */
import { dirname, resolve } from "node:path";
import type { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import { columnLetters, sheetPrefix } from "./cell-ref.js";
import type { ColumnMap } from "./columns.js";
import { NO_COLUMN_MAP, NoNumberColumnError } from "./columns.js";
import { MAX_ROWS } from "./limits.js";
import { findHeader } from "./header-search.js";
import { HEADER_VERDICT } from "./header-verdict.js";
import { takeReaderThread } from "./reader-start.js";
import { nextRecord } from "./row-record.js";
import type { ReadSheet, TextFormat } from "./reader.js";
import type { SheetLayout, SheetRow } from "./types.js";
import { checkWorkbookFile, damagedWorkbook, otherSheetsHint } from "./workbook-file.js";
import type { WorkbookContainer } from "./workbook-file.js";
import type { CellProblem, ReaderData, ReaderMessage } from "./workbook-reader.js";
import * as sheetWords from "../messages/sheet.js";

/**
 * Results written as CSV for a workbook open in Excel: with a byte order mark (without one
 * Excel reads a CSV as the local code page) and CRLF, as Excel's own "CSV UTF-8" writes.
 */
const CSV_FOR_EXCEL: TextFormat = { bom: true, lineEnd: "\r\n" };

/**
 * Rows the reading thread hands over at a time, and how far it may read ahead: batches, and
 * bytes of records. A wide sheet's batches reach the bytes first (~4 batches); a narrow
 * sheet's, of a few cells a row, the batches (~45,000 rows of 4 cells).
 */
export const BATCH_ROWS = 1000;
export const AHEAD = 64;
export const AHEAD_BYTES = 2 * 1024 * 1024;

export async function openWorkbook(path: string, sheetName: string | undefined, map: ColumnMap = NO_COLUMN_MAP): Promise<ReadSheet> {
  const container = await checkWorkbookFile(path);
  const reader = new ReaderThread(path, container, sheetName);
  try {
    const first = await reader.next();
    if (first.kind !== "header") throw reader.failure(first);
    const prefix = sheetPrefix(first.sheet);
    let offered = 0;
    const found = await findHeader(
      `${path}, worksheet ${JSON.stringify(first.sheet)}`,
      async () => {
        if (offered++ === 0) return first;
        // The row offered last was a title: on to the next.
        reader.answer(HEADER_VERDICT.title);
        const next = await reader.next();
        if (next.kind === "end") return undefined;
        if (next.kind !== "header") throw reader.failure(next);
        return next;
      },
      map,
      // Refusals name each header cell as Excel does: `Numbers!C1`.
      (row) => (index) => `${prefix}${columnLetters(index + 1)}${row.line}`,
    ).catch((error: unknown) => {
      // The first sheet may be notes above the data (docs/contract.md §3): offer the others.
      if (error instanceof NoNumberColumnError && first.otherSheets.length > 0) throw new InputError(`${error.message}${otherSheetsHint(first.otherSheets)}`);
      throw error;
    });
    // The thread offered a row, so there is one.
    if (found === null) throw reader.failure({ kind: "end", bytesRead: 0 });
    reader.answer(HEADER_VERDICT.header);
    const { header, columns } = found;
    const layout: SheetLayout = {
      source: path,
      baseDir: dirname(resolve(path)),
      // Only CSV results use it.
      delimiter: ",",
      header: header.cells,
      columns,
      headerLine: header.line,
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
      close: () => reader.stop(),
    };
  } catch (error) {
    await reader.stop();
    throw error;
  }
}

/**
 * The data rows, a batch of the thread's records decoded at a time. An iterator of its own
 * rather than an async generator: a row already decoded is handed on without a generator's
 * turn, which cost a tenth of reading a narrow workbook (bench/README.md, Workbooks).
 */
function dataRows(path: string, reader: ReaderThread, sent: readonly boolean[]): AsyncIterable<SheetRow> {
  return { [Symbol.asyncIterator]: () => new DataRows(path, reader, sent) };
}

class DataRows implements AsyncIterator<SheetRow> {
  private batch: SheetRow[] = [];
  private at = 0;
  /** Data rows decoded so far. */
  private index = 0;
  /** Thrown once the rows before it are handed on. */
  private failure: Error | null = null;
  private ended = false;
  /** A batch was decoded that the thread has not been told is read. */
  private owed = false;

  constructor(
    private readonly path: string,
    private readonly reader: ReaderThread,
    private readonly sent: readonly boolean[],
  ) {}

  next(): Promise<IteratorResult<SheetRow>> {
    const row = this.batch[this.at];
    if (row !== undefined) {
      this.at++;
      return Promise.resolve({ done: false, value: row });
    }
    return this.read();
  }

  async return(): Promise<IteratorResult<SheetRow>> {
    this.ended = true;
    await this.reader.stop();
    return { done: true, value: undefined };
  }

  private async read(): Promise<IteratorResult<SheetRow>> {
    try {
      while (!this.ended && this.failure === null) {
        // The thread reads on once a batch's rows are all handed on, not merely decoded.
        if (this.owed) this.reader.read();
        this.owed = false;
        const message = await this.reader.next();
        if (message.kind === "end") break;
        if (message.kind !== "rows") throw this.reader.failure(message);
        this.decode(message);
        this.owed = true;
        const row = this.batch[this.at];
        if (row !== undefined) {
          this.at++;
          return { done: false, value: row };
        }
      }
      if (this.failure !== null) throw this.failure;
    } catch (error) {
      await this.return();
      throw error;
    }
    return this.return();
  }

  /** One batch's records as rows, each marked with the first problem of a cell that counts. */
  private decode(message: Extract<ReaderMessage, { kind: "rows" }>): void {
    const records = Buffer.from(message.records.buffer, message.records.byteOffset, message.records.byteLength);
    const { problems } = message;
    const rows: SheetRow[] = [];
    let next = 0;
    for (let at = 0, read = nextRecord(records, 0); read !== null; at++, read = nextRecord(records, read[1])) {
      const [line, cells] = read[0];
      let problem: string | undefined;
      for (let cell: CellProblem | undefined = problems[next]; cell !== undefined && cell.row === at; cell = problems[++next]) {
        // A value beyond the header always counts; an unusable cell only where it is sent.
        if (cell.column > this.sent.length || this.sent[cell.column - 1] === true) problem ??= cell.message;
      }
      if (this.index >= MAX_ROWS) {
        this.failure = new InputError(sheetWords.tooManyWorkbookRows(this.path, line, MAX_ROWS.toLocaleString("en-US")));

        break;
      }
      const index = this.index++;
      rows.push(problem === undefined ? { index, line, cells } : { index, line, cells, problem });
    }
    this.batch = rows;
    this.at = 0;
  }
}

/** The reading thread, seen from here: its messages in order, and a way to tell it a batch was read or to stop it. */
class ReaderThread {
  bytesRead = 0;
  private readonly progress = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private readonly queue: ReaderMessage[] = [];
  private waiting: ((message: ReaderMessage) => void) | null = null;
  /** Set once the thread has ended or failed: what every later next() gets. */
  private last: ReaderMessage | null = null;

  constructor(
    private readonly path: string,
    container: WorkbookContainer,
    sheetName: string | undefined,
  ) {
    this.worker = takeReaderThread();
    this.worker.on("message", (message: ReaderMessage) => this.deliver(message));
    this.worker.on("error", (error: Error & { code?: unknown }) => {
      // The thread itself failing (out of memory, its script missing) is portin's trouble, not the file's.
      const own = typeof error.code === "string" && (error.code.startsWith("ERR_WORKER") || error.code === "ERR_MODULE_NOT_FOUND");
      this.deliver(own ? { kind: "failed", message: `${error.code as string}: ${error.message}`, stack: error.stack } : { kind: "refused", message: damagedWorkbook(path, error.message) });
    });
    // Ending without an "end" or a refusal: the thread's event loop ran dry mid-read, which
    // only a fault of its own can cause; the file is named all the same.
    this.worker.on("exit", () => this.deliver({ kind: "refused", message: damagedWorkbook(path, sheetWords.CONTENTS_STOP)
 }));
    this.worker.unref();
    const data: ReaderData = { path, container, sheetName, progress: this.progress, batchRows: BATCH_ROWS, ahead: AHEAD, aheadBytes: AHEAD_BYTES };
    this.worker.postMessage(data);
  }

  /** The thread's next message: a header, rows, the end, or why it stopped. */
  async next(): Promise<ReaderMessage> {
    const message = this.queue.shift() ?? this.last ?? (await this.wait());
    if (message.kind === "rows" || message.kind === "end") this.bytesRead = message.bytesRead;
    return message;
  }

  /** The error a refusal or failure is: a one-line InputError for the file's trouble, a plain Error for portin's own. */
  failure(message: ReaderMessage): Error {
    if (message.kind === "refused") return new InputError(message.message);
    if (message.kind === "failed") {
      // The thread's stack, for --debug: the message alone is what a user sees.
      const error = new Error(`reading ${this.path} failed in portin itself: ${message.message}`);
      if (message.stack !== undefined) error.stack = message.stack;
      return error;
    }
    return new Error(`reading ${this.path}: a ${message.kind} came out of order`);
  }

  /** Tells the thread whether the row it offered last is the header. */
  answer(verdict: (typeof HEADER_VERDICT)[keyof typeof HEADER_VERDICT]): void {
    Atomics.store(this.progress, 1, verdict);
    Atomics.notify(this.progress, 1);
  }

  /** Tells the thread one more batch has been read, so it may read on. */
  read(): void {
    Atomics.add(this.progress, 0, 1);
    Atomics.notify(this.progress, 0);
  }

  /** Ends the thread, wherever it is: terminating it also wakes it from Atomics.wait. Idempotent. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  /**
   * The thread keeps the process alive only while a message is awaited: a run that stops before
   * reading the rows (the lookups failed) must not wait for ever on a thread waiting on it.
   */
  private async wait(): Promise<ReaderMessage> {
    this.worker.ref();
    try {
      return await new Promise<ReaderMessage>((resolve) => (this.waiting = resolve));
    } finally {
      this.worker.unref();
    }
  }

  private deliver(message: ReaderMessage): void {
    if (this.last !== null) return;
    if (message.kind === "refused" || message.kind === "failed" || message.kind === "end") this.last = message;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting !== null) waiting(message);
    else this.queue.push(message);
  }
}
