/**
 * Where a results file's bytes go, whatever its format: a temporary sibling renamed into place
 * once complete (so a results file on disk is always whole), or standard output.
 */
import { close, constants, createWriteStream, fchmod, fsync, open, rmSync } from "node:fs";
import { readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { OutputError } from "../errors.js";
import { describeSystemError } from "../system-error.js";
import { isAlive } from "../pid.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import * as outputWords from "../messages/output.js";
import { nonRegularKind } from "../file-kind.js";

/** Where the stringified text goes, and how a run's end (or failure) is made final. */
export interface Sink {
  readonly label: string;
  /** The option that chose the path, for messages: `--results`, or `--output` for `status`. */
  readonly option: string;
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
    option: "--results",
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

/**
 * Opens `<path>.tmp-<pid>` beside `path`, before anything is sent (docs/contract.md §4): what
 * will be written is created now, and a destination that exists must take writing too (an
 * immutable or read-only results file would otherwise fail only at the rename, after sending).
 * `option` names the flag that chooses the path, for the message.
 */
export async function fileSink(path: string, option = "--results"): Promise<Sink> {
  // Written beside the destination so the rename stays on one file system and is atomic.
  const temporary = `${path}.tmp-${process.pid}`;
  await refuseNonRegular(path, option);
  await removeDeadTemporaries(path);
  await proveReplaceable(path, option);
  let fd: number;
  try {
    // Private whatever the umask (docs/contract.md §7); the rename keeps the mode.
    fd = await openFile(temporary, "w", PRIVATE_FILE_MODE);
    await fchmodFile(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    throw outputError(path, error, option);
  }
  // A plain descriptor rather than a FileHandle: a FileHandle's close() waits for a stream
  // with autoClose off forever. autoClose is off so the file is synced before the rename,
  // and a crash right after the rename cannot leave an empty file looking complete.
  const stream = createWriteStream(temporary, { fd, autoClose: false });
  // A second Ctrl-C exits at once: leave no half-written temporary behind. Best effort: a
  // folder that refuses it leaves it to the next run (removeDeadTemporaries), never a stack trace.
  const onExit = (): void => {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // see above
    }
  };
  process.once("exit", onExit);
  let isOpen = true;
  const release = async (): Promise<void> => {
    if (!isOpen) return;
    isOpen = false;
    await closeFile(fd).catch(() => undefined);
  };
  return {
    label: path,
    option,
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
        throw outputError(path, error, option, await removeTemporary(temporary));
      }
      process.off("exit", onExit);
    },
    async discard() {
      await release();
      if ((await removeTemporary(temporary)) === null) process.off("exit", onExit);
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

/** Removes a temporary; returns the error when it cannot (a folder made read-only during the run), else null. */
async function removeTemporary(temporary: string): Promise<unknown> {
  try {
    // unlink, not rm: rm retries a refused unlink as a directory and reports that instead.
    await unlink(temporary);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : error;
  }
}

/**
 * docs/contract.md §7: a destination that exists and is not a regular file is refused, before
 * anything is written. The temporary sibling would open fine beside it, and the rename would
 * then fail at the end (a directory) or replace it with a private regular file: run as root,
 * `--output /dev/full` would turn the device into a 0600 file.
 */
export async function refuseNonRegular(path: string, option: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  const kind = existing === null ? null : nonRegularKind(existing);
  if (kind === null) return;
  if (kind === "a directory") throw new OutputError(outputWords.isADirectory(noun(option), path, outputWords.useOption(option)));
  throw new OutputError(outputWords.notARegularFile(noun(option), path, kind, outputWords.useOption(option)));
}

/** An existing destination that refuses writing (immutable, read-only) is refused now rather than at the rename. */
async function proveReplaceable(path: string, option: string): Promise<void> {
  let fd: number;
  try {
    fd = await openFile(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Missing (created later), or a symlink: the rename replaces the entry as it is.
    if (code === "ENOENT" || code === "ELOOP") return;
    throw outputError(path, error, option);
  }
  await closeFile(fd);
}

function noun(option: string): string {
  return outputWords.outputNoun(option);
}

/**
 * "cannot write results to …: permission denied (use --results PATH)", naming the option of
 * the command that chose the path; `leftBehind` is why its temporary could not be removed.
 */
export function outputError(label: string, error: unknown, option = "--results", leftBehind: unknown = null): OutputError {
  const reason = describeSystemError(error, "no such directory");
  const next = label === "standard output" ? "" : outputWords.useOption(option);
  const left = leftBehind === null ? "" : outputWords.temporaryLeftBehind(`${label}.tmp-${process.pid}`, describeSystemError(leftBehind));
  return new OutputError(outputWords.cannotWriteTo(noun(option), label, reason, next, left), { cause: error });
}


/** A whole text (the HTML report, its calendar) written as results are: renamed into place once synced, or nothing left behind. */
export async function writeWholeFile(path: string, text: string | Uint8Array, option?: string): Promise<void> {
  const sink = await fileSink(path, option);
  let failure: OutputError | null = null;
  sink.stream.once("error", (error: unknown) => {
    failure = outputError(path, error, option);
  });
  sink.stream.write(text);
  await finishSink(sink, () => failure);
}
