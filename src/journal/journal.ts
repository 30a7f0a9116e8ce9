/**
 * The run journal (docs/contract.md §5): what was about to be sent (intent) and what became of it
 * (outcome), durable before a request leaves and after its answer, so a re-run never sends
 * a submitted number again and knows which outcomes it never learned.
 */
import { randomUUID } from "node:crypto";
import { open, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { OutputError, StateError } from "../errors.js";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { sameService, serviceLabel } from "../service/service.js";
import type { Service } from "../service/service.js";
import { headerBaseUrl, serviceOfHeader } from "./identity.js";
import type { JournalIdentity } from "./identity.js";
import { GroupCommitWriter } from "./group-commit.js";
import type { AppendTarget } from "./group-commit.js";
import { acquireLock } from "./lock.js";
import type { JournalLock } from "./lock.js";
import { priorStateFold } from "./prior.js";
import type { PriorState } from "./prior.js";
import { describe, refuseNonRegularJournal, scanJournalFile } from "./read.js";
import { JOURNAL_FORMAT_VERSION, serializeRecord } from "./records.js";
import * as entries from "./entries.js";
import * as journalWords from "../messages/journal.js";
import type { E911OutcomeStatus, HeaderRecord, JournalRecord, StatusRecord } from "./records.js";

export type { EarlierRejection, EndedOrder, KnownStatus, PriorState } from "./prior.js";
export type { AppendTarget } from "./group-commit.js";
export type { E911OutcomeStatus, JournalOutcomeStatus, RejectedNumber } from "./records.js";
export type { JournalIdentity } from "./identity.js";
export type { EndedEntry, JournalOutcome, StatusEntry } from "./entries.js";
import type { EndedEntry, JournalOutcome, StatusEntry } from "./entries.js";

export interface Journal {
  /** What earlier runs on this file recorded, as it stood when this run opened it. */
  readonly prior: PriorState;
  /**
   * Resolves once the intent is on disk; send the request only after that. `fingerprints`,
   * one per number, are the rows as sent (records.ts).
   */
  intent(requestId: string, operation: string, numbers: readonly string[], fingerprints?: readonly string[]): Promise<void>;
  /** Resolves once the outcome is on disk. */
  outcome(requestId: string, outcome: JournalOutcome): Promise<void>;
  /**
   * Records that PortInStatus showed `number` under `ticket`; `outside` when the order was
   * placed outside this journal, and `refused` too when the service refused this journal's
   * request for the number because that order held it (records.ts). Resolves once on disk.
   */
  confirmed(number: string, ticket: string, status: string, outside?: boolean, refused?: boolean): Promise<void>;
  /** Records that an order ended without porting, as `status` learned it; resolves once on disk. */
  ended(order: EndedEntry): Promise<void>;
  /** Records what one status check learned of one order (records.ts `status`); resolves once on disk. */
  status(order: StatusEntry): Promise<void>;
  /** A 9-1-1 registration about to be sent (records.ts `e911-intent`); resolves once on disk: send it only after that. */
  e911Intent(number: string, method: "POST" | "PUT", address: string): Promise<void>;
  /** What became of a 9-1-1 registration, or what the service showed of an unsure one; resolves once on disk. */
  e911Outcome(number: string, status: E911OutcomeStatus, address: string, message?: string): Promise<void>;
  /** What `status` found of a completed trunk number: on its trunk, with a 9-1-1 record (records.ts `trunk-check`); resolves once on disk. */
  trunkCheck(number: string, onTrunk: boolean, e911: boolean): Promise<void>;
  /** Waits for every record, closes the file and releases the lock. */
  close(): Promise<void>;
}

export interface JournalOptions {
  /** Opens the file for appending; tests pass one that counts fsyncs or fails like a full disk. */
  readonly openAppend?: (path: string) => Promise<AppendTarget>;
  /** False for `portin status`, which sends nothing: a `run` record marks a run of `submit`. */
  readonly runRecord?: boolean;
  /**
   * Given each `status` record, in the file's order: those read as the journal opens, then those
   * appended. `status` folds them into what changed since the last check (journal/history.ts)
   * as they pass, rather than reading the whole journal a second time at its end.
   */
  readonly onStatusReading?: (reading: StatusRecord) => void;
}

/**
 * Locks `path`, reads what earlier runs recorded (cutting away a tail torn by a crash), checks
 * it was written for this base URL and user, and opens it for appending.
 * Throws StateError (exit 2) for a held lock, a foreign or edited journal; OutputError when it cannot be written.
 */
export async function openJournal(path: string, identity: JournalIdentity, options: JournalOptions = {}): Promise<Journal> {
  await refuseNonRegularJournal(path);
  const lock = await acquireLock(path);
  try {
    const fold = priorStateFold();
    const reading = options.onStatusReading;
    const contents = await scanJournalFile(
      path,
      reading === undefined
        ? fold.take
        : (record) => {
            fold.take(record);
            if (record.type === "status") reading(record);
          },
    );
    if (contents.header !== null) checkHeader(path, contents.header, identity);
    if (contents.soundLength < contents.length) await cutTornTail(path, contents.soundLength);

    const target = await (options.openAppend ?? openAppendFile)(path);
    const writer = new GroupCommitWriter(target, path);
    const now = new Date().toISOString();
    const opening: JournalRecord[] = [];
    if (contents.header === null) {
      opening.push({
        type: "header",
        version: JOURNAL_FORMAT_VERSION,
        tool: `portin/${identity.version}`,
        baseUrl: headerBaseUrl(identity.service),
        user: identity.user,
        createdAt: now,
      });
    }
    if (options.runRecord !== false) opening.push({ type: "run", pid: process.pid, startedAt: now });
    try {
      await Promise.all(opening.map((record) => writer.append(serializeRecord(record))));
      if (contents.header === null) await syncDirectory(dirname(path));
    } catch (error) {
      await writer.close();
      throw error;
    }
    return createJournal(writer, lock, fold.state(), reading);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * What earlier runs recorded, without locking or repairing anything: for `plan`, which must
 * neither block nor be blocked by a real run. A missing file is an empty history; a torn tail
 * is ignored, as openJournal would ignore it. Throws StateError like openJournal.
 */
export async function readJournal(path: string, identity: JournalIdentity): Promise<PriorState> {
  const fold = priorStateFold();
  const contents = await scanJournalFile(path, fold.take);
  if (contents.header !== null) checkHeader(path, contents.header, identity);
  return fold.state();
}

/**
 * Unique across runs and processes: sortable by time, then 48 random bits. They are the last
 * 12 hex digits of a v4 UUID, all random: randomUUID draws from a pool Node fills 128 UUIDs
 * at a time, where randomBytes(6) asked OpenSSL once per request (3% of dispatch's CPU at
 * concurrency 64, `npm run bench`).
 */
export function newRequestId(): string {
  return `${Date.now().toString(36)}-${randomUUID().slice(-12)}`;
}

function createJournal(writer: GroupCommitWriter, lock: JournalLock, prior: PriorState, onStatusReading: ((reading: StatusRecord) => void) | undefined): Journal {
  let closing: Promise<void> | null = null;
  // A record the caller got wrong is a rejected promise, as an append that failed is.
  const append = async (build: () => JournalRecord): Promise<void> => writer.append(serializeRecord(build()));
  return {
    prior,
    intent: (requestId, operation, numbers, fingerprints) => append(() => entries.intentRecord(requestId, operation, numbers, fingerprints)),
    outcome: (requestId, outcome) => append(() => entries.outcomeRecord(requestId, outcome)),
    confirmed: (number, ticket, status, outside, refused) => append(() => entries.confirmedRecord(number, ticket, status, outside, refused)),
    ended: (order) => append(() => entries.endedRecord(order)),
    status: (order) =>
      append(() => {
        const record = entries.statusRecord(order);
        onStatusReading?.(record);
        return record;
      }),
    e911Intent: (number, method, address) => append(() => entries.e911IntentRecord(number, method, address)),
    e911Outcome: (number, status, address, message) => append(() => entries.e911OutcomeRecord(number, status, address, message)),
    trunkCheck: (number, onTrunk, e911) => append(() => entries.trunkCheckRecord(number, onTrunk, e911)),
    close() {
      closing ??= writer.close().finally(() => lock.release());
      return closing;
    },
  };
}

function checkHeader(path: string, header: HeaderRecord, identity: JournalIdentity): void {
  // A newer format was refused as the file was read (read.ts), for every command alike.
  const written = serviceOfHeader(header.baseUrl);
  if (!sameService(written, identity.service) || header.user !== identity.user) {
    throw new StateError(
      journalWords.journalOfAnotherService(path, serviceLabel(written), header.user, serviceLabel(identity.service), identity.user, rerunHint(written, header.user)),
    );
  }
}

/** How to name the journal's own service on the command line. */
function rerunHint(service: Service, user: string): string {
  if (service.kind === "sandbox") return journalWords.SANDBOX_RERUN_HINT;
  return journalWords.serviceRerunHint(service.baseUrl, user);
}

async function cutTornTail(path: string, soundLength: number): Promise<void> {
  try {
    await truncate(path, soundLength);
  } catch (cause) {
    throw new OutputError(journalWords.cannotRepair(path, describe(cause)), { cause });
  }
}

async function openAppendFile(path: string): Promise<AppendTarget> {
  let handle;
  try {
    handle = await open(path, "a", PRIVATE_FILE_MODE);
    // An existing journal (or one created under an odd umask) becomes private too (docs/contract.md §7);
    // one of another owner's cannot be changed, and is used as it is.
    await handle.chmod(PRIVATE_FILE_MODE).catch(() => undefined);
  } catch (cause) {
    await handle?.close();
    throw new OutputError(journalWords.cannotOpenForWriting(path, describe(cause)), {

      cause,
    });
  }
  return {
    // writeFile loops until every byte is written; with 'a' each write lands at the end.
    write: (data) => handle.writeFile(data, "utf8"),
    // fdatasync also flushes the file size, which is all a reader needs to see the new lines.
    sync: () => handle.datasync(),
    close: () => handle.close(),
  };
}

/** A new file's directory entry must be durable too, or a crash can lose the whole journal. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the file's own fsync is the best they offer.
  }
}
