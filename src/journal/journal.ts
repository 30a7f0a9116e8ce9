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
import { FRESH_JOURNAL_SENDS_AGAIN, headerBaseUrl, serviceOfHeader } from "./identity.js";
import type { JournalIdentity } from "./identity.js";
import { GroupCommitWriter } from "./group-commit.js";
import type { AppendTarget } from "./group-commit.js";
import { acquireLock } from "./lock.js";
import type { JournalLock } from "./lock.js";
import { priorStateFold } from "./prior.js";
import type { PriorState } from "./prior.js";
import { describe, refuseNonRegularJournal, scanJournalFile } from "./read.js";
import { JOURNAL_FORMAT_VERSION, serializeRecord } from "./records.js";
import type { HeaderRecord, JournalOutcomeStatus, JournalRecord, RejectedNumber, StatusRecord } from "./records.js";

export type { EarlierRejection, EndedOrder, KnownStatus, PriorState } from "./prior.js";
export type { AppendTarget } from "./group-commit.js";
export type { JournalOutcomeStatus, RejectedNumber } from "./records.js";
export type { JournalIdentity } from "./identity.js";

export interface JournalOutcome {
  readonly status: JournalOutcomeStatus;
  readonly ticket?: string;
  readonly httpStatus?: number | null;
  readonly message?: string;
  /** With status `rejected`: the numbers the rejection stands for (records.ts). */
  readonly rejected?: readonly RejectedNumber[];
}

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
   * placed outside this journal (records.ts). Resolves once on disk.
   */
  confirmed(number: string, ticket: string, status: string, outside?: boolean): Promise<void>;
  /** Records that an order ended without porting, as `status` learned it; resolves once on disk. */
  ended(order: EndedEntry): Promise<void>;
  /** Records what one status check learned of one order (records.ts `status`); resolves once on disk. */
  status(order: StatusEntry): Promise<void>;
  /** Waits for every record, closes the file and releases the lock. */
  close(): Promise<void>;
}

/** What `status` records of an order that ended (records.ts `ended`). */
export interface EndedEntry {
  readonly ticket: string;
  readonly status: string;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** Each number of the order the journal holds, with its row's fingerprint as sent, or "". */
  readonly numbers: readonly { readonly number: string; readonly fingerprint: string }[];
}

/** What one status check learned of one order (records.ts `status`). */
export interface StatusEntry {
  readonly ticket: string;
  readonly status: string;
  /** PortDate as the service gave it; "" or null when none. */
  readonly portDate: string | null;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** The order's numbers, 10 digits each. */
  readonly numbers: readonly string[];
  /** When the answer came (UTC ISO); now when absent. */
  readonly at?: string;
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
  return {
    prior,
    intent(requestId, operation, numbers, fingerprints) {
      const bad = numbers.find((number) => !/^\d{10}$/.test(number));
      if (requestId === "" || bad !== undefined || (fingerprints !== undefined && fingerprints.length !== numbers.length)) {
        return Promise.reject(new TypeError(`journal intent needs a request id, 10-digit numbers and one fingerprint each, got '${requestId}' and '${bad ?? ""}'`));
      }
      return writer.append(
        serializeRecord({
          type: "intent",
          requestId,
          operation,
          numbers: [...numbers],
          ...(fingerprints === undefined ? {} : { fingerprints: [...fingerprints] }),
          at: new Date().toISOString(),
        }),
      );
    },
    outcome(requestId, outcome) {
      return writer.append(
        serializeRecord({
          type: "outcome",
          requestId,
          status: outcome.status,
          ticket: outcome.ticket ?? null,
          httpStatus: outcome.httpStatus ?? null,
          message: outcome.message ?? null,
          ...(outcome.rejected === undefined ? {} : { rejected: [...outcome.rejected] }),
          at: new Date().toISOString(),
        }),
      );
    },
    confirmed(number, ticket, status, outside) {
      if (!/^\d{10}$/.test(number)) return Promise.reject(new TypeError(`journal confirmation needs a 10-digit number, got '${number}'`));
      return writer.append(serializeRecord({ type: "confirmed", number, ticket, status, ...(outside === true ? { outside } : {}), at: new Date().toISOString() }));
    },
    ended(order) {
      const bad = order.numbers.find((entry) => !/^\d{10}$/.test(entry.number));
      if (order.ticket === "" || bad !== undefined) return Promise.reject(new TypeError(`journal 'ended' needs a ticket and 10-digit numbers, got '${order.ticket}'`));
      const numbers = order.numbers.map(({ number, fingerprint }) => ({ number, fingerprint }));
      const { ticket, status, reason, summary, details } = order;
      return writer.append(serializeRecord({ type: "ended", ticket, status, reason, summary, details, numbers, at: new Date().toISOString() }));
    },
    status(order) {
      const bad = order.numbers.find((number) => !/^\d{10}$/.test(number));
      if (order.ticket === "" || bad !== undefined) return Promise.reject(new TypeError(`journal 'status' needs a ticket and 10-digit numbers, got '${order.ticket}'`));
      const { ticket, status, reason, summary, details } = order;
      const portDate = order.portDate === null || order.portDate === "" ? null : order.portDate;
      const record: StatusRecord = { type: "status", ticket, status, portDate, reason, summary, details, numbers: [...order.numbers], at: order.at ?? new Date().toISOString() };
      onStatusReading?.(record);
      return writer.append(serializeRecord(record));
    },
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
      `state file ${path} was written for ${serviceLabel(written)} as user '${header.user}', but this run is for ${serviceLabel(identity.service)} as user '${identity.user}': ` +
        `run against the service the journal was written for${rerunHint(written, header.user)} (${FRESH_JOURNAL_SENDS_AGAIN})`,
    );
  }
}

/** How to name the journal's own service on the command line. */
function rerunHint(service: Service, user: string): string {
  if (service.kind === "sandbox") return " (leave out --base-url and PORTIN_BASE_URL)";
  return ` (--base-url ${service.baseUrl} --user ${user})`;
}

async function cutTornTail(path: string, soundLength: number): Promise<void> {
  try {
    await truncate(path, soundLength);
  } catch (cause) {
    throw new OutputError(`cannot repair state file ${path} after a crash (${describe(cause)}); check its permissions`, { cause });
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
    throw new OutputError(`cannot open state file ${path} for writing (${describe(cause)}); check its permissions and run again`, {
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
