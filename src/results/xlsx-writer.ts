/**
 * The XLSX encoder of the results (docs/contract.md §6): the same rows as the CSV encoder (the
 * input's cells, masked and defused, then the result cells), as one worksheet whose every cell
 * is text, so Excel never turns `4165550101` into `4.17E+09` or drops a ticket's leading zero.
 * The header is bold, frozen and filterable; the status cell is coloured by status.
 *
 * The worksheet's XML is written here, row by row, into a zip stream (yazl), rather than
 * through exceljs's WorkbookWriter: that builds a cell object per cell and took longer to
 * write 200,000 rows than exceljs takes to read them, against a budget of half of that
 * (README, Performance, Workbooks), and it ignores back-pressure, so its memory grows with a slow disk.
 * The parts besides the rows are fixed (xlsx-parts.ts); tests read every file back with exceljs.
 */
import { parse } from "csv-parse/sync";
import { OutputError } from "../errors.js";
import { columnLetters } from "../input/cell-ref.js";
import { resultsHeader, rowShaper } from "./cells.js";
import type { ColumnSet } from "./columns.js";
import { fileSink, finishSink, outputError } from "./sink.js";
import type { Sink } from "./sink.js";
import type { ResultsOptions, ResultsWriter } from "./writer.js";
import { WorkerZip } from "./xlsx-zip.js";
import {
  CONTENT_TYPES,
  HEADER_STYLE,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_ROWS,
  PACKAGE_RELS,
  SHARED_STRINGS,
  sheetEnd,
  sheetStart,
  statusStyle,
  STYLES,
  TEXT_STYLE,
  WORKBOOK,
  WORKBOOK_RELS,
} from "./xlsx-parts.js";

/**
 * Deflate level of every part: zlib's fastest. A results sheet is repetitive text, so even
 * level 1 shrinks it 12 to 1 (200,000 rows: 272 MB of XML, a 22 MB file), and deflate runs
 * beside the XML building, on libuv's threads, as the zip's CRC-32 does in a worker (zip-worker.ts).
 */
const ZIP_LEVEL = 1;
/** Rows are handed to the zip stream in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;
/** Column widths, in characters: result columns by name, the input's by their header. */
const RESULT_WIDTHS: Readonly<Record<string, number>> = { result_operation: 44, result_message: 80 };
const MIN_WIDTH = 10;
const MAX_WIDTH = 40;

const READY: Promise<void> = Promise.resolve();

/** Opens the destination and writes the header row; refuses, before anything is sent, a sheet Excel could not hold. */
export async function openXlsxResults<T>(destination: string, header: readonly string[], options: ResultsOptions, set: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const columns = header.length + set.names.length;
  const csvInstead = "write CSV instead with --results PATH.csv";
  if (columns > MAX_COLUMNS) {
    throw new OutputError(`cannot write results to ${destination}: ${columns} columns, more than an Excel worksheet holds (${MAX_COLUMNS.toLocaleString("en-US")}); ${csvInstead}`);
  }
  if (options.rows + 1 > MAX_ROWS) {
    throw new OutputError(
      `cannot write results to ${destination}: ${options.rows.toLocaleString("en-US")} rows and a header, more than an Excel worksheet holds (${MAX_ROWS.toLocaleString("en-US")}); ${csvInstead}`,
    );
  }
  const sink = await fileSink(destination);
  const writer = new XlsxResultsWriter(sink, header, options.delimiter, set);
  await writer.writeHeader();
  return writer;
}

