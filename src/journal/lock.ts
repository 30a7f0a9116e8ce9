/**
 * `<state>.lock`: one run at a time per journal (docs/contract.md §5), so overlapping cron runs
 * cannot both send.
 *
 * The lock is the kernel's: an exclusive flock(2) on the lock file, taken without waiting.
 * The kernel drops it when the process ends, however it ends (SIGKILL, a crash, a reboot), so
 * a dead run's lock is free to the next run at once, and no process id is ever judged alive
 * or dead (a pid reused by another program after a reboot blocks nothing). Whoever holds the
 * flock is a live process, so there is no stale-lock takeover to race: a run stalled at any
 * point either holds the lock or does not. The file's text (pid, host, start) only names the
 * holder in the refusal.
 */
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import type * as FsExt from "fs-ext";
import { StateError } from "../errors.js";
import { describe } from "./read.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";

/**
 * flock(2), from fs-ext, a native addon loaded at the first lock taken or looked at: a `plan`
 * with no journal, or no lock file beside it, starts without loading it (README, Performance,
 * Start-up).
 */
let fsExt: typeof FsExt | undefined;
function flockSync(fd: number, flags: "sh" | "ex" | "shnb" | "exnb" | "un"): void {
  fsExt ??= createRequire(import.meta.url)("fs-ext") as typeof FsExt;
  fsExt.flockSync(fd, flags);
}

export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly startedAt: string;
}

export interface JournalLock {
  readonly path: string;
  /** Removes the lock file and drops the lock. */
  release(): Promise<void>;
}

/** Who holds a lock, as `lockHolder` finds it: `owner` is null while the holder has not named itself yet. */
export interface LockHolder {
  readonly owner: LockOwner | null;
}

/**
 * How often, and how far apart, a run finding the lock busy looks again before it refuses: a
 * `plan` looking whether a run holds the lock (`lockHolder`) holds it, shared, for an instant.
 */
const BUSY_ATTEMPTS = 4;
const BUSY_PAUSE_MS = 25;

/** Takes the lock on `lockPath` for this process, or throws StateError (exit 2) naming the run that holds it. */
export async function acquireLock(lockPath: string): Promise<JournalLock> {
  for (let attempt = 1; ; attempt++) {
    const fd = takeLock(lockPath);
    if (fd !== null) return holdLock(lockPath, fd);
    if (attempt === BUSY_ATTEMPTS) throw refusal(lockPath);
    await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
  }
}

/**
 * Whether a run holds the lock on `lockPath` now, without waiting and without ever blocking it
 * for more than an instant (docs/contract.md §5: `plan` beside a running `submit`); null when
 * no run holds it, or when it cannot be told (the run then plans as if none did).
 */
export function lockHolder(lockPath: string): LockHolder | null {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    // No lock file: no run holds the lock (a holder removes it only as it lets go).
    return null;
  }
  try {
    flockSync(fd, "shnb");
    flockSync(fd, "un");
    return null;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code === "EAGAIN" || code === "EWOULDBLOCK" ? { owner: readOwner(lockPath) } : null;
  } finally {
    closeSync(fd);
  }
}

/** The descriptor that holds the flock on the file `lockPath` names, or null while another holds it. */
function takeLock(lockPath: string): number | null {
  // A holder removes the file on release while it still holds the flock; a run that opened the
  // file just before then gets the flock of a file no longer at `lockPath`, and opens again.
  for (;;) {
    const fd = openLockFile(lockPath);
    try {
      flockSync(fd, "exnb");
    } catch (cause) {
      closeSync(fd);
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" || code === "EWOULDBLOCK") return null;
      throw new StateError(`cannot lock ${lockPath} (${describe(cause)}); put --state on a local disk and run again`, { cause });
    }
    if (isStill(lockPath, fd)) {
      writeOwner(fd);
      return fd;
    }
    closeSync(fd);
  }
}

function openLockFile(lockPath: string): number {
  try {
    return openSync(lockPath, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (cause) {
    throw new StateError(`cannot create lock file ${lockPath} (${describe(cause)}); check the permissions of its folder and run again`, { cause });
  }
}

function isStill(lockPath: string, fd: number): boolean {
  try {
    const named = statSync(lockPath);
    const held = fstatSync(fd);
    return named.ino === held.ino && named.dev === held.dev;
  } catch {
    return false;
  }
}

function writeOwner(fd: number): void {
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  const text = `${JSON.stringify(owner)}\n`;
  // A lock file left by an older portin, or created under another umask, becomes private too (docs/contract.md §7).
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch {
    // Another user's lock file keeps its mode; it names nobody's customers.
  }
  ftruncateSync(fd, 0);
  writeSync(fd, text, 0);
}

function holdLock(lockPath: string, fd: number): JournalLock {
  let held = true;
  // Removed while the flock is still held, then closed: a run waiting on this file sees it gone and opens the next.
  const drop = (): void => {
    if (!held) return;
    held = false;
    try {
      if (isStill(lockPath, fd)) unlinkSync(lockPath);
    } catch {
      // A lock file left behind is harmless: the kernel drops the flock below, and the next run takes it.
    }
    closeSync(fd);
  };
  process.once("exit", drop);
  return {
    path: lockPath,
    release(): Promise<void> {
      process.removeListener("exit", drop);
      drop();
      return Promise.resolve();
    },
  };
}

function refusal(lockPath: string): StateError {
  const holder = readOwner(lockPath);
  // Nothing to delete: a lock is held only by a live process, and is free the moment it ends.
  const next = "wait for it to finish, then run again (a run that has ended holds no lock, so there is nothing to delete)";
  if (holder === null) return new StateError(`another portin run holds ${lockPath}; ${next}`);
  const where = holder.hostname === hostname() ? "" : ` on host ${holder.hostname}`;
  return new StateError(`another portin run (pid ${holder.pid}${where}, started ${holder.startedAt}) holds ${lockPath}; ${next}`);
}

/** Who holds the lock, as its file says; null while the holder has not written it yet. */
function readOwner(lockPath: string): LockOwner | null {
  try {
    const value = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<Record<keyof LockOwner, unknown>>;
    if (typeof value.pid !== "number" || typeof value.hostname !== "string" || typeof value.startedAt !== "string") return null;
    return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
  } catch {
    return null;
  }
}
