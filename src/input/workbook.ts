/**
 * Opens an `.xlsx` workbook as a Sheet (docs/contract.md §3, "Workbooks"): the first visible
 * worksheet, or the one `--sheet` names, read row by row with exceljs's streaming reader, so
 * every CSV rule (header matching, blank rows, one result per data row) holds unchanged. A
 * row's `line` is its Excel row number. Cells become text as a CSV export would hold them had
 * Excel not mangled them (cell-text.ts); a cell that cannot be used where it is sent marks its
 * row, and the validator reports it.
 */
import { createReadStream } from "node:fs";
import type { ReadStream } from "node:fs";
import { dirname, resolve } from "node:path";
import ExcelJS from "exceljs";
import { InputError } from "../errors.js";
import { describeSystemError } from "../system-error.js";
import { columnLetters, sheetPrefix } from "./cell-ref.js";
import { cellText } from "./cell-text.js";
import type { FormatSource } from "./cell-text.js";
import type { ColumnMap } from "./columns.js";
import { matchColumns, NO_COLUMN_MAP } from "./columns.js";
import type { Sheet, TextFormat } from "./sheet.js";
import type { SheetLayout, SheetRow } from "./types.js";
import { checkWorkbookFile } from "./workbook-file.js";

/** What portin reads of exceljs's streaming reader; its typings leave out sheet names and the workbook model. */
interface StreamedCell extends FormatSource {
  readonly value: unknown;
}
interface StreamedRow {
  readonly number: number;
  eachCell(iteratee: (cell: StreamedCell, column: number) => void): void;
}
interface StreamedSheet extends AsyncIterable<StreamedRow> {
  readonly name: string;
}
interface SheetEntry {
  readonly name: string;
  readonly state?: string;
}
interface StreamedBook extends AsyncIterable<StreamedSheet> {
  /** From xl/workbook.xml: the sheets in tab order. */
  readonly model?: { readonly sheets?: readonly SheetEntry[] };
  readonly properties?: { readonly model?: { readonly date1904?: boolean } };
}

const READER_OPTIONS = {
  worksheets: "emit",
  sharedStrings: "cache",
  // Styles tell a date from a number: a date is a number cell with a date format.
  styles: "cache",
  // A hyperlink cell's value is its shown text; the link itself is never sent.
  hyperlinks: "ignore",
  entries: "ignore",
} as const;

/**
 * Results written as CSV for a workbook open in Excel: with a byte order mark (without one
 * Excel reads a CSV as the local code page) and CRLF, as Excel's own "CSV UTF-8" writes.
 */
const CSV_FOR_EXCEL: TextFormat = { bom: true, lineEnd: "\r\n" };

const nothingSent = "nothing was sent";