class XlsxResultsWriter<T> implements ResultsWriter<T> {
  /** The worksheet's XML on its way into the zip; it bounds what waits in memory. */
  private readonly zip: WorkerZip;
  private readonly shape: (cells: readonly string[], outcome: T) => string[];
  private readonly header: readonly string[];
  private readonly letters: readonly string[];
  /** By column: a cell's XML up to its row number, `<c r="AB`. */
  private readonly openings: readonly string[];
  private readonly statusAt: number;
  private rowNumber = 0;
  private text: string;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly sink: Sink,
    header: readonly string[],
    /** The input's delimiter, for rows handed over as the input's text (writeVerbatim). */
    private readonly delimiter: string,
    set: ColumnSet<T>,
  ) {
    this.header = resultsHeader(header, set.names);
    this.shape = rowShaper(header, set);
    this.letters = this.header.map((_, at) => columnLetters(at + 1));
    this.openings = this.letters.map((letters) => `<c r="${letters}`);
    this.statusAt = header.length;
    const fail = (error: unknown): void => {
      this.failure ??= outputError(sink.label, error);
      // Wakes a write waiting for the zip to take more, which a failed output never will.
      this.zip.stop();
    };
    sink.stream.on("error", fail);
    const part = (text: string, name: string): { name: string; text: string } => ({ name, text });
    this.zip = new WorkerZip(
      {
        // Streaming readers (exceljs's among them) want the workbook, its relationships, the
        // styles and the shared strings before the worksheet.
        parts: [
          part(CONTENT_TYPES, "[Content_Types].xml"),
          part(PACKAGE_RELS, "_rels/.rels"),
          part(WORKBOOK, "xl/workbook.xml"),
          part(WORKBOOK_RELS, "xl/_rels/workbook.xml.rels"),
          part(STYLES, "xl/styles.xml"),
          part(SHARED_STRINGS, "xl/sharedStrings.xml"),
        ],
        streamed: "xl/worksheets/sheet1.xml",
        level: ZIP_LEVEL,
      },
      sink.stream,
      fail,
    );
    this.text = sheetStart(this.header.map((name) => RESULT_WIDTHS[name] ?? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, name.length + 2))));
  }

  writeHeader(): Promise<void> {
    return this.push(this.rowXml(this.header, HEADER_STYLE, HEADER_STYLE));
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    const shaped = this.shape(cells, outcome);
    // The first column after the input's is the status (result_status, or status's own).
    return this.push(this.rowXml(shaped, TEXT_STYLE, statusStyle(shaped[this.statusAt] ?? "")));
  }

  writeVerbatim(text: Uint8Array, outcome: T): Promise<void> {
    // A CSV input's row, handed over as its text because a CSV result would copy it as is
    // (cells.ts verbatimTest: one line, no quote trouble); a workbook needs its cells.
    const records: unknown = parse(Buffer.from(text), { delimiter: this.delimiter, relax_column_count: true });
    const [cells] = records as string[][];
    return this.write(cells ?? [], outcome);
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private rowXml(cells: readonly string[], style: number, statusCellStyle: number): string {
    const r = ++this.rowNumber;
    // A cell's XML is its column's opening, the row number, then its style's: three pieces made once, not five a cell.
    const styled = `${r}" s="${style}" t="inlineStr"><is>`;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      if (value === undefined || value === "") continue;
      const opening = this.openings[i] ?? `<c r="${columnLetters(i + 1)}`;
      xml += (i === this.statusAt ? `${opening}${r}" s="${statusCellStyle}" t="inlineStr"><is>` : opening + styled) + textElement(value) + "</is></c>";
    }
    return xml + "</row>";
  }

  private push(xml: string): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    this.text += xml;
    return this.text.length < CHUNK_CHARS ? READY : this.flush();
  }

  /** Hands the gathered rows to the zip; resolves at once while it keeps up, else once it has taken them. */
  private flush(): Promise<void> {
    const chunk = this.text;
    this.text = "";
    if (this.zip.write(chunk)) return READY;
    return this.zip.room().then(() => {
      if (this.failure !== null) throw this.failure;
    });
  }

  private async finish(): Promise<void> {
    if (this.failure === null) {
      const text = this.text + sheetEnd(this.letters[this.letters.length - 1] ?? "A", this.rowNumber);
      this.text = "";
      await this.zip.end(text);
    }
    await finishSink(this.sink, () => this.failure);
  }
}

/** What XML text cannot hold as it is: markup, CR (XML reads it as LF), the control characters XML 1.0 forbids. */
// eslint-disable-next-line no-control-regex -- finding the characters XML forbids is the point
const NEEDS_ESCAPING = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
/** OOXML's own escapes, `_xHHHH_`, which a literal one must be kept from reading as. */
const LOOKS_ESCAPED = /_x[0-9A-Fa-f]{4}_/;

/** One cell's `<t>` element: escaped, cut to what a cell holds, with its surrounding spaces kept. */
function textElement(value: string): string {
  let text = value.length > MAX_CELL_CHARS ? cutToCell(value) : value;
  // Two tests rather than one alternation: a character class alone scans fast, and `_x` is rare.
  if (NEEDS_ESCAPING.test(text) || (text.includes("_x") && LOOKS_ESCAPED.test(text))) text = escapeText(text);
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Without xml:space, readers drop a cell's leading and trailing spaces.
  const preserve = first === 0x20 || first === 0x09 || first === 0x0a || last === 0x20 || last === 0x09 || last === 0x0a;
  return preserve ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`;
}

/** Excel refuses to open a cell longer than 32,767 characters; never split a surrogate pair. */
function cutToCell(value: string): string {
  const end = MAX_CELL_CHARS;
  const code = value.charCodeAt(end - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

const hex = (code: number): string => code.toString(16).toUpperCase().padStart(4, "0");

/** ECMA-376 ST_Xstring: a character XML cannot carry is written `_xHHHH_`, and a literal `_xHHHH_` has its `_` escaped. */
export function escapeText(text: string): string {
  return text
    .replace(/_x([0-9A-Fa-f]{4})_/g, "_x005F_x$1_")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;")
    // eslint-disable-next-line no-control-regex -- as NEEDS_ESCAPING
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `_x${hex(c.charCodeAt(0))}_`);
}
