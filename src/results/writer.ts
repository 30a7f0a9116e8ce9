/**
 * The results CSV (SPEC §6): one row per input data row, in input order, stringified by
 * csv-stringify into a temporary sibling that is renamed into place on close, or onto stdout.
 */
import { close, createWriteStream, fsync, open } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { stringify } from "csv-stringify/sync";
import type { Options as StringifyOptions } from "csv-stringify/sync";
import { OutputError } from "../errors.js";
import { resultsHeader, rowShaper } from "./cells.js";
import type { RowOutcome } from "./status.js";

export interface ResultsWriter {
  /**
   * Queues one results row. Resolves at once while the output keeps up, and otherwise when
   * it has drained: await every call, so a run of 1,000,000 rows never piles up in memory.
   * Rejects with an OutputError once the output has failed (disk full, broken pipe).
   */
  write(cells: readonly string[], outcome: RowOutcome): Promise<void>;
  /** Flushes, syncs and renames the file into place (or finishes on stdout). Idempotent. */
  close(): Promise<void>;
}

export interface ResultsOptions {
  /** The input's delimiter, so the results open in whatever opened the input. */
  readonly delimiter: string;
  /** Where "-" writes; never ended, since the caller owns it. */
  readonly stdout: NodeJS.WritableStream;
}

/** SPEC §2: `<input without .csv>.results.csv` beside the input; stdout for standard input. */
export function defaultResultsPath(input: string): string {
  if (input === "-") return "-";
  return `${input.replace(/\.csv$/i, "")}.results.csv`;
}

/**
 * Opens the destination eagerly, so an unwritable path stops the run (exit 2) before
 * anything is sent, and writes the header row.
 */
export async function openResults(destination: string, header: readonly string[], options: ResultsOptions): Promise<ResultsWriter> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination);
  const writer = new CsvResultsWriter(sink, header, { delimiter: options.delimiter });
  await writer.write(header, null);
  return writer;
}

/** Where the stringified text goes, and how a run's end (or failure) is made final. */
interface Sink {
  readonly label: string;
  readonly stream: NodeJS.WritableStream;
  /** End the stream on close? False for stdout, which is the caller's. */
  readonly endStream: boolean;
  /** Called once every byte is in the stream. */
  commit(): Promise<void>;
  /** Called after a failure: leave nothing that looks like a results file. */
  discard(): Promise<void>;
}

function stdoutSink(stream: NodeJS.WritableStream): Sink {
  return {
    label: "standard output",
    stream,
    endStream: false,
    commit: () => Promise.resolve(),
    discard: () => Promise.resolve(),
  };
}

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

async function fileSink(path: string): Promise<Sink> {
  // Written beside the destination so the rename stays on one file system and is atomic.
  const temporary = `${path}.tmp-${process.pid}`;
  await refuseDirectory(path);
  let fd: number;
  try {
    fd = await openFile(temporary, "w");
  } catch (error) {
    throw outputError(path, error);
  }
  // A plain descriptor rather than a FileHandle: a FileHandle's close() waits for a stream
  // with autoClose off forever. autoClose is off so the file is synced before the rename,
  // and a crash right after the rename cannot leave an empty file looking complete.
  const stream = createWriteStream(temporary, { fd, autoClose: false });
  let isOpen = true;
  const release = async (): Promise<void> => {
    if (!isOpen) return;
    isOpen = false;
    await closeFile(fd).catch(() => undefined);
  };
  return {
    label: path,
    stream,
    endStream: true,
    async commit() {
      try {
        await syncFile(fd);
        isOpen = false;
        await closeFile(fd);
        await rename(temporary, path);
      } catch (error) {
        await release();
        await rm(temporary, { force: true });
        throw outputError(path, error);
      }
    },
    async discard() {
      await release();
      await rm(temporary, { force: true });
    },
  };
}

// The temporary sibling would open fine beside a directory; the rename would fail only at the end.
async function refuseDirectory(path: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory() === true) {
    throw new OutputError(`cannot write results to ${path}: it is a directory (use --results PATH)`);
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EPIPE: "the reader closed the pipe",
};

function outputError(label: string, error: unknown): OutputError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = (code === undefined ? undefined : FS_REASONS[code]) ?? code ?? (error instanceof Error ? error.message : String(error));
  const next = label === "standard output" ? "" : " (use --results PATH)";
  return new OutputError(`cannot write results to ${label}: ${reason}${next}`, { cause: error });
}

const READY: Promise<void> = Promise.resolve();

// Rows reach the sink in batches: csv-stringify's stream costs about as much per record as
// the stringifying itself, and a run may hold 1,000,000 rows. 256 rows is ~40 KB of text.
const BATCH_ROWS = 256;

class CsvResultsWriter implements ResultsWriter {
  private readonly shape: (cells: readonly string[], outcome: RowOutcome) => string[];
  private batch: string[][] = [];
  private lastWrite: Promise<void> = READY;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly sink: Sink,
    header: readonly string[],
    private readonly csv: StringifyOptions,
  ) {
    this.shape = rowShaper(header);
    sink.stream.on("error", (error) => this.fail(error));
  }

  /** `outcome` null writes the header row. */
  write(cells: readonly string[], outcome: RowOutcome | null): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    this.batch.push(outcome === null ? resultsHeader(cells) : this.shape(cells, outcome));
    return this.batch.length < BATCH_ROWS ? READY : this.flush();
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  /** Resolves at once when the sink takes the batch, else once it has written it (drained). */
  private flush(): Promise<void> {
    const text = stringify(this.batch, this.csv);
    this.batch = [];
    let accepted = true;
    // The write callback runs even when the stream fails or is destroyed, so no waiter hangs.
    const written = new Promise<void>((resolve) => {
      accepted = this.sink.stream.write(text, (error) => {
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
      // A failure here is recorded in `failure`, which is checked below.
      if (this.batch.length > 0) this.flush().catch(() => undefined);
      await this.lastWrite;
    }
    if (this.failure === null && this.sink.endStream) {
      const stream = this.sink.stream;
      await new Promise<void>((resolve) => {
        stream.end(() => resolve());
      });
    }
    if (this.failure !== null) {
      await this.sink.discard();
      throw this.failure;
    }
    await this.sink.commit();
  }

  private fail(error: unknown): void {
    this.failure ??= outputError(this.sink.label, error);
  }
}
