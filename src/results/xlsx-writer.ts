/**
 * The XLSX encoder of the results (docs/contract.md §6): the same rows as the CSV encoder (the
 * input's cells, masked and defused, then the result cells), as one worksheet whose every cell
 * is text, so Excel never turns `4165550101` into `4.17E+09` or drops a ticket's leading zero.
 * The header is bold, frozen and filterable, the number column frozen with it; columns are as
 * wide as their header and the first rows' cells need; the status cell is coloured by status.
 *
 * The worksheet's XML is written here, row by row, into a zip stream (yazl), rather than
 * through exceljs's WorkbookWriter: that builds a cell object per cell and took longer to
 * write 200,000 rows than exceljs takes to read them, against a budget of half of that
 * (bench/README.md, Workbooks), and it ignores back-pressure, so its memory grows with a slow disk.
 * A row's cells are made into XML by xlsx-rows.ts; a row whose own cells were made into XML as
 * the sheet was read (input-copy.ts) comes as those bytes, and only its result cells are made
 * here. The parts besides the rows are fixed (xlsx-parts.ts); tests read every file back with exceljs.
 */
import { READY } from "./chunked-sink.js";
import { OutputError } from "../errors.js";
import { columnLetters } from "../input/cell-ref.js";
import { placeResults, resultsHeader, rowShaper } from "./cells.js";
import type { ColumnSet } from "./columns.js";
import { fileSink, finishSink, outputError } from "./sink.js";
import type { Sink } from "./sink.js";
import type { ResultsOptions, ResultsWriter } from "./encoder.js";
import { WorkerZip } from "./xlsx-zip.js";
import * as outputWords from "../messages/output.js";
import { RowXml, SIZED_ROWS } from "./xlsx-rows.js";
import {
  CONTENT_TYPES,
  HEADER_STYLE,
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
/** The first rows wait as text until about this many characters, or SIZED_ROWS rows (their widths size the columns). */
const CHUNK_CHARS = 64 * 1024;
/**
 * Then rows are handed to the zip's thread in chunks of about this many bytes: each hand-over
 * costs ~80 us beside a busy thread, and 122 MB of XML took 1,900 of them in chunks of 64 KB.
 */
const CHUNK_BYTES = 256 * 1024;
/** A chunk's buffer has room for a row of this many bytes past CHUNK_BYTES before it grows. */
const CHUNK_MARGIN = 64 * 1024;
/**
 * Column widths, in characters: as wide as the header and the cells of the rows in the first
 * chunk (CHUNK_CHARS or SIZED_ROWS, hundreds of rows) need, so a 10-digit number never overlaps its
 * neighbour; a column's cap is its name's here, else MAX_WIDTH. The widths precede the rows
 * in the worksheet's XML, so later rows cannot widen a column.
 */
const WIDTH_CAPS: Readonly<Record<string, number>> = { result_message: 80, status_message: 80, status_reject_details: 80 };
const MIN_WIDTH = 8;
const MAX_WIDTH = 50;
/** Room beside the text: the bold header and the filter button take some. */
const WIDTH_MARGIN = 3;


/** Opens the destination and writes the header row; refuses, before anything is sent, a sheet Excel could not hold. */
export async function openXlsxResults<T>(destination: string, header: readonly string[], options: ResultsOptions, set: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const columns = header.length + set.names.length;
  const csvInstead = outputWords.CSV_INSTEAD;
  if (columns > MAX_COLUMNS) {
    throw new OutputError(outputWords.tooManyColumnsForXlsx(destination, columns, MAX_COLUMNS.toLocaleString("en-US"), csvInstead));
  }
  if (options.rows + 1 > MAX_ROWS) {
    throw new OutputError(outputWords.tooManyRowsForXlsx(destination, options.rows.toLocaleString("en-US"), MAX_ROWS.toLocaleString("en-US"), csvInstead));
  }

  const sink = await fileSink(destination, options.option);
  const writer = new XlsxResultsWriter(sink, header, options, set);
  await writer.writeHeader();
  return writer;
}

class XlsxResultsWriter<T> implements ResultsWriter<T> {
  /** The worksheet's XML on its way into the zip; it bounds what waits in memory. */
  private readonly zip: WorkerZip;
  private readonly shape: (cells: readonly string[], outcome: T) => string[];
  private readonly resultCells: (outcome: T) => string[];
  private readonly header: readonly string[];
  private readonly xml = new RowXml();
  /** Columns of the input's own cells. */
  private readonly width: number;
  private readonly statusAt: number;
  /** Characters each column needs, until the worksheet's start is written; then null. */
  private widths: number[] | null;
  private readonly frozenColumns: number;
  private rowNumber = 0;
  private text: string;
  /** The chunk being gathered, as UTF-8, and its length. */
  private stage = Buffer.allocUnsafeSlow(CHUNK_BYTES + CHUNK_MARGIN);
  private staged = 0;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly sink: Sink,
    header: readonly string[],
    options: Pick<ResultsOptions, "delimiter" | "resultColumns" | "numberColumn">,
    set: ColumnSet<T>,
  ) {
    const at = options.resultColumns ?? "last";
    const width = header.length;
    this.header = resultsHeader(header, set.names, at);
    const shape = rowShaper(header, set);
    this.shape = at === "last" ? shape : (cells, outcome) => placeResults(shape(cells, outcome), width, at);
    this.resultCells = set.cells;
    this.width = width;
    // The first column of the set is the status (result_status, or status's own).
    this.statusAt = at === "last" ? width : 0;
    // Frozen through the number column, wherever it lands; with the result columns first, through the status.
    const number = options.numberColumn;
    this.frozenColumns = at === "last" ? (number === undefined ? 0 : number + 1) : number === undefined ? 1 : set.names.length + number + 1;
    this.widths = this.header.map((name) => name.length);
    const fail = (error: unknown): void => {
      this.failure ??= outputError(sink.label, error, sink.option);
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
    this.text = "";
  }

  writeHeader(): Promise<void> {
    return this.push(this.rowXml(this.header, HEADER_STYLE, HEADER_STYLE));
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    const shaped = this.shape(cells, outcome);
    this.measure(shaped, 0);
    return this.push(this.rowXml(shaped, TEXT_STYLE, statusStyle(shaped[this.statusAt] ?? "")));
  }

  /**
   * A row whose own cells come as their XML, made while the sheet was read (xlsx-rows.ts
   * xlsxRowTexts): copied as it is, then the result cells. Result columns last only, and only
   * once the columns are sized (SIZED_ROWS): the XML's cells cannot be measured.
   */
  writeVerbatim(text: Uint8Array | string, outcome: T): Promise<void> {
    if (this.statusAt !== this.width) throw new Error("a row's text handed over for results whose result columns go first");
    if (this.widths !== null) throw new Error("a row's XML handed over before the columns are sized");
    const r = ++this.rowNumber;
    const cells = this.resultCells(outcome);
    const tail = this.xml.cells(cells, r, this.width, TEXT_STYLE, this.statusAt, statusStyle(cells[0] ?? "")) + "</row>";
    return typeof text === "string" ? this.push(text + tail) : this.push(tail, text);
  }

  /** Widens the columns from `from` on to `cells`, while they are being sized. */
  private measure(cells: readonly string[], from: number): void {
    const widths = this.widths;
    if (widths === null) return;
    for (let i = 0; i < cells.length; i++) widths[from + i] = Math.max(widths[from + i] ?? 0, (cells[i] ?? "").length);
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private rowXml(cells: readonly string[], style: number, statusCellStyle: number): string {
    const r = ++this.rowNumber;
    return this.xml.start(r) + this.xml.cells(cells, r, 0, style, this.statusAt, statusCellStyle) + "</row>";
  }

  /** Adds a row's XML, after `bytes` of it already made (writeVerbatim), which come only once the columns are sized. */
  private push(xml: string, bytes?: Uint8Array): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    if (this.widths !== null) {
      // The first rows wait as text: the worksheet's start, which precedes them, is sized to them.
      this.text += xml;
      // rowNumber counts the header: the sizing ends with the SIZED_ROWS-th data row.
      return this.text.length < CHUNK_CHARS && this.rowNumber <= SIZED_ROWS ? READY : this.flush();
    }
    // Later rows go straight into the chunk's bytes, a row at a time: a chunk gathered as one
    // long string had to be flattened and encoded whole, a tenth of writing the results.
    if (bytes !== undefined) {
      this.reserve(bytes.length);
      this.stage.set(bytes, this.staged);
      this.staged += bytes.length;
    }
    this.stageText(xml);
    return this.staged < CHUNK_BYTES ? READY : this.flush();
  }

  /** Room for `bytes` more in the chunk being gathered. */
  private reserve(bytes: number): void {
    if (this.staged + bytes <= this.stage.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.stage.length * 2, this.staged + bytes));
    this.stage.copy(grown, 0, 0, this.staged);
    this.stage = grown;
  }

  /** Hands the gathered rows to the zip; resolves at once while it keeps up, else once it has taken them. */
  private flush(): Promise<void> {
    const text = this.start() + this.text;
    this.text = "";
    if (text !== "") this.stageText(text);
    // The chunk's memory moves to the zip's thread: the next chunk gets a buffer of its own.
    const chunk = this.stage.subarray(0, this.staged);
    this.stage = Buffer.allocUnsafeSlow(CHUNK_BYTES + CHUNK_MARGIN);
    this.staged = 0;
    if (this.zip.write(chunk)) return READY;
    return this.zip.room().then(() => {
      if (this.failure !== null) throw this.failure;
    });
  }

  private stageText(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    this.staged += this.stage.write(text, this.staged);
  }

  /** The worksheet's start, its columns sized to the rows so far, the first time it is asked for; "" after. */
  private start(): string {
    const widths = this.widths;
    if (widths === null) return "";
    this.widths = null;
    const sized = widths.map((chars, at) => Math.min(WIDTH_CAPS[this.header[at] ?? ""] ?? MAX_WIDTH, Math.max(MIN_WIDTH, chars + WIDTH_MARGIN)));
    return sheetStart(sized, this.frozenColumns);
  }

  private async finish(): Promise<void> {
    if (this.failure === null) {
      this.stageText(this.start() + this.text + sheetEnd(columnLetters(this.header.length), this.rowNumber));
      this.text = "";
      await this.zip.end(this.stage.subarray(0, this.staged));
      this.staged = 0;
    }
    await finishSink(this.sink, () => this.failure);
  }
}
