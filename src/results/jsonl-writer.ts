/**
 * The JSON Lines encoder of the results (docs/contract.md §2, §6): one JSON object a row, its
 * keys the results' column names in column order (the input's header, then the result columns),
 * its values the same cells the CSV encoder writes. A header name that repeats, or an empty
 * one, gets a key of its own (`notes_2`, `column_3`) so no cell is lost.
 */
import { placeResults, resultsHeader, rowShaper } from "./cells.js";
import { ChunkedSink, READY } from "./chunked-sink.js";
import type { ColumnSet } from "./columns.js";
import type { ResultsOptions, ResultsWriter } from "./encoder.js";
import { fileSink, stdoutSink } from "./sink.js";
import type { Sink } from "./sink.js";

/** Lines reach the sink in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

export async function openJsonlResults<T>(destination: string, header: readonly string[], options: ResultsOptions, columns: ColumnSet<T>): Promise<ResultsWriter<T>> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination, options.option);
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
  private readonly out: ChunkedSink;

  constructor(
    sink: Sink,
    header: readonly string[],
    options: Pick<ResultsOptions, "resultColumns">,
    columns: ColumnSet<T>,
  ) {
    const at = options.resultColumns ?? "last";
    const width = header.length;
    const shape = rowShaper(header, columns);
    this.shape = at === "last" ? shape : (cells, outcome) => placeResults(shape(cells, outcome), width, at);
    this.keys = uniqueKeys(resultsHeader(header, columns.names, at)).map((key) => `${JSON.stringify(key)}:`);
    this.out = new ChunkedSink(sink);
  }

  write(cells: readonly string[], outcome: T): Promise<void> {
    const refused = this.out.refusal();
    if (refused !== null) return Promise.reject(refused);
    const record = this.shape(cells, outcome);
    let line = "{";
    for (let i = 0; i < this.keys.length; i++) line += `${i === 0 ? "" : ","}${this.keys[i] as string}${JSON.stringify(record[i] ?? "")}`;
    this.text += `${line}}\n`;
    return this.text.length < CHUNK_CHARS ? READY : this.flush();
  }

  writeVerbatim(): Promise<void> {
    // InputCopy keeps the cells for JSON Lines results (input-copy.ts copiesRowText).
    throw new Error("a row's text handed over for JSON Lines results");
  }

  close(): Promise<void> {
    return this.out.close(() => (this.text === "" ? READY : this.flush()));
  }

  /** Resolves at once when the sink takes the chunk, else once it has written it (drained). */
  private flush(): Promise<void> {
    const chunk = this.text;
    this.text = "";
    return this.out.send(chunk);
  }
}
