/**
 * Where a results file's bytes go, whatever its format: a temporary sibling renamed into place
 * once complete (so a results file on disk is always whole), or standard output.
 */
import { close, createWriteStream, fchmod, fsync, open, rmSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { OutputError } from "../errors.js";
import { describeSystemError } from "../system-error.js";
import { isAlive } from "../pid.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";

/** Where the stringified text goes, and how a run's end (or failure) is made final. */
export interface Sink {
  readonly label: string;
  readonly stream: NodeJS.WritableStream;
  /** End the stream on close? False for stdout, which is the caller's. */
  readonly endStream: boolean;
  /** Called once every byte is in the stream. */
  commit(): Promise<void>;
  /** Called after a failure: leave nothing that looks like a results file. */
  discard(): Promise<void>;
}

/**
 * A writer's last step, the same for every format: ends the stream (unless it is the
 * caller's), then leaves nothing behind after a failure, rethrowing it, or commits the file.
 * `failure` is asked again once the stream has ended, when a late error has been recorded.
 */
export async function finishSink(sink: Sink, failure: () => OutputError | null): Promise<void> {
  if (failure() === null && sink.endStream) {
    const stream = sink.stream;
    await new Promise<void>((resolve) => {
      stream.once("finish", resolve);
      stream.once("error", () => resolve());
      stream.end();
    });
  }
  const failed = failure();
  if (failed !== null) {
    await sink.discard();
    throw failed;
  }
  await sink.commit();
}

export function stdoutSink(stream: NodeJS.WritableStream): Sink {
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
const fchmodFile = promisify(fchmod);

export async function fileSink(path: string): Promise<Sink> {
  // Written beside the destination so the rename stays on one file system and is atomic.
  const temporary = `${path}.tmp-${process.pid}`;
  await refuseDirectory(path);
  await removeDeadTemporaries(path);
  let fd: number;
  try {
    // Private whatever the umask (docs/contract.md §7); the rename keeps the mode.
    fd = await openFile(temporary, "w", PRIVATE_FILE_MODE);
    await fchmodFile(fd, PRIVATE_FILE_MODE);
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

// The temporary sibling would open fine beside a directory; the rename would fail only at the end.
async function refuseDirectory(path: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory() === true) {
    throw new OutputError(`cannot write results to ${path}: it is a directory (use --results PATH)`);
  }
}

export function outputError(label: string, error: unknown): OutputError {
  const reason = describeSystemError(error, "no such directory");
  const next = label === "standard output" ? "" : " (use --results PATH)";
  return new OutputError(`cannot write results to ${label}: ${reason}${next}`, { cause: error });
}

