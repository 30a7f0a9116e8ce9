/**
 * Reads a journal back, telling a crash's torn tail (tolerated) from an edited file (refused).
 */
import { open, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { StateError } from "../errors.js";
import type { Service } from "../service/service.js";
import { serviceOfHeader } from "./identity.js";
import { JOURNAL_FORMAT_VERSION, parseRecord, unknownKindOf } from "./records.js";
import { VERSION } from "../version.js";
import { nonRegularKind } from "../file-kind.js";
import type { HeaderRecord, JournalRecord } from "./records.js";
import * as journalWords from "../messages/journal.js";

/** What scanJournalFile learned of a journal, besides the records it handed on. */
export interface JournalScan {
  /** null when the file is new, empty, or held only a torn header. */
  readonly header: HeaderRecord | null;
  /** Bytes of the file that hold whole records: a torn tail starts here and is cut away before appending. */
  readonly soundLength: number;
  /** The file's length as read; larger than soundLength when the tail is torn. */
  readonly length: number;
}

export interface JournalContents extends JournalScan {
  /** Every record after the header, in file order. */
  readonly records: readonly JournalRecord[];
}

const NEWLINE = 0x0a;

/** Every record after the header, in file order: for readers that need them all at once (`report`). */
export async function readJournalFile(path: string): Promise<JournalContents> {
  const records: JournalRecord[] = [];
  const scan = await scanJournalFile(path, (record) => records.push(record));
  return { ...scan, records };
}

/**
 * Hands each record after the header to `take`, in file order, as it is parsed, holding none:
 * a million numbers' records are most of a re-run's memory when held (docs/architecture.md,
 * Memory). A file refused part-way (an edited line, a second header) throws after `take` has
 * seen the records before it: what the caller built from them goes with the error.
 */
export async function scanJournalFile(path: string, take: (record: JournalRecord) => void): Promise<JournalScan> {
  await refuseNonRegularJournal(path);
  let file: FileHandle;
  try {
    file = await open(path, "r");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return { header: null, soundLength: 0, length: 0 };
    throw unreadable(path, cause);
  }
  try {
    let header: HeaderRecord | null = null;
    let soundLength = 0;
    let length = 0;
    let lineNumber = 0;
    /** Bytes read and not yet split into lines: a line is never cut in two. */
    let pending = Buffer.alloc(0);
    /**
     * Slices read since pending without a line end, joined to it only once a line ends: a line
     * of many slices (an order of a million numbers) is copied once, not once a slice.
     */
    let unended: Buffer[] = [];
    /** The file offset of pending's first byte. */
    let offset = 0;
    /** The line number of a line that is not a record, when it ended the bytes read so far: torn if nothing follows it. */
    let notRecord: number | null = null;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null).catch((cause: unknown) => {
        throw unreadable(path, cause);
      });
      if (bytesRead === 0) break;
      if (notRecord !== null) throw edited(path, notRecord);
      length += bytesRead;
      const fresh = chunk.subarray(0, bytesRead);
      if (fresh.indexOf(NEWLINE) === -1) {
        unended.push(fresh);
        continue;
      }
      pending = pending.length === 0 && unended.length === 0 ? fresh : Buffer.concat([pending, ...unended, fresh]);
      unended = [];
      let start = 0;
      for (let newline = pending.indexOf(NEWLINE); newline !== -1; newline = pending.indexOf(NEWLINE, start)) {
        lineNumber++;
        const next = newline + 1;
        const text = pending.toString("utf8", start, newline);
        start = next;
        if (text.trim() === "") {
          soundLength = offset + next;
          continue;
        }
        const record = parseRecord(text);
        if (record === null) {
          const kind = unknownKindOf(text);
          if (kind !== null) throw newerJournal(path, journalWords.recordOfUnknownKind(lineNumber, JSON.stringify(kind), VERSION));
          // Only a crash's last line may be torn: anything after it means the file was edited.
          if (next < pending.length) throw edited(path, lineNumber);
          notRecord = lineNumber;
          break;
        }
        if (header === null) {
          if (record.type !== "header") {
            throw new StateError(journalWords.noJournalHeader(path));
          }
          if (record.version > JOURNAL_FORMAT_VERSION) {
            throw newerJournal(path, journalWords.writtenInNewerFormat(record.tool, record.version, VERSION));
          }
          header = record;
        } else if (record.type === "header") {
          throw new StateError(journalWords.secondHeader(path));
        } else {
          take(record);
        }
        soundLength = offset + next;
      }
      offset += start;
      pending = pending.subarray(start);
    }

    if (header === null) {
      // Cutting a torn header away is safe; cutting away a file someone mistook for a state file is not.
      const tail = Buffer.alloc(length - soundLength);
      await file.read(tail, 0, tail.length, soundLength);
      if (!couldBeTornHeader(tail.toString("utf8"))) {
        throw new StateError(journalWords.notAJournal(path));
      }
      return { header: null, soundLength: 0, length };
    }
    return { header, soundLength, length };
  } finally {
    await file.close();
  }
}

/** What the file is read in: a line is never cut, however long, and the file is never held whole. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * docs/contract.md §5: a journal is a regular file, or none yet. A FIFO as --state would hold
 * the open (and the run, past any signal) until something writes to it; a device or a folder
 * is no journal. Every command's journal is read here first, and `submit` and `status` ask
 * before they lock it.
 */
export async function refuseNonRegularJournal(path: string): Promise<void> {
  const stats = await stat(path).catch(() => null);
  const kind = stats === null ? null : nonRegularKind(stats);
  if (kind !== null) throw new StateError(journalWords.notARegularJournal(path, kind));
}

function unreadable(path: string, cause: unknown): StateError {
  return new StateError(journalWords.cannotReadStateFile(path, describe(cause)), { cause });
}

/**
 * docs/contract.md §5: a journal a newer portin wrote (a format past this one's, or a record of
 * a kind this one does not know) is refused by every command that reads it, here where every
 * command reads it: neither skipped as a torn line and cut away by `submit`, nor read in part
 * by `report`.
 */
function newerJournal(path: string, what: string): StateError {
  return new StateError(journalWords.newerJournal(path, what));
}

function edited(path: string, lineNumber: number): StateError {
  return new StateError(journalWords.editedJournal(path, lineNumber));

}

const HEADER_START = '{"type":"header"';

function couldBeTornHeader(text: string): boolean {
  // A crash can also leave the file's tail as NUL bytes (delayed allocation on some file systems).
  const trimmed = text.replace(/[\0\s]+/g, "");
  return trimmed === "" || HEADER_START.startsWith(trimmed) || trimmed.startsWith(HEADER_START);
}

export function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** A header line is a few hundred bytes; this bounds what is read of a file that is not a journal. */
const HEADER_READ_BYTES = 16 * 1024;

/**
 * The service a journal was written for, read from its header line alone; null when there is
 * no such file or it is not a journal. For notices, never for decisions: openJournal checks.
 */
export async function journalService(path: string): Promise<Service | null> {
  // A FIFO would hold the open until something writes to it: only a regular file is looked at.
  if ((await stat(path).catch(() => null))?.isFile() !== true) return null;
  const file = await open(path, "r").catch(() => null);
  if (file === null) return null;
  try {
    const buffer = Buffer.alloc(HEADER_READ_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEADER_READ_BYTES, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    const record = end === -1 ? null : parseRecord(buffer.toString("utf8", 0, end));
    return record?.type === "header" ? serviceOfHeader(record.baseUrl) : null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
