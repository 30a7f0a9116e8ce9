/**
 * The journal lock's native part: fs-native-extensions, a Node-API addon whose package carries
 * a prebuilt binary for each platform (Linux, macOS, Windows; x64 and arm64), so nothing is
 * compiled at install and one binary serves every Node version (docs/contract.md §5, "The
 * lock"). On Linux its lock is an open file description lock (fcntl F_OFD_SETLK), on macOS
 * flock(2), on Windows LockFileEx: each held by one open file, refused to every other open of
 * the same file (in this process too), and dropped by the kernel when the process ends.
 *
 * Loaded at the first lock taken or looked at, not as portin starts: a `plan` with no journal
 * loads nothing from node_modules (docs/contract.md §8, "Start-up").
 */
import { createRequire } from "node:module";
import { InstallError } from "../errors.js";
import * as journalWords from "../messages/journal.js";

export interface NativeLocks {
  /** True when taken; false when another open file holds a lock that conflicts (EAGAIN). */
  tryLock(fd: number, offset: number, length: number, options?: { shared?: boolean }): boolean;
  unlock(fd: number, offset: number, length: number): void;
}

const ADDON = "fs-native-extensions";
let loaded: NativeLocks | undefined;

/** The addon, or InstallError (exit 2) saying what cannot load and what to do. */
export function nativeLocks(): NativeLocks {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)(ADDON) as NativeLocks;
  } catch (cause) {
    throw cannotLoad(cause);
  }
  return loaded;
}

/** What the user is told when the addon cannot load; exported for its test. */
export function cannotLoad(cause: unknown): InstallError {
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const part = journalWords.lockPart(ADDON);

  const where = `Node ${process.version} (${process.platform}-${process.arch})`;
  if (code === "MODULE_NOT_FOUND" && typeof message === "string" && message.includes(`'${ADDON}'`)) {
    return new InstallError(journalWords.lockNotInstalled(part), { cause });
  }
  if (code === "ADDON_NOT_FOUND") {
    return new InstallError(journalWords.lockNoBinary(part, where), { cause });
  }
  // CANNOT_LOAD (require-addon): the binary is there but the system refuses it (another
  // platform's, damaged, a C library too old); its own reason follows.
  const reason = (cause as { cause?: unknown } | null)?.cause ?? cause;
  const why = reason instanceof Error ? reason.message.split("\n")[0] : String(reason);
  return new InstallError(journalWords.lockCannotLoad(part, where, String(why)), { cause });

}
