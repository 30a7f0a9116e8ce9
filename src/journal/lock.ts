/**
 * One run at a time per journal (docs/contract.md §5, "The lock"), so overlapping cron runs
 * cannot both send.
 *
 * The lock is the kernel's, and it is taken on the journal file itself: an exclusive lock
 * (native-lock.ts) on one open file of the journal, taken without waiting. Every name that
 * reaches the journal (a symlink, a hard link, `..`, a relative path) opens the same file, so
 * meets the same lock; two runs starting together on a journal that does not exist yet both
 * open the one file the first of them creates (O_CREAT without O_EXCL), and only the run that
 * holds the lock reads it and writes its header. The kernel drops the lock when the process
 * ends, however it ends (SIGKILL, a crash, a reboot), so a dead run's lock is free to the next
 * run at once, and no process id is ever judged alive or dead (a pid reused by another program
 * after a reboot blocks nothing). Whoever holds the lock is a live process, so there is no
 * stale-lock takeover to race: a run stalled at any point either holds the lock or does not.
 *
 * `<journal>.lock`, beside the journal's real path, only names the holder (pid, host, start)
 * for the refusal and for `plan`; it decides nothing.
 */
import { closeSync, constants, existsSync, fchmodSync, fstatSync, ftruncateSync, openSync, readFileSync, realpathSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname, release } from "node:os";
import { StateError } from "../errors.js";
import { describeSystemError } from "../system-error.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { nativeLocks } from "./native-lock.js";
import * as journalWords from "../messages/journal.js";

export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly startedAt: string;
}

export interface JournalLock {
  /** The journal, as this run named it. */
  readonly path: string;
  /** Removes the holder's name file and drops the lock. */
  release(): Promise<void>;
}

/** Who holds a lock, as `lockHolder` finds it: `owner` is null while the holder has not named itself yet. */
export interface LockHolder {
  readonly owner: LockOwner | null;
}

/**
 * The byte every portin run locks: one byte far past the end of any journal (a million-number
 * journal is some hundreds of MB), because on Windows a lock bars the writes of every other
 * open file to the bytes it covers, the run's own appends included. Linux and macOS lock the
 * same way wherever the byte is.
 */
const LOCK_OFFSET = 2 ** 40;
const LOCK_LENGTH = 1;

/**
 * How often, and how far apart, a run finding the lock busy looks again before it refuses: a
 * `plan` looking whether a run holds the lock (`lockHolder`) holds it, shared, for an instant.
 */
const BUSY_ATTEMPTS = 4;
const BUSY_PAUSE_MS = 25;

/**
 * Takes the lock on the journal at `journalPath` (created, empty, when there is none) for this
 * process, or throws StateError (exit 2) naming the run that holds it, InstallError (exit 2)
 * when the lock's native part cannot load.
 */
export async function acquireLock(journalPath: string): Promise<JournalLock> {
  for (let attempt = 1; ; attempt++) {
    const fd = takeLock(journalPath);
    if (fd !== null) return holdLock(journalPath, fd);
    if (attempt === BUSY_ATTEMPTS) throw refusal(journalPath);
    await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
  }
}

/**
 * Whether a run holds the lock on the journal at `journalPath` now, without waiting and without
 * ever blocking it for more than an instant (docs/contract.md §5: `plan` beside a running
 * `submit`); null when no run holds it, or when it cannot be told (the run then plans as if
 * none did). A holder names itself in `<journal>.lock` as it takes the lock, so without that
 * file there is nobody to name and nothing in flight to show: the lock is not looked at, and
 * its native part is not loaded.
 */
export function lockHolder(journalPath: string): LockHolder | null {
  const namePath = nameFileOf(journalPath);
  if (namePath === null || !existsSync(namePath)) return null;
  let fd: number;
  try {
    fd = openSync(journalPath, constants.O_RDONLY);
  } catch {
    return null;
  }
  try {
    const locks = nativeLocks();
    if (!locks.tryLock(fd, LOCK_OFFSET, LOCK_LENGTH, { shared: true })) return { owner: readOwner(namePath) };
    locks.unlock(fd, LOCK_OFFSET, LOCK_LENGTH);
    return null;
  } catch (cause) {
    return isBusy(cause) ? { owner: readOwner(namePath) } : null;
  } finally {
    closeSync(fd);
  }
}

