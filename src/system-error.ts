import { tmpdir } from "node:os";
import { sep } from "node:path";
import { SYSTEM_ERROR_REASONS, temporaryFileTrouble as temporaryFileTroubleWords } from "./messages/output.js";


/**
 * One plain-words reason for a file system error, shared by everything that reads or writes
 * a user's files, so the same cause reads the same everywhere.
 */
const REASONS: Readonly<Record<string, string>> = SYSTEM_ERROR_REASONS;

/** "no such file", "permission denied", …; `missing` rewords ENOENT (a results path lacks its directory). */
export function describeSystemError(error: unknown, missing = REASONS["ENOENT"]): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT" && missing !== undefined) return missing;
  if (typeof code === "string" && REASONS[code] !== undefined) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether a failure is the temporary directory's, not the file being read: a path under TMPDIR,
 * or a disk or quota that is full (reading writes nowhere else).
 */
export function isTemporaryFileTrouble(error: unknown): boolean {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  const dir = tmpdir();
  return typeof code === "string" && typeof path === "string" && (path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep));
}

/** "cannot keep <what> in a temporary file under /tmp: no space left on device (set TMPDIR …)". */
export function temporaryFileTrouble(what: string, error: unknown): string {
  return temporaryFileTroubleWords(what, tmpdir(), describeSystemError(error));
}