function unreadable(path: string, error: unknown): InputError {
  if (error instanceof InputError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const system = (error as { code?: unknown } | null)?.code;
  const why = typeof system === "string" && system.startsWith("E") ? describeSystemError(error) : reason;
  return new InputError(`${path}: cannot be read as an .xlsx workbook (${why}); it may be damaged: save it again from Excel; ${nothingSent}`, { cause: error });
}

/**
 * On some damage, unzipper (under exceljs) stops reading without an error: the read then waits
 * on nothing, and Node would end the process with code 13 and no word. When the event loop
 * runs dry while a read is pending, that read fails instead, as a damaged workbook.
 */
class StallGuard {
  private pending: ((error: Error) => void) | null = null;
  private readonly onIdle = (): void => {
    const reject = this.pending;
    this.pending = null;
    reject?.(new InputError(`${this.path}: cannot be read as an .xlsx workbook (its contents stop part-way); it may be damaged: save it again from Excel; ${nothingSent}`));
  };

  constructor(private readonly path: string) {
    process.on("beforeExit", this.onIdle);
  }

  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
    return new Promise((resolve, reject) => {
      this.pending = reject;
      iterator.next().then(
        (result) => {
          this.pending = null;
          resolve(result);
        },
        (error: unknown) => {
          this.pending = null;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  close(): void {
    process.off("beforeExit", this.onIdle);
  }
}

export async function openWorkbook(path: string, sheetName: string | undefined, map: ColumnMap = NO_COLUMN_MAP): Promise<Sheet> {
  await checkWorkbookFile(path);
  const input = createReadStream(path);
  const book = new ExcelJS.stream.xlsx.WorkbookReader(input, READER_OPTIONS) as unknown as StreamedBook;
  const sheets = book[Symbol.asyncIterator]();
  const guard = new StallGuard(path);
  const stop = (): Promise<void> => {
    guard.close();
    input.destroy();
    // Not awaited: after a stall exceljs's generator is still inside a read that never ends,
    // and a return() queues behind it for ever.
    void sheets.return?.().catch(() => undefined);
    return Promise.resolve();
  };
  try {
    const sheet = await findSheet(path, book, sheets, sheetName, guard);
    return await openRows(path, sheet, book, stop, guard, input, map);
  } catch (error) {
    await stop();
    throw unreadable(path, error);
  }
}

/** Walks the workbook's worksheets (in file order) to the one wanted: `--sheet`, else the first visible tab. */
async function findSheet(
  path: string,
  book: StreamedBook,
  sheets: AsyncIterator<StreamedSheet>,
  sheetName: string | undefined,
  guard: StallGuard,
): Promise<StreamedSheet> {
  const seen: string[] = [];
  for (;;) {
    const next = await guard.next(sheets);
    if (next.done === true) break;
    const sheet = next.value;
    seen.push(sheet.name);
    // Sheet names are unique regardless of case in Excel.
    const wanted = sheetName ?? firstVisible(book)?.name ?? sheet.name;
    if (sheet.name.toLowerCase() === wanted.toLowerCase()) return sheet;
  }
  const names = (book.model?.sheets?.map((entry) => entry.name) ?? seen).map((name) => JSON.stringify(name)).join(", ");
  if (sheetName !== undefined) throw new InputError(`${path}: no worksheet named ${JSON.stringify(sheetName)} (it has ${names || "none"}); name one with --sheet`);
  throw new InputError(`${path}: no worksheet to read (it has ${names || "none"}); name one with --sheet; ${nothingSent}`);
}

function firstVisible(book: StreamedBook): SheetEntry | undefined {
  const entries = book.model?.sheets ?? [];
  return entries.find((entry) => entry.state === undefined || entry.state === "visible") ?? entries[0];
}

/** Reads the header row (the first row with a value), matches it, and streams the data rows after it. */
async function openRows(path: string, sheet: StreamedSheet, book: StreamedBook, stop: () => Promise<void>, guard: StallGuard, input: ReadStream, map: ColumnMap): Promise<Sheet> {
  const date1904 = book.properties?.model?.date1904 === true;
  const prefix = sheetPrefix(sheet.name);
  const rows = sheet[Symbol.asyncIterator]();
  let header: { readonly line: number; readonly cells: string[] } | undefined;
  while (header === undefined) {
    const next = await guard.next(rows);
    if (next.done === true) break;
    const cells: string[] = [];
    next.value.eachCell((cell, column) => {
      const read = cellText(cell.value, cell, date1904);
      cells[column - 1] = typeof read === "string" ? read : read.text;
    });
    let width = cells.length;
    while (width > 0 && (cells[width - 1] ?? "").trim() === "") width--;
    if (width > 0) header = { line: next.value.number, cells: Array.from({ length: width }, (_, i) => cells[i] ?? "") };
  }
  if (header === undefined) throw new InputError(`${path}: worksheet ${JSON.stringify(sheet.name)} is empty; it needs a header row with a number column; ${nothingSent}`);
  const headerLine = header.line;
  const layout: SheetLayout = {
    source: path,
    baseDir: dirname(resolve(path)),
    // Only CSV results use it.
    delimiter: ",",
    header: header.cells,
    // Refusals name the worksheet, and each header cell as Excel does: `Numbers!C1`.
    columns: matchColumns(`${path}, worksheet ${JSON.stringify(sheet.name)}`, header.cells, map, (index) => `${prefix}${columnLetters(index + 1)}${headerLine}`),
  };
  const sent = layout.columns.map((column) => column.role.kind !== "passthrough");
  return {
    layout,
    rows: dataRows(path, rows, { width: header.cells.length, sent, prefix, date1904 }, stop, guard),
    // Not byte for byte: the engine keeps a workbook's cells aside for the results (input/spool.ts).
    rereadable: false,
    reread: () => Promise.resolve(null),
    textFormat: () => CSV_FOR_EXCEL,
    size: null,
    // Of the zipped file: a progress display shows reading as it goes, not a share of the rows.
    bytesRead: () => input.bytesRead,
  };
}

interface RowShape {
  readonly width: number;
  /** By column: whether its cells are sent (a problem there makes the row invalid). */
  readonly sent: readonly boolean[];
  readonly prefix: string;
  readonly date1904: boolean;
}

async function* dataRows(path: string, rows: AsyncIterator<StreamedRow>, shape: RowShape, stop: () => Promise<void>, guard: StallGuard): AsyncGenerator<SheetRow> {
  let index = 0;
  try {
    for (;;) {
      let next: IteratorResult<StreamedRow>;
      try {
        next = await guard.next(rows);
      } catch (error) {
        throw unreadable(path, error);
      }
      if (next.done === true) return;
      const row = toSheetRow(next.value, index, shape);
      if (row === null) continue;
      index++;
      yield row;
    }
  } finally {
    await stop();
  }
}

/** One worksheet row as a SheetRow, or null for a row with nothing in it (skipped, as blank CSV lines are). */
function toSheetRow(row: StreamedRow, index: number, shape: RowShape): SheetRow | null {
  const cells = new Array<string>(shape.width).fill("");
  let problem: string | undefined;
  let blank = true;
  row.eachCell((cell, column) => {
    const read = cellText(cell.value, cell, shape.date1904);
    const text = typeof read === "string" ? read : read.text;
    const unusable = typeof read === "string" ? undefined : read.problem;
    if (unusable === undefined && text.trim() === "") return;
    blank = false;
    const at = column - 1;
    if (at >= shape.width) {
      problem ??= `${shape.prefix}${columnLetters(column)}${row.number} has a value but no header above it: name the column in the header row or clear the cell`;
      return;
    }
    cells[at] = text;
    if (unusable !== undefined && shape.sent[at] === true) problem ??= `${shape.prefix}${columnLetters(column)}${row.number} ${unusable}`;
  });
  if (blank) return null;
  return problem === undefined ? { index, line: row.number, cells } : { index, line: row.number, cells, problem };
}
