/**
 * The JSON Lines encoder of the results (docs/contract.md §2, §6): one JSON object a row, its
 * keys the results' column names in column order (the input's header, then the result columns),
 * its values the same cells the CSV encoder writes. A header name that repeats, or an empty
 * one, gets a key of its own (`notes_2`, `column_3`) so no cell is lost.
 */
import type { OutputError } from "../errors.js";
import { placeResults, resultsHeader, rowShaper } from "./cells.js";
import type { ColumnSet } from "./columns.js";
import { fileSink, finishSink, outputError, stdoutSink } from "./sink.js";
import type { Sink } from "./sink.js";
import type { ResultsOptions, ResultsWriter } from "./encoder.js";

/** Lines reach the sink in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

const READY: Promise<void> = Promise.resolve();

export async function openJsonlResults<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination);
  return new JsonlResultsWriter(sink, header, options, columns);
}

/** One key a column, unique: a repeated or empty header name is told apart by its position. */
function uniqueKeys(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, at) => {
    let key = name.trim() === "" ? `column_${at + 1}` : name;
    for (let n = 2; seen.has(key); n++) key = `${name}_${n}`;
    seen.add(key);
    return key;
  });
}

class JsonlResultsWriter<T> implements ResultsWriter<T> {
  private readonly shape: (cells: readonly string[], outcome: T) => string[];
  /** Each key already as JSON, with its colon: `"number":`. */
  private readonly keys: readonly string[];
  private text = "";
  private lastWrite: Promise<void> = READY;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly sink: Sink,
    header: readonly string[],
    options: Pick<ResultsOptions, "resultColumns">,
    columns: ColumnSet<T>,
  ) {
    const at = options.resultColumns ?? "last";
    const width = header.length;
    const shape = rowShaper(header, columns);
    this.shape = at === "last" ? shape : (cells, outcome) => placeResults(shape(cells, outcome), width, at);
    this.keys = uniqueKeys(resultsHeader(header, columns.names, at)).map((key) => `${JSON.stringify(key)}:`);
    sink.stream.on("error", (error) => this.fail(error));
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    const record = this.shape(cells, outcome);
    let line = "{";
    for (let i = 0; i < this.keys.length; i++) line += `${i === 0 ? "" : ","}${this.keys[i] as string}${JSON.stringify(record[i] ?? "")}`;
    this.text += `${line}}\n`;
    return this.text.length < CHUNK_CHARS ? READY : this.flush();
  }

  writeVerbatim(): Promise<void> {
    // The engine keeps cells for any results but CSV (writer.ts copiesRowText).
    throw new Error("a row's text handed over for JSON Lines results");
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  /** Resolves at once when the sink takes the chunk, else once it has written it (drained). */
  private flush(): Promise<void> {
    const chunk = this.text;
    this.text = "";
    let accepted = true;
    const written = new Promise<void>((resolve) => {
      accepted = this.sink.stream.write(chunk, (error) => {
        if (error) this.fail(error);
        resolve();
      });
    });
    this.lastWrite = written;
    if (accepted) return READY;
    return written.then(() => (this.failure === null ? undefined : Promise.reject(this.failure)));
  }

  private async finish(): Promise<void> {
    if (this.failure === null) {
      // A failure here is recorded in `failure`, which finishSink checks.
      if (this.text !== "") this.flush().catch(() => undefined);
      await this.lastWrite;
    }
    await finishSink(this.sink, () => this.failure);
  }

  private fail(error: unknown): void {
    this.failure ??= outputError(this.sink.label, error);
  }
}
