/**
 * The thread that reads a workbook (docs/contract.md §3, "Workbooks"): workbook-xlsx.ts for an
 * .xlsx, workbook-sheetjs.ts for an .xls or .ods, on a worker thread of its own, so that
 * unzipping and parsing (most of a workbook's reading) run beside the validation on the main
 * thread, and the parser's many short-lived objects stay out of the heap that holds the run's
 * rows. Its bundle (scripts/bundle.ts) also keeps SheetJS, a megabyte of script, out of the
 * bundle every command loads. workbook.ts starts it and turns what it posts into a Sheet.
 *
 * It finds the worksheet, posts the header row's text, then the data rows in batches of
 * records (row-record.ts), each row's cells already as a CSV export would hold them (cell-text.ts),
 * with the cells that cannot be used named. It runs at most a few megabytes of records ahead of
 * the main thread's reading, so a long sheet never piles up in memory.
 */
import { parentPort } from "node:worker_threads";
import { describeSystemError } from "../system-error.js";
import { columnLetters, sheetPrefix } from "./cell-ref.js";
import { cellText } from "./cell-text.js";
import { MAX_CELL_CHARS } from "./limits.js";
import { RecordWriter } from "./row-record.js";
import { openBook } from "./workbook-open.js";
import type { BookSheet, OpenBook } from "./workbook-book.js";
import { damagedWorkbook, otherSheetsHint } from "./workbook-file.js";
import type { WorkbookContainer } from "./workbook-file.js";
import { TooLargeBook } from "./workbook-sheetjs.js";
import { HEADER_VERDICT } from "./header-verdict.js";
import { SheetDamage } from "./worksheet-rows.js";
import type { SheetRow } from "./worksheet-rows.js";
import * as sheetWords from "../messages/sheet.js";

/** What workbook.ts gives the thread, as its first message. */
export interface ReaderData {
  readonly path: string;
  /** What workbook-file.ts found the file to be. */
  readonly container: WorkbookContainer;
  /** `--sheet`, or undefined for the first visible worksheet. */
  readonly sheetName: string | undefined;
  /**
   * [0]: batches the main thread has read; [1]: its verdict on the header row posted last
   * (HEADER_VERDICT). It stops the thread by terminating it, which wakes an Atomics.wait.
   */
  readonly progress: Int32Array;
  /** Rows a batch carries, and at most how many batches, and record bytes, posted before the main thread has read them. */
  readonly batchRows: number;
  readonly ahead: number;
  readonly aheadBytes: number;
}

/** A cell that cannot be used where it is sent, named as Excel names it; the main thread decides whether its column is sent. */
export interface CellProblem {
  /** The batch's row it is in, from 0. */
  readonly row: number;
  /** 1-based column. */
  readonly column: number;
  readonly message: string;
}

/** What the thread posts, in this order: a header (or a refusal), then batches, then the end (or a refusal). */
export type ReaderMessage =
  /** `otherSheets`: the workbook's other sheets when `--sheet` named none, for a refusal to offer (docs/contract.md §3). */
  | { readonly kind: "header"; readonly sheet: string; readonly otherSheets: readonly string[]; readonly line: number; readonly cells: readonly string[] }
  /** A one-line refusal naming the file: the workbook cannot be read, or has no such sheet. */
  | { readonly kind: "refused"; readonly message: string }
  /** portin's own code failed on a row: not the workbook's fault, and not to be reported as if it were. */
  | { readonly kind: "failed"; readonly message: string; readonly stack: string | undefined }
  /** Rows as records headed by their Excel row numbers; blank rows are left out. */
  | { readonly kind: "rows"; readonly records: Uint8Array; readonly problems: readonly CellProblem[]; readonly bytesRead: number }
  | { readonly kind: "end"; readonly bytesRead: number };

/** A batch's first buffer: 1,000 rows of a wide sheet; a wider one grows it. */
const BATCH_BYTES = 512 * 1024;

/** A refusal the thread posts as it is, rather than as a damaged workbook. */
class Refusal extends Error {}

/** A failure of portin's own code handling a row, as opposed to the reading of the file. */
class HandlerFailure extends Error {}

