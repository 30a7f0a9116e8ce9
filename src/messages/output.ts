/**
 * The files a command writes: results, reports, letters, templates (OutputError, exit 2, or a
 * row's outcome when only the results are lost: docs/contract.md §4, §7). Each entry's comment
 * says what it means, then, after "Next:", what the user does about it.
 */

/** `template` never writes over a file. Next: give --output another path, or delete the file. */
export const templateExists = (path: string): string => `${path} already exists: give --output another path, or delete it first`;

/** A file could not be written; the reason is the system's, in words. Next: what the reason says (space, permissions). */
export const cannotWrite = (path: string, reason: string): string => `cannot write ${path}: ${reason}`;

/** What an output path holds, as outputError names it. Next: (part of cannotWriteTo). */
export const outputNoun = (option: string): string =>
  option === "--output DIR" ? "a letter of authorization" : option === "--output PATH" ? "the report" : option === "--calendar PATH" ? "the calendar" : option === "--output" ? "the status report" : "results";

/** The path given for the results, report or letters is a directory. Next: give a file path with the option named. */
export const isADirectory = (noun: string, path: string, hint: string): string => `cannot write ${noun} to ${path}: it is a directory${hint}`;

/** The destination exists and is not a regular file (a device, a FIFO, a socket): refused before anything is written (docs/contract.md §7). Next: give a file path with the option named. */
export const notARegularFile = (noun: string, path: string, kind: string, hint: string): string =>
  `cannot write ${noun} to ${path}: it is ${kind}, not a regular file; portin writes only files of its own${hint}`;

/** The results, report or letters could not be written (docs/contract.md §4: a stopped run still says what it sent). Next: what the reason says, or another path. */
export const cannotWriteTo = (noun: string, label: string, reason: string, next: string, left: string): string => `cannot write ${noun} to ${label}: ${reason}${next}${left}`;

/** How to name another path, within cannotWriteTo. Next: (part of cannotWriteTo). */
export const useOption = (option: string): string => (option.includes(" ") ? ` (use ${option})` : ` (use ${option} PATH)`);

/** A temporary file could not be removed after a failed write. Next: nothing; the next run removes it. */
export const temporaryLeftBehind = (temporary: string, reason: string): string => `; ${temporary} could not be removed either (${reason}): the next run removes it`;

/** An XLSX result would pass Excel's limits. Next: write CSV instead. */
export const CSV_INSTEAD = "write CSV instead with --results PATH.csv";

/** More result columns than an Excel worksheet holds. Next: write CSV instead. */
export const tooManyColumnsForXlsx = (path: string, columns: number, max: string, next: string): string =>
  `cannot write results to ${path}: ${columns} columns, more than an Excel worksheet holds (${max}); ${next}`;

/** More rows than an Excel worksheet holds. Next: write CSV instead. */
export const tooManyRowsForXlsx = (path: string, rows: string, max: string, next: string): string =>
  `cannot write results to ${path}: ${rows} rows and a header, more than an Excel worksheet holds (${max}); ${next}`;

/** The results could not be written, for a reason past the writer's own. Next: what the reason says, or another --results path. */
export const cannotWriteResults = (path: string, reason: string): string => `cannot write results to ${path}: ${reason} (use --results PATH)`;

/** The letters' folder cannot be made. Next: what the reason says, or another --output folder. */
export const cannotMakeLettersFolder = (path: string, reason: string): string => `cannot make the folder ${path} for the letters: ${reason} (use --output DIR)`;

/** The sheet changed while the run read it, so its cells are not copied into the results (docs/contract.md §3). Next: keep the sheet still during a run. */
export const sheetChangedDuringRun = (source: string): string => `portin: ${source} changed during the run: its cells are left out of the results\n`;

/** What a person can do about a number the service says is not portable (docs/contract.md §6): no edit of its row helps. Next: remove the row, or port it another way. */
export const NOT_PORTABLE_ADVICE = "remove the row, or port this number another way";

/**
 * One plain-words reason for each file system error, shared by everything that reads or writes a
 * user's files, so the same cause reads the same everywhere. Next: what the reason implies (free
 * space, fix permissions, give another path).
 */
export const SYSTEM_ERROR_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EPIPE: "the reader closed the pipe",
};

/** A temporary file (the spool of a sheet's cells) could not be written. Next: set TMPDIR to a writable directory with room. */
export const temporaryFileTrouble = (what: string, dir: string, reason: string): string =>
  `cannot keep ${what} in a temporary file under ${dir}: ${reason} (set TMPDIR to a writable directory with room)`;
