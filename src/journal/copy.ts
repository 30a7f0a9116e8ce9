/**
 * `portin journal copy FROM TO` (docs/shared-journal.md): a journal moved between a file and a
 * database, either way, its records copied verbatim (a record kind this portin does not know
 * included, and a human's note in one), never over a journal that holds anything.
 */
import { constants } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { StateError } from "../errors.js";
import * as journalWords from "../messages/journal.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { describeSystemError } from "../system-error.js";
import { journalLabel } from "./place.js";
import type { JournalPlace, PostgresPlace } from "./place.js";
import { parseRecord } from "./records.js";
import { scanJournalFile } from "./read.js";
import { serviceOfHeader, headerBaseUrl } from "./identity.js";
import type { JournalKey } from "./postgres.js";

export interface CopyReport {
  /** Records copied, the header included. */
  readonly records: number;
  /** Whose journal it is. */
  readonly key: JournalKey;
}

const postgres = () => import("./postgres.js");

/** Copies the journal at `from` to `to`; StateError (exit 2) for an empty source or a destination that holds a journal. */
export async function copyJournal(from: JournalPlace, to: JournalPlace, version: string): Promise<CopyReport> {
  const { lines, key } = typeof from === "string" ? await fileLines(from) : await databaseLines(from, version);
  if (typeof to === "string") await writeFileLines(to, lines);
  else await (await postgres()).writePostgresLines(to, version, key, lines);
  return { records: lines.length, key };
}

/** The file's records, verbatim, as a run would read them: a torn tail left out, an edited file refused (read.ts). */
async function fileLines(path: string): Promise<{ lines: string[]; key: JournalKey }> {
  const scan = await scanJournalFile(path, () => undefined);
  if (scan.header === null) throw new StateError(journalWords.nothingToCopy(path));
  const text = (await readFile(path)).subarray(0, scan.soundLength).toString("utf8");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  // Keyed as a run for the header's service and user would key it (postgres.ts keyOf).
  return { lines, key: { baseUrl: headerBaseUrl(serviceOfHeader(scan.header.baseUrl)), user: scan.header.user } };
}

async function databaseLines(place: PostgresPlace, version: string): Promise<{ lines: string[]; key: JournalKey }> {
  const pg = await postgres();
  const key = await pg.onlyJournalIn(place, version);
  if (key === null) throw new StateError(journalWords.nothingToCopy(place.label));
  const lines = await pg.readPostgresLines(place, version, key);
  // Read back as a run reads it: a row that is not a record would be refused there, so it is here.
  const bad = lines.findIndex((line) => parseRecord(line) === null);
  if (bad !== -1) throw new StateError(journalWords.editedDatabaseJournal(place.label, "record", bad + 1));
  return { lines, key };
}

/** Written whole and made durable, into a file that is new or empty: an existing journal is never written over. */
async function writeFileLines(path: string, lines: readonly string[]): Promise<void> {
  const size = await stat(path).then(
    (found) => found.size,
    () => 0,
  );
  if (size > 0) throw new StateError(journalWords.copyTargetFileNotEmpty(journalLabel(path), size.toLocaleString("en-US")));
  let handle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, PRIVATE_FILE_MODE);
    await handle.writeFile(lines.map((line) => `${line}\n`).join(""), "utf8");
    await handle.sync();
  } catch (cause) {
    throw new StateError(journalWords.cannotWriteCopy(path, describeSystemError(cause)), { cause });
  } finally {
    await handle?.close();
  }
}