/** What the thread posts for a failure: a refusal naming the file, or, for portin's own bug, a failure. */
function failureMessage(path: string, format: string | undefined, failure: unknown): ReaderMessage {
  if (failure instanceof Refusal || failure instanceof TooLargeBook) return { kind: "refused", message: failure.message };
  if (failure instanceof HandlerFailure) {
    const cause = failure.cause;
    return cause instanceof Error ? { kind: "failed", message: `${cause.name}: ${cause.message}`, stack: cause.stack } : { kind: "failed", message: String(cause), stack: undefined };
  }
  // Damage the readers found, or an error reading the file (its cause, when it has a system error's code).
  const cause = failure instanceof SheetDamage && failure.cause !== undefined ? failure.cause : failure;
  const system = (cause as { code?: unknown } | null)?.code;
  const why = typeof system === "string" && system.startsWith("E") ? describeSystemError(cause) : failure instanceof Error ? failure.message : String(failure);
  return { kind: "refused", message: damagedWorkbook(path, why, format) };
}

async function read({ path, container, sheetName, progress, batchRows, ahead, aheadBytes }: ReaderData, post: (message: ReaderMessage) => void, opened: (book: OpenBook) => void): Promise<void> {
  const book = await openBook(path, container);
  opened(book);
  try {
    const sheet = findSheet(path, book, sheetName);
    const date1904 = book.date1904;
    // The first sheet may be notes, not the data: a refusal of it names the others and --sheet.
    const otherSheets = sheetName === undefined ? book.sheets.map((entry) => entry.name).filter((name) => name !== sheet.name) : [];
    // Until the header row, no batches: each row with a value is offered as the header until
    // the main thread takes one; the rows it passes over are titles.
    const reading: { batches: Batches | null; offered: number } = { batches: null, offered: 0 };
    await eachRow(book, sheet, (row) => {
      if (reading.batches !== null) {
        reading.batches.add(row);
        return;
      }
      const header = headerOf(row, date1904);
      if (header === null) return;
      post({ kind: "header", sheet: sheet.name, otherSheets, ...header });
      reading.offered++;
      if (verdict(progress) === HEADER_VERDICT.header) {
        reading.batches = new Batches({ progress, batchRows, ahead, aheadBytes }, post, () => book.bytesRead(), { width: header.cells.length, prefix: sheetPrefix(sheet.name), date1904 }, path);
      }
    });
    if (reading.offered === 0) {
      throw new Refusal(sheetWords.emptyWorksheet(path, JSON.stringify(sheet.name), otherSheetsHint(otherSheets)));
    }
    // Without a header the main thread refuses the sheet, naming the rows it passed over.
    reading.batches?.flush();
    post({ kind: "end", bytesRead: book.bytesRead() });
  } finally {
    book.close();
  }
}

/** Waits for the main thread's verdict on the header row just posted, and clears it for the next. */
function verdict(progress: Int32Array): number {
  Atomics.wait(progress, 1, HEADER_VERDICT.pending);
  return Atomics.exchange(progress, 1, HEADER_VERDICT.pending);
}

/**
 * Reads the worksheet, handing each row to `onRow` as it is read. What `onRow` throws is
 * portin's, not the file's, and so is anything the reader throws other than the damage it names.
 */
async function eachRow(book: OpenBook, sheet: BookSheet, onRow: (row: SheetRow) => void): Promise<void> {
  try {
    await book.eachRow(sheet, (row) => {
      try {
        onRow(row);
      } catch (error) {
        throw error instanceof Refusal ? error : new HandlerFailure("a row could not be handled", { cause: error });
      }
    });
  } catch (error) {
    throw error instanceof Refusal || error instanceof HandlerFailure || error instanceof SheetDamage ? error : new HandlerFailure("the worksheet could not be parsed", { cause: error });
  }
}

/** The worksheet wanted: `--sheet` (sheet names are unique regardless of case, in Excel and LibreOffice), else the first visible tab. */
function findSheet(path: string, book: OpenBook, sheetName: string | undefined): BookSheet {
  const sheet = sheetName === undefined ? (book.sheets.find((entry) => entry.visible) ?? book.sheets[0]) : book.sheets.find((entry) => entry.name.toLowerCase() === sheetName.toLowerCase());
  if (sheet !== undefined) return sheet;
  const names = book.sheets.map((entry) => JSON.stringify(entry.name)).join(", ");
  if (sheetName !== undefined) throw new Refusal(sheetWords.noSuchWorksheet(path, JSON.stringify(sheetName), names || "none"));
  // Every workbook a program saves has a worksheet.
  throw new SheetDamage("it holds no worksheet");
}

/** The header: the first row with a value, cut after its last non-blank cell; null for a row without one. */
function headerOf(row: SheetRow, date1904: boolean): { line: number; cells: string[] } | null {
  const cells: string[] = [];
  row.eachCell((value, column) => {
    const read = cellText(value, date1904);
    cells[column - 1] = typeof read === "string" ? read : read.text;
  });
  let width = cells.length;
  while (width > 0 && (cells[width - 1] ?? "").trim() === "") width--;
  return width === 0 ? null : { line: row.number, cells: Array.from({ length: width }, (_, i) => cells[i] ?? "") };
}

