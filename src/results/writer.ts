/**
 * The results CSV (SPEC §6): one row per input data row, in input order, stringified by
 * csv-stringify into a temporary sibling that is renamed into place on close, or onto stdout.
 */
import { close, createWriteStream, fsync, open, rmSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { stringify } from "csv-stringify/sync";
import type { Options as StringifyOptions } from "csv-stringify/sync";
import { OutputError } from "../errors.js";
import { resultTail, resultsHeader, rowShaper } from "./cells.js";
import type { RowOutcome } from "./status.js";
import { describeSystemError } from "../system-error.js";

export interface ResultsWriter {
  /**
   * Queues one results row. Resolves at once while the output keeps up, and otherwise when
   * it has drained: await every call, so a run of 1,000,000 rows never piles up in memory.
   * Rejects with an OutputError once the output has failed (disk full, broken pipe).
   */
  write(cells: readonly string[], outcome: RowOutcome): Promise<void>;
  /**
   * Like write(), for a row whose own cells need no change (cells.ts verbatimTest): `text` is
   * the row as the input has it, in the results' delimiter, without its line end. The bytes
   * are copied before this returns.
   */
  writeVerbatim(text: Uint8Array, outcome: RowOutcome): Promise<void>;
  /** Flushes, syncs and renames the file into place (or finishes on stdout). Idempotent. */
  close(): Promise<void>;
}

export interface ResultsOptions {
  /** The input's delimiter, byte order mark and line end, so the results open in whatever opened the input. */
  readonly delimiter: string;
  readonly bom: boolean;
  readonly lineEnd: string;
  /** Where "-" writes; never ended, since the caller owns it. */
  readonly stdout: NodeJS.WritableStream;
}

/**
 * Opens the destination eagerly, so an unwritable path stops the run (exit 2) before
 * anything is sent, and writes the header row.
 */
export async function openResults(destination: string, header: readonly string[], options: ResultsOptions): Promise<ResultsWriter> {
  const sink = destination === "-" ? stdoutSink(options.stdout) : await fileSink(destination);
  const writer = new CsvResultsWriter(sink, header, {
    delimiter: options.delimiter,
    record_delimiter: options.lineEnd,
    // A cell holding any line break is quoted, whichever line end the file uses (cells.ts csvCell).
    quote_record_delimiter: true,
  }, options.bom);
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
  await removeDeadTemporaries(path);
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
  // A second Ctrl-C exits at once: leave no half-written temporary behind.
  const onExit = (): void => rmSync(temporary, { force: true });
  process.once("exit", onExit);
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
        process.off("exit", onExit);
      } catch (error) {
        await release();
        await rm(temporary, { force: true });
        throw outputError(path, error);
      }
    },
    async discard() {
      process.off("exit", onExit);
      await release();
      await rm(temporary, { force: true });
    },
  };
}

/**
 * A run killed with SIGKILL (or a power cut) leaves its `<results>.tmp-<pid>` behind. Those of
 * processes no longer alive on this host are removed; a live run's is left alone.
 */
async function removeDeadTemporaries(path: string): Promise<void> {
  const prefix = `${basename(path)}.tmp-`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(join(dirname(path), name), { force: true }).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

// The temporary sibling would open fine beside a directory; the rename would fail only at the end.
async function refuseDirectory(path: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory() === true) {
    throw new OutputError(`cannot write results to ${path}: it is a directory (use --results PATH)`);
  }
}

function outputError(label: string, error: unknown): OutputError {
  const reason = describeSystemError(error, "no such directory");
  const next = label === "standard output" ? "" : " (use --results PATH)";
  return new OutputError(`cannot write results to ${label}: ${reason}${next}`, { cause: error });
}

const READY: Promise<void> = Promise.resolve();

// Rows reach the sink in batches: csv-stringify's stream costs about as much per record as
// the stringifying itself, and a run may hold 1,000,000 rows. 64 KB is ~400 rows of a wide sheet.
const BATCH_BYTES = 64 * 1024;

class CsvResultsWriter implements ResultsWriter {
  private readonly shape: (cells: readonly string[], outcome: RowOutcome) => string[];
  private readonly delimiter: string;
  private readonly lineEnd: string;
  /** Records waiting to be stringified together, ahead of anything staged after them. */
  private records: string[][] = [];
  private recordChars = 0;
  /** The batch's bytes so far, in order. */
  private stage: Buffer = Buffer.allocUnsafe(BATCH_BYTES * 2);
  private staged = 0;
  /** A batch buffer the stream has finished with, reused rather than left to the GC. */
  private spare: Buffer | null = null;
  private lastWrite: Promise<void> = READY;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly sink: Sink,
    header: readonly string[],
    private readonly csv: StringifyOptions,
    bom: boolean,
  ) {
    this.shape = rowShaper(header);
    this.delimiter = typeof csv.delimiter === "string" ? csv.delimiter : ",";
    this.lineEnd = typeof csv.record_delimiter === "string" ? csv.record_delimiter : "\n";
    if (bom) this.stageText("\uFEFF");
    sink.stream.on("error", (error) => this.fail(error));
  }

  /** `outcome` null writes the header row. */
  write(cells: readonly string[], outcome: RowOutcome | null): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    const record = outcome === null ? resultsHeader(cells) : this.shape(cells, outcome);
    this.records.push(record);
    for (const cell of record) this.recordChars += cell.length + 1;
    return this.staged + this.recordChars < BATCH_BYTES ? READY : this.flush();
  }

  writeVerbatim(text: Uint8Array, outcome: RowOutcome): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.closing !== null) throw new Error("results written after close()");
    this.stageRecords();
    this.stageBytes(text);
    this.stageText(resultTail(outcome, this.delimiter, this.lineEnd));
    return this.staged < BATCH_BYTES ? READY : this.flush();
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
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

  /** Resolves at once when the sink takes the batch, else once it has written it (drained). */
  private flush(): Promise<void> {
    this.stageRecords();
    const batch = this.stage;
    const bytes = batch.subarray(0, this.staged);
    // The stream keeps the bytes until written: the next batch gets another buffer.
    this.stage = this.spare ?? Buffer.allocUnsafe(BATCH_BYTES * 2);
    this.spare = null;
    this.staged = 0;
    let accepted = true;
    // The write callback runs even when the stream fails or is destroyed, so no waiter hangs.
    const written = new Promise<void>((resolve) => {
      accepted = this.sink.stream.write(bytes, (error) => {
        if (error) this.fail(error);
        else if (batch.length === BATCH_BYTES * 2) this.spare = batch;
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
      if (this.records.length > 0 || this.staged > 0) this.flush().catch(() => undefined);
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