/** A descriptor of the journal holding its lock, or null while another holds it. */
function takeLock(journalPath: string): number | null {
  // Loaded before anything is opened: a portin that cannot load it says so, not that it cannot lock.
  const locks = nativeLocks();
  // The journal moved or removed between the open and the lock (by hand): the lock is then on a
  // file no longer at the path, and the path is opened again.
  for (;;) {
    const fd = openJournalFile(journalPath);
    let taken: boolean;
    try {
      taken = locks.tryLock(fd, LOCK_OFFSET, LOCK_LENGTH);
    } catch (cause) {
      closeSync(fd);
      if (isBusy(cause)) return null;
      throw cannotLock(journalPath, cause);
    }
    if (!taken) {
      closeSync(fd);
      return null;
    }
    if (isStill(journalPath, fd)) return fd;
    closeSync(fd);
  }
}

function openJournalFile(journalPath: string): number {
  try {
    // Symlinks are followed: the journal is the file they reach (docs/contract.md §5).
    return openSync(journalPath, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE_MODE);
  } catch (cause) {
    throw new StateError(journalWords.cannotOpenToLock(journalPath, describeSystemError(cause)), { cause });
  }
}

/**
 * A conflicting lock: fs-native-extensions answers false for EAGAIN; fcntl may say EACCES
 * instead (POSIX allows both), and Windows's LockFileEx says EBUSY (libuv's name for
 * ERROR_LOCK_VIOLATION).
 */
function isBusy(cause: unknown): boolean {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  return code === "EAGAIN" || code === "EWOULDBLOCK" || code === "EACCES" || code === "EBUSY";
}

/** The system a lock is taken on: what cannotLock needs to tell a kernel's lack from a file system's. */
export interface LockSystem {
  /** process.platform. */
  readonly platform: string;
  /** os.release(): on Linux the kernel's version, "3.10.0-1160.el7.x86_64". */
  readonly release: string;
}

/**
 * The first Linux kernel with open file description locks (fcntl F_OFD_SETLK), the lock
 * native-lock.ts takes there; an older kernel does not know the command and answers EINVAL.
 */
const OFD_LOCKS_SINCE: readonly [number, number] = [3, 15];

/**
 * What the system said when it could not lock, each cause with the advice that helps with it
 * (docs/contract.md §5, "The lock"): only a file system without locks is told to move the
 * journal; a kernel without the lock portin takes is named, with the version that has it.
 * Exported for its test, which gives it each cause and system.
 */
export function cannotLock(journalPath: string, cause: unknown, system: LockSystem = { platform: process.platform, release: release() }): StateError {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (code === "ENOLCK" || code === "EOPNOTSUPP" || code === "ENOTSUP") {
    return new StateError(journalWords.noLocksHere(journalPath, detail), { cause });
  }
  if (code === "EINVAL" && system.platform === "linux" && olderThan(system.release, OFD_LOCKS_SINCE)) {
    return new StateError(journalWords.kernelWithoutLocks(journalPath, system.release, OFD_LOCKS_SINCE.join("."), detail), { cause });
  }
  if (code === "ENOSYS") {
    return new StateError(journalWords.systemWithoutLocks(journalPath, OFD_LOCKS_SINCE.join("."), detail), { cause });
  }
  if (code === "EINVAL") {
    // The kernel has the lock (or this is not Linux): the file system or a layer below it refused the request.
    return new StateError(journalWords.lockRefusedAsInvalid(journalPath, detail), { cause });
  }
  return new StateError(journalWords.cannotLock(journalPath, detail), { cause });
}