interface RowShape {
  readonly width: number;
  readonly prefix: string;
  readonly date1904: boolean;
}

/** A cell as Excel names it, `Numbers!C7`: only for a message, never made for a cell that needs none. */
function cellName(shape: RowShape, column: number, row: SheetRow): string {
  return `${shape.prefix}${columnLetters(column)}${row.number}`;
}

/** Gathers rows into batches and posts each, waiting while the main thread is `ahead` batches or `aheadBytes` behind. */
class Batches {
  private readonly records = new RecordWriter(BATCH_BYTES);
  private rows = 0;
  private problems: CellProblem[] = [];
  private posted = 0;
  /** The bytes of each batch posted and not yet known read, oldest first, and their sum. */
  private readonly unread: number[] = [];
  private unreadBytes = 0;

  constructor(
    private readonly flow: Pick<ReaderData, "progress" | "batchRows" | "ahead" | "aheadBytes">,
    private readonly post: (message: ReaderMessage) => void,
    private readonly bytesRead: () => number,
    private readonly shape: RowShape,
    private readonly path: string,
  ) {}

  /** Adds one worksheet row (nothing for a blank one). */
  add(row: SheetRow): void {
    const shape = this.shape;
    const cells = new Array<string>(shape.width).fill("");
    let blank = true;
    row.eachCell((value, column) => {
      const read = cellText(value, shape.date1904);
      const text = typeof read === "string" ? read : read.text;
      const unusable = typeof read === "string" ? undefined : read.problem;
      if (unusable === undefined && text.trim() === "") return;
      blank = false;
      if (column > shape.width) {
        this.problems.push({ row: this.rows, column, message: sheetWords.valueWithoutHeader(cellName(shape, column, row)) });
        return;
      }
      if (text.length > MAX_CELL_CHARS) {
        // docs/contract.md §3's limits: Excel holds 32,767 characters in a cell, so only a crafted file meets this.
        throw new Refusal(sheetWords.workbookCellTooLong(this.path, cellName(shape, column, row), text.length.toLocaleString("en-US"), MAX_CELL_CHARS.toLocaleString("en-US")));

      }
      cells[column - 1] = text;
      if (unusable !== undefined) this.problems.push({ row: this.rows, column, message: `${cellName(shape, column, row)} ${unusable}` });
    });
    if (blank) return;
    this.records.append(row.number, cells);
    this.rows++;
    if (this.rows === this.flow.batchRows) this.flush();
  }

  /**
   * Posts the gathered rows, once the main thread is fewer than `ahead` batches behind and the
   * batches it has not read leave room for these bytes. Bounded by bytes, a narrow sheet's small
   * batches run further ahead: the thread reads on while the main thread is slow on some rows
   * (the first row of each exchange asks libphonenumber-js, validate/nanp.ts), rather than
   * waiting, then leaving the main thread waiting (bench/README.md, Workbooks).
   */
  flush(): void {
    if (this.rows === 0) return;
    const { progress, ahead, aheadBytes } = this.flow;
    const bytes = this.records.length;
    for (;;) {
      const read = Atomics.load(progress, 0);
      for (let known = this.posted - this.unread.length; known < read; known++) this.unreadBytes -= this.unread.shift() ?? 0;
      const behind = this.posted - read;
      // One batch may always wait for the main thread, however long.
      if (behind === 0 || (behind < ahead && this.unreadBytes + bytes <= aheadBytes)) break;
      // Blocks this thread only: it has nothing else to do until the main thread reads on, or
      // stops it (terminating a thread wakes its wait).
      Atomics.wait(progress, 0, read);
    }
    this.post({ kind: "rows", records: this.records.take(), problems: this.problems, bytesRead: this.bytesRead() });
    this.unread.push(bytes);
    this.unreadBytes += bytes;
    this.posted++;
    this.rows = 0;
    this.problems = [];
  }
}

if (parentPort !== null) {
  const port = parentPort;
  // A batch's buffer moves to the main thread rather than being copied.
  const post = (message: ReaderMessage): void => port.postMessage(message, message.kind === "rows" ? [message.records.buffer as ArrayBuffer] : []);
  // The thread may start before the command line is parsed (reader-start.ts): its script loads
  // while portin does, and the workbook to read comes as the first message.
  port.once("message", (data: ReaderData) => {
    let format: string | undefined;
    read(data, post, (book) => (format = book.format)).catch((error: unknown) => post(failureMessage(data.path, format, error)));
  });
}
