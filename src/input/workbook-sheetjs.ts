/**
 * An .xls (Excel 97-2003) or .ods (LibreOffice's own format) workbook opened for reading
 * (docs/contract.md §3, "Workbooks"), read whole by SheetJS: neither format can be read as it
 * streams (an .xls is a compound file whose streams may lie in any order; an .ods keeps every
 * sheet in one content.xml), and an .xls holds 65,536 rows at most. Its cells become portin's
 * CellValue by the rules .xlsx cells follow (worksheet-rows.ts).
 */
import { readFile, stat } from "node:fs/promises";
import type { CellObject, WorkBook } from "@e965/xlsx";
import { cellError, numberValue } from "./cell-text.js";
import type { CellValue } from "./cell-text.js";
import { MAX_WHOLE_BOOK_BYTES } from "./workbook-book.js";
import type { BookSheet, OpenBook, OpenDocumentZip } from "./workbook-book.js";
import { RowCells, SheetDamage } from "./worksheet-rows.js";
import type { SheetRow } from "./worksheet-rows.js";
import * as sheetWords from "../messages/sheet.js";

/** A refusal of the file as it is, not as a damaged one. */
export class TooLargeBook extends Error {}

/** BIFF's error codes (MS-XLS 2.5.97), for a cell SheetJS gives without its text. */
const ERROR_TEXTS: Readonly<Record<number, string>> = { 0x00: "#NULL!", 0x07: "#DIV/0!", 0x0f: "#VALUE!", 0x17: "#REF!", 0x1d: "#NAME?", 0x24: "#NUM!", 0x2a: "#N/A", 0x2b: "#GETTING_DATA" };

interface WholeSheet extends BookSheet {
  readonly at: number;
}

/**
 * Opens `path`, an OLE compound file or an OpenDocument zip; `format` is what a refusal calls
 * it; `ods`, for an .ods, what workbook-xlsx.ts read of its zip: the bytes SheetJS will parse
 * (its content.xml, inflated), and the hidden sheets before its first visible one.
 */
export async function openWithSheetJs(path: string, format: string, ods?: OpenDocumentZip): Promise<OpenBook> {
  const { size } = await stat(path);
  const parsed = ods?.contentBytes ?? size;
  if (parsed > MAX_WHOLE_BOOK_BYTES) {
    const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MiB`;
    throw new TooLargeBook(sheetWords.wholeWorkbookTooLarge(path, format, mib(MAX_WHOLE_BOOK_BYTES), mib(parsed), ods === undefined ? "" : " unzipped"));

  }
  const data = await readFile(path);
  // Loaded here, not with the thread's script: an .xlsx never needs it.
  const { read } = await import("@e965/xlsx");
  let book: WorkBook;
  // SheetJS writes what it cannot read (an unknown record, an ODS number format) to the console:
  // on this thread, lines on the user's terminal beside portin's own (docs/contract.md §7). Kept quiet while it reads.
  const { error: consoleError, warn: consoleWarn, log: consoleLog } = console;
  console.error = console.warn = console.log = () => undefined;
  try {
    // dense: rows as arrays; cellNF: each number's format, which tells a date; no formulas,
    // text or HTML, which portin does not read.
    book = read(data, { type: "buffer", dense: true, cellNF: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, bookVBA: false });
    if (book.SheetNames.some((name) => book.Sheets[name] === undefined)) throw new SheetDamage(sheetWords.WORKSHEET_MISSING);
  } catch (error) {
    if (error instanceof SheetDamage) throw error;
    // SheetJS's own refusals say what is wrong ("File is password-protected"); a TypeError is its
    // parser meeting bytes that are no workbook's records.
    const why = error instanceof TypeError || error instanceof RangeError || !(error instanceof Error) ? sheetWords.NOT_WORKBOOK_RECORDS : error.message;

    throw new SheetDamage(why, { cause: error });
  } finally {
    Object.assign(console, { error: consoleError, warn: consoleWarn, log: consoleLog });
  }
  return new WholeBook(book, format, size, new Set(ods?.hiddenFirst ?? []));
}

class WholeBook implements OpenBook {
  readonly sheets: readonly WholeSheet[];
  readonly date1904: boolean;
  private read = 0;

  constructor(
    private readonly book: WorkBook,
    readonly format: string,
    private readonly size: number,
    hidden: ReadonlySet<string>,
  ) {
    const states = book.Workbook?.Sheets ?? [];
    this.sheets = book.SheetNames.map((name, at) => ({ name, at, visible: (states[at]?.Hidden ?? 0) === 0 && !hidden.has(name) }));
    this.date1904 = book.Workbook?.WBProps?.date1904 === true;
  }

  eachRow(sheet: BookSheet, onRow: (row: SheetRow) => void): Promise<void> {
    const name = this.book.SheetNames[(sheet as WholeSheet).at] ?? sheet.name;
    // A dense sheet's rows and cells: an empty one is a hole, or null.
    const rows = (this.book.Sheets[name]?.["!data"] ?? []) as ((CellObject | null | undefined)[] | null | undefined)[];
    const row = new RowCells();
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r];
      if (cells === undefined || cells === null) continue;
      row.start(r + 1);
      for (let c = 0; c < cells.length; c++) {
        const cell = cells[c];
        const value = cell === undefined || cell === null ? undefined : this.value(cell);
        if (value !== undefined) row.add(c + 1, value);
      }
      onRow(row);
    }
    this.read = this.size;
    return Promise.resolve();
  }

  bytesRead(): number {
    return this.read;
  }

  close(): void {
    // Nothing is held open: the file was read whole.
  }

  private value(cell: CellObject): CellValue | undefined {
    switch (cell.t) {
      case "s":
        return typeof cell.v === "string" ? cell.v : String(cell.v ?? "");
      case "n":
        return typeof cell.v === "number" ? numberValue(cell.v, typeof cell.z === "string" ? cell.z : undefined, this.date1904) : undefined;
      case "b":
        return cell.v === true;
      case "e":
        return cellError(cell.w ?? ERROR_TEXTS[cell.v as number] ?? "#VALUE!");
      case "d":
        // SheetJS makes a date at local midnight: the day and time as written, read as UTC.
        return cell.v instanceof Date ? new Date(cell.v.getTime() - cell.v.getTimezoneOffset() * 60_000) : undefined;
      default:
        // "z": a cell with a style and no value.
        return undefined;
    }
  }
}