/** Whether a kernel release ("3.10.0-1160.el7.x86_64") is older than major.minor; false when it cannot be read. */
function olderThan(kernel: string, [major, minor]: readonly [number, number]): boolean {
  const match = /^(\d+)\.(\d+)/.exec(kernel);
  if (match === null) return false;
  const [have, haveMinor] = [Number(match[1]), Number(match[2])];
  return have < major || (have === major && haveMinor < minor);
}

function isStill(journalPath: string, fd: number): boolean {
  try {
    const named = statSync(journalPath);
    const held = fstatSync(fd);
    return named.ino === held.ino && named.dev === held.dev;
  } catch {
    return false;
  }
}

/** `<journal>.lock` beside the journal's real path (symlinks and `..` resolved); null when the journal is not there. */
function nameFileOf(journalPath: string): string | null {
  try {
    return `${realpathSync(journalPath)}.lock`;
  } catch {
    return null;
  }
}

/**
 * Writes who holds the lock into `<journal>.lock`; the path written, or null when it cannot be
 * (a folder this user cannot write, a full disk): the lock holds all the same, and a refused
 * run then names no pid. A file left there by an older portin, or by a run that ended, is
 * written over: it only ever names.
 */
function nameHolder(journalPath: string): string | null {
  const namePath = nameFileOf(journalPath);
  if (namePath === null) return null;
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  try {
    const fd = openSync(namePath, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
    try {
      // One left by an older portin, or created under another umask, becomes private too (docs/contract.md §7).
      try {
        fchmodSync(fd, PRIVATE_FILE_MODE);
      } catch {
        // Another user's file keeps its mode; it names nobody's customers.
      }
      ftruncateSync(fd, 0);
      writeSync(fd, `${JSON.stringify(owner)}\n`, 0);
    } finally {
      closeSync(fd);
    }
    return namePath;
  } catch {
    return null;
  }
}

function holdLock(journalPath: string, fd: number): JournalLock {
  const namePath = nameHolder(journalPath);
  let held = true;
  // The name is removed while the lock is still held, so that it never names a run that has let go
  // after the next run named itself.
  const drop = (): void => {
    if (!held) return;
    held = false;
    if (namePath !== null) {
      try {
        unlinkSync(namePath);
      } catch {
        // A name left behind is harmless: it decides nothing, and the next holder writes over it.
      }
    }
    try {
      nativeLocks().unlock(fd, LOCK_OFFSET, LOCK_LENGTH);
    } catch {
      // Closing the file below drops the lock all the same.
    }
    closeSync(fd);
  };
  process.once("exit", drop);
  return {
    path: journalPath,
    release(): Promise<void> {
      process.removeListener("exit", drop);
      drop();
      return Promise.resolve();
    },
  };
}

function refusal(journalPath: string): StateError {
  const namePath = nameFileOf(journalPath);
  const holder = namePath === null ? null : readOwner(namePath);
  // Nothing to delete: a lock is held only by a live process, and is free the moment it ends.
  const next = journalWords.WAIT_FOR_HOLDER;
  if (holder === null) return new StateError(journalWords.heldByUnnamedRun("", journalPath, otherNames(journalPath), next));
  const where = holder.hostname === hostname() ? "" : ` on host ${holder.hostname}`;
  return new StateError(journalWords.heldByRun(holder.pid, where, holder.startedAt, journalPath, next));
}

/**
 * A holder names itself beside the journal's real path, which a hard link under another name
 * does not share: the refusal then says why it names nobody.
 */
function otherNames(journalPath: string): string {
  try {
    const links = statSync(journalPath).nlink;
    return links > 1 ? journalWords.otherHardLinks(links) : "";

  } catch {
    return "";
  }
}

/** Who holds the lock, as its name file says; null while the holder has not written it yet, or cannot. */
function readOwner(namePath: string): LockOwner | null {
  try {
    const value = JSON.parse(readFileSync(namePath, "utf8")) as Partial<Record<keyof LockOwner, unknown>>;
    if (typeof value.pid !== "number" || typeof value.hostname !== "string" || typeof value.startedAt !== "string") return null;
    return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
  } catch {
    return null;
  }
}
