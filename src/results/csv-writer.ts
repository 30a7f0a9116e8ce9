/**
 * The CSV encoder of the results (docs/contract.md §6): rows stringified by csv-stringify, or,
 * for a row whose own cells need no change, its input bytes followed by the result cells.
 */
import { stringify } from "csv-stringify/sync";
import type { Options as StringifyOptions } from "csv-stringify/sync";
import { inputShaper, placeResults, resultTail, resultsHeader, rowShaper } from "./cells.js";
import { ChunkedSink, READY } from "./chunked-sink.js";
import type { ColumnSet } from "./columns.js";
import type { ResultsOptions, ResultsWriter, RowTexts } from "./encoder.js";
import { fileSink, stdoutSink } from "./sink.js";
import type { Sink } from "./sink.js";

/** Opens the destination and writes the header row. */
export async function openCsvResults<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination, options.option);
  const csv = stringifyOptions(options.delimiter, options.lineEnd);
  const writer = new CsvResultsWriter(sink, header, csv, options.bom, columns, options.resultColumns ?? "last");
  await writer.writeHeader(header);
  return writer;
}

/** csv-stringify's options for CSV results: the one place they are set. */
function stringifyOptions(delimiter: string, lineEnd: string): StringifyOptions {
  // A cell holding any line break is quoted, whichever line end the file uses (cells.ts csvCell).
  return { delimiter, record_delimiter: lineEnd, quote_record_delimiter: true };
}

/**
 * Returns a function making rows' own cells into their text in CSV results of a sheet with
 * `header` and `delimiter`, each without its line end: shaped (cells.ts inputShaper) and
 * stringified as the writer would, for writeVerbatim. Every line break is quoted whatever the
 * line end, so the text does not depend on it. A batch is stringified in one call and split at
 * its line ends, unless a cell holds a line break: a call a row cost more than the stringifying
 * (csv-stringify reads its options again on every call).
 */
export function csvRowTexts(header: readonly string[], delimiter: string): RowTexts {
  const shape = inputShaper(header);
  const options = stringifyOptions(delimiter, "\n");
  const alone: StringifyOptions = { ...options, eof: false };
  const breaks = (record: readonly string[]): boolean => record.some((cell) => cell.includes("\n") || cell.includes("\r"));
  return (rows) => {
    const records = rows.map((cells) => shape(cells));
    if (records.some(breaks)) return records.map((record) => stringify([record], alone));
    const lines = stringify(records, options).split("\n");
    lines.pop();
    return lines;
  };
}

// Rows reach the sink in chunks: csv-stringify's stream costs about as much per record as
// the stringifying itself, and a run may hold 1,000,000 rows. 64 KB is ~400 rows of a wide sheet.
const CHUNK_BYTES = 64 * 1024;

class CsvResultsWriter<T> implements ResultsWriter<T> {
  private readonly shape: (cells: readonly string[], outcome: T) => string[];
  private readonly delimiter: string;
  private readonly lineEnd: string;
  /** Records waiting to be stringified together, ahead of anything staged after them. */
  private records: string[][] = [];
  private recordChars = 0;
  /** The chunk's bytes so far, in order. */
  private stage: Buffer = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  private staged = 0;
  /** A chunk buffer the stream has finished with, reused rather than left to the GC. */
  private spare: Buffer | null = null;
  private readonly out: ChunkedSink;

  constructor(
    sink: Sink,
    header: readonly string[],
    private readonly csv: StringifyOptions,
    bom: boolean,
    private readonly columns: ColumnSet<T>,
    private readonly at: "first" | "last",
  ) {
    const shape = rowShaper(header, columns);
    const width = header.length;
    this.shape = at === "last" ? shape : (cells, outcome) => placeResults(shape(cells, outcome), width, at);
    this.delimiter = typeof csv.delimiter === "string" ? csv.delimiter : ",";
    this.lineEnd = typeof csv.record_delimiter === "string" ? csv.record_delimiter : "\n";
    if (bom) this.stageText("\uFEFF");
    this.out = new ChunkedSink(sink);
  }

  writeHeader(header: readonly string[]): Promise<void> {
    return this.push(resultsHeader(header, this.columns.names, this.at));
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    return this.push(this.shape(cells, outcome));
  }

  private push(record: string[]): Promise<void> {
    const refused = this.out.refusal();
    if (refused !== null) return Promise.reject(refused);
    this.records.push(record);
    for (const cell of record) this.recordChars += cell.length + 1;
    return this.staged + this.recordChars < CHUNK_BYTES ? READY : this.flush();
  }

  writeVerbatim(text: Uint8Array | string, outcome: T): Promise<void> {
    const refused = this.out.refusal();
    if (refused !== null) return Promise.reject(refused);
    // InputCopy keeps the cells instead when the result columns go first (input-copy.ts copiesRowText).
    if (this.at !== "last") throw new Error("a row's text handed over for results whose result columns go first");
    this.stageRecords();
    if (typeof text === "string") this.stageText(text);
    else this.stageBytes(text);
    this.stageText(resultTail(outcome, this.delimiter, this.lineEnd, this.columns.cells));
    return this.staged < CHUNK_BYTES ? READY : this.flush();
  }

  close(): Promise<void> {
    return this.out.close(() => (this.records.length > 0 || this.staged > 0 ? this.flush() : READY));
  }

  private stageRecords(): void {
    if (this.records.length === 0) return;
    const text = stringify(this.records, this.csv);
    this.records = [];
    this.recordChars = 0;
    this.stageText(text);
  }

  private stageText(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    this.staged += this.stage.write(text, this.staged);
  }

  private stageBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.stage.set(bytes, this.staged);
    this.staged += bytes.length;
  }

  private reserve(bytes: number): void {
    if (this.staged + bytes <= this.stage.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.stage.length * 2, this.staged + bytes));
    this.stage.copy(grown, 0, 0, this.staged);
    this.stage = grown;
  }

  /** Resolves at once when the sink takes the chunk, else once it has written it (drained). */
  private flush(): Promise<void> {
    this.stageRecords();
    const chunk = this.stage;
    const bytes = chunk.subarray(0, this.staged);
    // The stream keeps the bytes until written: the next chunk gets another buffer.
    this.stage = this.spare ?? Buffer.allocUnsafe(CHUNK_BYTES * 2);
    this.spare = null;
    this.staged = 0;
    return this.out.send(bytes, () => {
      if (chunk.length === CHUNK_BYTES * 2) this.spare = chunk;
    });
  }
}
