/**
 * The files a command writes: results, reports, letters, templates (OutputError, exit 2, or a
 * row's outcome when only the results are lost: docs/contract.md §4, §7). Each entry's comment
 * says what it means, then, after "Next:", what the user does about it.
 */

/** `template` never writes over a file. Next: give --output another path, or delete the file. */
export const templateExists = (path: string): string => `${path} already exists: give --output another path, or delete it first`;

/** A file could not be written; the reason is the system's, in words. Next: what the reason says (space, permissions). */
export const cannotWrite = (path: string, reason: string): string => `cannot write ${path}: ${reason}`;
