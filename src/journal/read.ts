/**
 * Reads a journal back, telling a crash's torn tail (tolerated) from an edited file (refused).
 */
import { open, readFile } from "node:fs/promises";
import { StateError } from "../errors.js";
import type { Service } from "../service/service.js";
import { FRESH_JOURNAL_SENDS_AGAIN, serviceOfHeader } from "./identity.js";
import { parseRecord } from "./records.js";
import type { HeaderRecord, JournalRecord, StatusRecord } from "./records.js";

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

/** The journal's `status` records alone, in file order: its intents hold every number sent, which a caller wanting readings need not hold. */
export async function readStatusReadings(path: string): Promise<StatusRecord[]> {
  const readings: StatusRecord[] = [];
  await scanJournalFile(path, (record) => {
    if (record.type === "status") readings.push(record);
  });
  return readings;
}

/**
 * Hands each record after the header to `take`, in file order, as it is parsed, holding none:
 * a million numbers' records are most of a re-run's memory when held (docs/architecture.md,
 * Memory). A file refused part-way (an edited line, a second header) throws after `take` has
 * seen the records before it: what the caller built from them goes with the error.
 */
export async function scanJournalFile(path: string, take: (record: JournalRecord) => void): Promise<JournalScan> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return { header: null, soundLength: 0, length: 0 };
    throw new StateError(`cannot read state file ${path} (${describe(cause)}); check its permissions and run again`, { cause });
  }

  let header: HeaderRecord | null = null;
  let soundLength = 0;
  let start = 0;
  for (let lineNumber = 1; start < bytes.length; lineNumber++) {
    const newline = bytes.indexOf(NEWLINE, start);
    // A record is always written with its newline in one write, so a line without one was
    // never confirmed durable: its promise never resolved and nothing was sent on it.
    if (newline === -1) break;
    const next = newline + 1;
    const text = bytes.toString("utf8", start, newline);
    const isLast = next >= bytes.length;
    if (text.trim() === "") {
      soundLength = next;
      start = next;
      continue;
    }
    const record = parseRecord(text);
    if (record === null) {
      if (isLast) break;
      throw new StateError(
        `state file ${path} line ${lineNumber} is not a journal record; the file may have been edited; ` +
          "move it aside to start afresh, but then numbers submitted earlier would be sent again",
      );
    }
    if (header === null) {
      if (record.type !== "header") {
        throw new StateError(`state file ${path} does not start with a portin journal header, so it is not a portin state file: point --state at this sheet's journal (${FRESH_JOURNAL_SENDS_AGAIN})`);
      }
      header = record;
    } else if (record.type === "header") {
      throw new StateError(
        `state file ${path} holds a second header; two journals may have been joined: move it aside to start afresh, ` +
          "but then numbers submitted earlier would be sent again",
      );
    } else {
      take(record);
    }
    soundLength = next;
    start = next;
  }

  if (header === null) {
    // Cutting a torn header away is safe; cutting away a file someone mistook for a state file is not.
    if (!couldBeTornHeader(bytes.toString("utf8", soundLength))) {
      throw new StateError(`state file ${path} is not a portin journal: point --state at this sheet's journal (${FRESH_JOURNAL_SENDS_AGAIN})`);
    }
    return { header: null, soundLength: 0, length: bytes.length };
  }
  return { header, soundLength, length: bytes.length };
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
