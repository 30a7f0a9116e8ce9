/**
 * `<state>.lock`: one run at a time per journal (docs/contract.md §5), so overlapping cron runs cannot
 * both send. Created with O_EXCL; a lock left by a dead process is taken over.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { StateError } from "../errors.js";
import { describe } from "./read.js";
import { isAlive } from "../pid.js";

/** A lock that cannot be read may be one being written right now; only after this long is it taken as abandoned. */
export const UNREADABLE_LOCK_GRACE_MS = 60_000;
/**
 * After renaming our lock over a stale one, wait this long before re-reading it: a second
 * process taking over the same stale lock at the same moment would have renamed its own by
 * then, and exactly one of the two reads its own lock back.
 */
export const TAKEOVER_SETTLE_MS = 50;

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly startedAt: string;
  /** Tells apart two locks of one pid, e.g. a process that opened the same journal twice. */
  readonly token: string;
}

export interface JournalLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

export async function acquireLock(lockPath: string, statePath: string): Promise<JournalLock> {
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const content = `${JSON.stringify(owner)}\n`;

  try {
    await writeFile(lockPath, content, { flag: "wx" });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new StateError(`cannot create lock file ${lockPath} (${describe(cause)}); check the permissions of its folder and run again`, {
        cause,
      });
    }
    await takeOver(lockPath, statePath, content);
  }
  return holdLock(lockPath, content);
}

async function takeOver(lockPath: string, statePath: string, content: string): Promise<void> {
  const seen = await readLock(lockPath);
  if (seen === null) {
    // Released between our attempt and this read: try once more the ordinary way.
    await writeFile(lockPath, content, { flag: "wx" }).catch((cause: unknown) => {
      throw refusedUnreadable(lockPath, cause);
    });
    return;
  }
  const holder = parseOwner(seen.text);
  if (holder !== null) {
    if (holder.hostname !== hostname()) {
      throw new StateError(
        `another portin run (pid ${holder.pid} on host ${holder.hostname}, started ${holder.startedAt}) holds ${lockPath}; ` +
          "wait for it or, if it is gone, delete the lock file",
      );
    }
    if (isAlive(holder.pid)) {
      throw new StateError(
        `another portin run (pid ${holder.pid}, started ${holder.startedAt}) holds ${lockPath}; wait for it or, if it is gone, delete the lock file`,
      );
    }
  } else if (Date.now() - seen.mtimeMs < UNREADABLE_LOCK_GRACE_MS) {
    throw new StateError(
      `${lockPath} exists but cannot be read as a portin lock; another run may be starting on ${statePath}: ` +
        "wait a minute and retry or, if no portin run is active, delete the lock file",
    );
  }

  const temporary = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, content, { flag: "wx" });
    // The narrowest check-then-act we can do without a lock on the lock: replace only what we judged stale.
    const again = await readLock(lockPath);
    if (again !== null && again.text !== seen.text) throw refusedRace(lockPath);
    await rename(temporary, lockPath);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  await new Promise((resolve) => setTimeout(resolve, TAKEOVER_SETTLE_MS));
  const mine = await readLock(lockPath);
  if (mine?.text !== content) throw refusedRace(lockPath);
}

function holdLock(lockPath: string, content: string): JournalLock {
  let released = false;
  // A run that dies by an uncaught error still exits through here; a SIGKILL leaves the lock to be taken over.
  const onExit = (): void => {
    try {
      if (readFileSync(lockPath, "utf8") === content) unlinkSync(lockPath);
    } catch {
      // best effort: a lock left behind is taken over by the next run once this pid is gone
    }
  };
  process.once("exit", onExit);
  return {
    path: lockPath,
    async release(): Promise<void> {
      if (released) return;
      released = true;
      process.removeListener("exit", onExit);
      const current = await readLock(lockPath);
      if (current?.text === content) await unlink(lockPath).catch(() => undefined);
    },
  };
}

async function readLock(lockPath: string): Promise<{ text: string; mtimeMs: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    return { text, mtimeMs: info.mtimeMs };
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StateError(`cannot read lock file ${lockPath} (${describe(cause)}); check its permissions`, { cause });
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof LockOwner, unknown>>;
    if (typeof value.pid !== "number" || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    if (typeof value.hostname !== "string") return null;
    return {
      pid: value.pid,
      hostname: value.hostname,
      startedAt: typeof value.startedAt === "string" ? value.startedAt : "at an unknown time",
      token: typeof value.token === "string" ? value.token : "",
    };
  } catch {
    return null;
  }
}

function refusedRace(lockPath: string): StateError {
  return new StateError(`another portin run took over ${lockPath} at the same moment; wait for it to finish and retry`);
}

function refusedUnreadable(lockPath: string, cause: unknown): StateError {
  return new StateError(`cannot take ${lockPath} (${describe(cause)}); another portin run may be starting: wait for it and retry`, { cause });
}
