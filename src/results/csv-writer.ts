/**
 * The CSV encoder of the results (docs/contract.md §6): each row's cells quoted as csv-stringify
 * quotes them (cells.ts csvCell), or, for a row whose own cells need no change, its input bytes
 * followed by the result cells.
 */
import { csvCell, placeResults, resultTail, resultsHeader, rowShaper } from "./cells.js";
import { ChunkedSink, READY } from "./chunked-sink.js";
import type { ColumnSet } from "./columns.js";
import type { ResultsOptions, ResultsWriter } from "./encoder.js";
import { fileSink, stdoutSink } from "./sink.js";
import type { Sink } from "./sink.js";

/** Opens the destination and writes the header row. */
export async function openCsvResults<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination, options.option);
  const writer = new CsvResultsWriter(sink, header, options.delimiter, options.lineEnd, options.bom, columns, options.resultColumns ?? "last");
  await writer.writeHeader(header);
  return writer;
}

// Rows reach the sink in chunks: a stream write costs about as much per record as the
// stringifying itself, and a run may hold 1,000,000 rows. 64 KB is ~400 rows of a wide sheet.
const CHUNK_BYTES = 64 * 1024;

class CsvResultsWriter<T> implements ResultsWriter<T> {
  private readonly shape: (cells: readonly string[], outcome: T) => string[];
  /** Records' text waiting to be staged together, ahead of anything staged after them. */
  private lines = "";
  /** The chunk's bytes so far, in order. */
  private stage: Buffer = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  private staged = 0;
  /** A chunk buffer the stream has finished with, reused rather than left to the GC. */
  private spare: Buffer | null = null;
  private readonly out: ChunkedSink;

  constructor(
    sink: Sink,
    header: readonly string[],
    /** One character: `,`, `;` or tab (input/delimiter.ts), as csvCell asks. */
    private readonly delimiter: string,
    private readonly lineEnd: string,
    bom: boolean,
    private readonly columns: ColumnSet<T>,
    private readonly at: "first" | "last",
  ) {
    const shape = rowShaper(header, columns);
    const width = header.length;
    this.shape = at === "last" ? shape : (cells, outcome) => placeResults(shape(cells, outcome), width, at);
    if (bom) this.stageText("\uFEFF");
    this.out = new ChunkedSink(sink);
  }

  writeHeader(header: readonly string[]): Promise<void> {
    return this.push(resultsHeader(header, this.columns.names, this.at));
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    return this.push(this.shape(cells, outcome));
  }

  /**
   * csv-stringify's own record, cell by cell (cells.ts csvCell, whose test holds it to
   * csv-stringify's output): its per-record work (casting, options, a record of pairs) cost
   * more than the rest of writing a workbook's results (README, Performance, Workbooks).
   */
  private push(record: readonly string[]): Promise<void> {
    const refused = this.out.refusal();
    if (refused !== null) return Promise.reject(refused);
    const { delimiter } = this;
    let line = record.length === 0 ? "" : csvCell(record[0] as string, delimiter);
    for (let i = 1; i < record.length; i++) line += delimiter + csvCell(record[i] as string, delimiter);
    this.lines += line + this.lineEnd;
    return this.staged + this.lines.length < CHUNK_BYTES ? READY : this.flush();
  }

  writeVerbatim(text: Uint8Array, outcome: T): Promise<void> {
    const refused = this.out.refusal();
    if (refused !== null) return Promise.reject(refused);
    // InputCopy keeps the cells instead when the result columns go first (input-copy.ts copiesRowText).
    if (this.at !== "last") throw new Error("a row's text handed over for results whose result columns go first");
    this.stageRecords();
    this.stageBytes(text);
    this.stageText(resultTail(outcome, this.delimiter, this.lineEnd, this.columns.cells));
    return this.staged < CHUNK_BYTES ? READY : this.flush();
  }

  close(): Promise<void> {
    return this.out.close(() => (this.lines.length > 0 || this.staged > 0 ? this.flush() : READY));
  }

  private stageRecords(): void {
    if (this.lines.length === 0) return;
    const text = this.lines;
    this.lines = "";
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
