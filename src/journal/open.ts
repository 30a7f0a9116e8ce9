/**
 * A run journal wherever it lives (place.ts): a file, or a database a team shares. The rest of
 * portin opens and reads journals only through here; the database's module and its client are
 * loaded only for a database (docs/contract.md §8, "Start-up").
 */
import { existsSync } from "node:fs";
import type { JournalIdentity } from "./identity.js";
import { lockHolder } from "./lock.js";
import type { LockOwner } from "./lock.js";
import { openJournal, readJournal } from "./journal.js";
import type { Journal, JournalOptions } from "./journal.js";
import type { JournalPlace } from "./place.js";
import type { PriorState } from "./prior.js";
import { readJournalFile, scanJournalFile } from "./read.js";
import type { HeaderRecord, JournalRecord } from "./records.js";

const postgres = () => import("./postgres.js");

/** Locks the journal, reads it, and opens it for appending (journal.ts openJournal). */
export async function openJournalAt(place: JournalPlace, identity: JournalIdentity, options: JournalOptions = {}): Promise<Journal> {
  if (typeof place === "string") return openJournal(place, identity, options);
  return (await postgres()).openPostgresJournal(place, identity, options);
}

/** What earlier runs recorded, locking and writing nothing: for `plan`. */
export async function readJournalAt(place: JournalPlace, identity: JournalIdentity): Promise<PriorState> {
  if (typeof place === "string") return readJournal(place, identity);
  return (await postgres()).readPostgresJournal(place, identity);
}

/** Whether there is a journal to open: a file that exists, or a database holding this identity's journal. */
export async function journalExists(place: JournalPlace, identity: JournalIdentity): Promise<boolean> {
  if (typeof place === "string") return existsSync(place);
  return (await postgres()).postgresJournalExists(place, identity);
}

/**
 * The header (null when there is no journal yet) and every record after it: for `report`, which
 * names no service, so a database's one journal is read (postgres.ts onlyJournalIn).
 */
export async function readJournalRecordsAt(place: JournalPlace, version: string): Promise<{ header: HeaderRecord | null; records: readonly JournalRecord[] }> {
  if (typeof place === "string") return readJournalFile(place);
  const pg = await postgres();
  const key = await pg.onlyJournalIn(place, version);
  if (key === null) return { header: null, records: [] };
  return pg.readPostgresRecords(place, key, version);
}

/**
 * Each record of the journal handed to `take` as it is read, holding none (a report of a
 * million-row migration; docs/architecture.md, Memory); its header, null when there is none.
 */
export async function scanJournalAt(place: JournalPlace, version: string, take: (record: JournalRecord) => void): Promise<{ header: HeaderRecord | null }> {
  if (typeof place === "string") return scanJournalFile(place, take);
  const read = await readJournalRecordsAt(place, version);
  for (const record of read.records) take(record);
  return { header: read.header };
}

/** A run holding a journal's lock, as `plan` finds it: who (null while it has not named itself), and the journal's records. */
export interface HeldJournal {
  readonly owner: LockOwner | null;
  readonly records: () => Promise<readonly JournalRecord[]>;
}

/** Whether a run holds the journal now, looked at without blocking it (lock.ts lockHolder); null when none does. */
export async function journalHolder(place: JournalPlace, identity: JournalIdentity): Promise<HeldJournal | null> {
  if (typeof place === "string") {
    const holder = lockHolder(place);
    return holder === null ? null : { owner: holder.owner, records: async () => (await readJournalFile(place)).records };
  }
  const pg = await postgres();
  const holder = await pg.postgresHolder(place, identity);
  return holder === null ? null : { owner: holder.owner, records: async () => (await pg.readPostgresRecords(place, pg.keyOf(identity), identity.version)).records };
}
