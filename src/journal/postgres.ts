/**
 * The run journal in a PostgreSQL database a team shares (docs/shared-journal.md,
 * docs/contract.md §5): the same records the file journal writes (records.ts), one row each,
 * read back in order by the same fold (prior.ts), for any number of runs on any number of
 * machines. What the file's kernel lock does for one machine, two things do here:
 *
 * - one sender per account and service: a session advisory lock on the journal's identity,
 *   held on the run's connection, which the server drops when that connection ends, however
 *   the run ended (no stale lock, nothing to delete);
 * - each number claimed before its request leaves: a row in `portin_claims`, unique per
 *   journal and number, written in the same transaction as the intent record, so two runs can
 *   never both have an intent for one number, whatever the timing.
 *
 * The `pg` client is loaded only here, and this module only when a journal is a database
 * (place.ts), so a run on a file journal never loads it.
 */
import { hostname } from "node:os";
import type { Client, ClientBase } from "pg";
import { OutputError, StateError } from "../errors.js";
import * as journalWords from "../messages/journal.js";
import { serviceKey } from "../service/base-url.js";
import { headerBaseUrl, serviceOfHeader } from "./identity.js";
import type { JournalIdentity } from "./identity.js";
import type { PostgresPlace } from "./place.js";
import { ensureSchema, LOCK_SPACE, readableSchema } from "./postgres-schema.js";
import { priorStateFold } from "./prior.js";
import type { PriorState } from "./prior.js";
import { JOURNAL_FORMAT_VERSION, parseRecord, serializeRecord } from "./records.js";
import type { HeaderRecord, JournalRecord, StatusRecord } from "./records.js";
import { describe } from "./read.js";
import * as entries from "./entries.js";
import type { EndedEntry, Journal, JournalOptions, JournalOutcome, StatusEntry } from "./journal.js";

/**
 * Like the file lock (lock.ts), a run finding the lock busy looks again a few times before it
 * refuses; longer than for a file, since a run that has just ended (or was killed) holds the lock
 * until the server has seen its connection close, which the kernel does not do for it at once.
 */
const BUSY_ATTEMPTS = 6;
const BUSY_PAUSE_MS = 100;
/** Tries after BUSY_ATTEMPTS whose look-up found the lock freed, or its holder not yet named (lockJournal). */
const UNSETTLED_RETRIES = 3;
/** Rows read at a time: a million-number journal is never held whole. */
const PAGE_ROWS = 5_000;

/** A journal's identity: its header's base URL and user. */
export interface JournalKey {
  readonly baseUrl: string;
  readonly user: string;
}

/**
 * What `portin_journals` keys a journal by, with its user: the service as identity.ts compares it
 * (docs/contract.md §5, "Identity"), so two spellings of one base URL reach one journal and one
 * lock, never two.
 */
function serviceKeyOf(key: JournalKey): string {
  const service = serviceOfHeader(key.baseUrl);
  return service.kind === "sandbox" ? key.baseUrl : serviceKey(service.baseUrl);
}

export function keyOf(identity: JournalIdentity): JournalKey {
  return { baseUrl: headerBaseUrl(identity.service), user: identity.user };
}

/** Connects to the database at `place`; StateError (exit 2) naming it, password masked, when it cannot. */
export async function connectTo(place: PostgresPlace): Promise<Client> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: place.url, application_name: `portin pid ${process.pid} on ${hostname()}` });
  // A connection that dies later fails the next query, which says so; the event must not crash the run.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (cause) {
    await client.end().catch(() => undefined);
    throw new StateError(journalWords.cannotReachDatabase(place.label, safeDescribe(cause, place)), { cause });
  }
  return client;
}

/** A driver's message, never with the URL's password in it. */
function safeDescribe(cause: unknown, place: PostgresPlace): string {
  const password = passwordOf(place.url);
  const text = describe(cause);
  return password === "" ? text : text.split(password).join("***");
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return "";
  }
}

/**
 * Takes the journal's lock, reads what earlier runs recorded, and opens it for appending, as
 * journal.ts openJournal does for a file. StateError (exit 2) when another run holds it.
 */
export async function openPostgresJournal(place: PostgresPlace, identity: JournalIdentity, options: JournalOptions = {}): Promise<Journal> {
  const client = await connectTo(place);
  try {
    await ensureSchema(client, place.label, identity.version);
    const journal = await journalId(client, keyOf(identity));
    await lockJournal(client, journal, place);
    const fold = priorStateFold();
    const reading = options.onStatusReading;
    const header = await scanRows(client, journal, place, identity.version, (record) => {
      fold.take(record);
      if (reading !== undefined && record.type === "status") reading(record);
    });
    const now = new Date().toISOString();
    const opening: JournalRecord[] = [];
    if (header === null) {
      opening.push({ type: "header", version: JOURNAL_FORMAT_VERSION, tool: `portin/${identity.version}`, baseUrl: headerBaseUrl(identity.service), user: identity.user, createdAt: now });
    }
    if (options.runRecord !== false) opening.push({ type: "run", pid: process.pid, startedAt: now });
    const writer = new PostgresWriter(client, journal, place);
    await Promise.all(opening.map((record) => writer.append(serializeRecord(record))));
    return createPostgresJournal(writer, fold.state(), reading);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** What earlier runs recorded, without locking or writing anything: for `plan`. */
export async function readPostgresJournal(place: PostgresPlace, identity: JournalIdentity): Promise<PriorState> {
  const fold = priorStateFold();
  await withReader(place, identity.version, keyOf(identity), (client, journal) => scanRows(client, journal, place, identity.version, fold.take));
  return fold.state();
}

/** The header and every record after it, in order: for `report`. A journal never written has no header. */
export async function readPostgresRecords(place: PostgresPlace, key: JournalKey, version: string): Promise<{ header: HeaderRecord | null; records: JournalRecord[] }> {
  const records: JournalRecord[] = [];
  const header = await withReader(place, version, key, (client, journal) => scanRows(client, journal, place, version, (record) => records.push(record)));
  return { header: header ?? null, records };
}

/** Whether the database holds a journal for `identity` with its header written: `status` opens only such a journal, as it opens only a file that exists. */
export async function postgresJournalExists(place: PostgresPlace, identity: JournalIdentity): Promise<boolean> {
  const found = await withReader(place, identity.version, keyOf(identity), async (client, journal) => {
    const result = await client.query("SELECT 1 FROM portin_records WHERE journal = $1 LIMIT 1", [journal]);
    return result.rowCount !== 0;
  });
  return found === true;
}

/** Runs `read` on the journal of `key` with a connection of its own; undefined when the database holds no such journal. */
async function withReader<T>(place: PostgresPlace, version: string, key: JournalKey, read: (client: Client, journal: string) => Promise<T>): Promise<T | undefined> {
  const client = await connectTo(place);
  try {
    if ((await readableSchema(client, place.label, version)) === 0) return undefined;
    const found = await client.query<{ id: string }>("SELECT id FROM portin_journals WHERE service_key = $1 AND username = $2", [serviceKeyOf(key), key.user]);
    const journal = found.rows[0]?.id;
    return journal === undefined ? undefined : await read(client, journal);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The id of the journal of `key`, made at its first use. */
export async function journalId(client: ClientBase, key: JournalKey): Promise<string> {
  const service = serviceKeyOf(key);
  await client.query("INSERT INTO portin_journals (service_key, username, base_url) VALUES ($1, $2, $3) ON CONFLICT (service_key, username) DO NOTHING", [service, key.user, key.baseUrl]);
  const found = await client.query<{ id: string }>("SELECT id FROM portin_journals WHERE service_key = $1 AND username = $2", [service, key.user]);
  const id = found.rows[0]?.id;
  if (id === undefined) throw new Error(`journal row for ${key.baseUrl} vanished`);
  return id;
}

/** The session advisory lock on the journal (docs/contract.md §5, "The lock"), or StateError naming the run holding it. */
async function lockJournal(client: ClientBase, journal: string, place: PostgresPlace): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // The holder names itself in the statement that takes the lock: a run refused an instant later finds its name.
    const taken = await client.query<{ taken: boolean }>(
      `WITH lock AS (SELECT pg_try_advisory_lock($1, $2::bigint::integer) AS taken),
       named AS (
         INSERT INTO portin_holders (journal, pid, hostname, started_at, backend_pid) SELECT $2, $3, $4, $5, pg_backend_pid() FROM lock WHERE taken
         ON CONFLICT (journal) DO UPDATE SET pid = EXCLUDED.pid, hostname = EXCLUDED.hostname, started_at = EXCLUDED.started_at, backend_pid = EXCLUDED.backend_pid
       )
       SELECT taken FROM lock`,
      [LOCK_SPACE, journal, process.pid, hostname(), new Date().toISOString()],
    );
    if (taken.rows[0]?.taken === true) return;
    if (attempt >= BUSY_ATTEMPTS) {
      const holder = await holderOf(client, journal);
      // A holder names itself in the statement that takes the lock, so one found nameless is an
      // instant from naming itself, and none found has just let go (the next try may take it):
      // look again a few times rather than name a run that is gone or not yet named.
      if (holder?.pid != null || attempt === BUSY_ATTEMPTS + UNSETTLED_RETRIES) throw refusal(holder, place);
    }
    await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
  }
}

interface Holder {
  readonly pid: number | null;
  readonly hostname: string | null;
  readonly started_at: string | null;
  readonly application_name: string | null;
  readonly client_addr: string | null;
}

/** The session holding the journal's lock now, with the holder's own row if it has named itself; undefined when none holds it. */
async function holderOf(client: ClientBase, journal: string): Promise<Holder | undefined> {
  // Advisory locks are per database, but pg_locks lists the whole server's: another database's journal may share this one's id.
  const held = await client.query<Holder>(
    `SELECT h.pid, h.hostname, h.started_at, a.application_name, a.client_addr::text AS client_addr
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       LEFT JOIN portin_holders h ON h.journal = $2 AND h.backend_pid = l.pid
      WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.classid = $1::oid AND l.objid = $2::bigint::oid AND l.granted
      LIMIT 1`,
    [LOCK_SPACE, journal],
  );
  return held.rows[0];
}

/** The refusal naming the run that holds the journal: by its own row, else by the server's view of its session. */
function refusal(row: Holder | undefined, place: PostgresPlace): StateError {
  const next = journalWords.WAIT_FOR_HOLDER;
  const journalNamed = journalWords.databaseJournal(place.label);
  if (row?.pid != null) {
    const where = row.hostname === hostname() ? "" : ` on host ${row.hostname}`;
    return new StateError(journalWords.heldByRun(row.pid, where, String(row.started_at), journalNamed, next));
  }
  const session = row?.application_name ? journalWords.holderSession(row.application_name, row.client_addr) : "";
  return new StateError(journalWords.heldByUnnamedRun(session, journalNamed, "", next));
}

/**
 * Hands each record after the header to `take`, in order; the header, or null for a journal
 * with no rows yet. StateError for a row that is not a record, as for an edited file.
 */
async function scanRows(client: ClientBase, journal: string, place: PostgresPlace, version: string, take: (record: JournalRecord) => void): Promise<HeaderRecord | null> {
  let header: HeaderRecord | null = null;
  let after = "0";
  for (;;) {
    const page = await client.query<{ seq: string; line: string }>("SELECT seq, line FROM portin_records WHERE journal = $1 AND seq > $2 ORDER BY seq LIMIT $3", [journal, after, PAGE_ROWS]);
    for (const { seq, line } of page.rows) {
      const record = parseRecord(line);
      if (record === null) throw new StateError(journalWords.editedDatabaseJournal(place.label, "row", seq));
      if (header === null) {
        if (record.type !== "header") throw new StateError(journalWords.rowBeforeHeader(place.label, seq));
        if (record.version > JOURNAL_FORMAT_VERSION) {
          throw new StateError(journalWords.newerJournalFormat(journalWords.databaseJournal(place.label), record.tool, record.version, version, false));
        }
        header = record;
      } else if (record.type === "header") {
        throw new StateError(journalWords.secondHeaderRow(place.label, seq));
      } else {
        take(record);
      }
    }
    if (page.rows.length < PAGE_ROWS) return header;
    after = page.rows.at(-1)?.seq ?? after;
  }
}

/** One write of a group: a record, and for an intent the claims that must succeed with it. */
interface Write {
  readonly line: string;
  readonly claim?: { readonly requestId: string; readonly numbers: readonly string[]; readonly replaces: readonly string[] };
  readonly release?: { readonly requestId: string; readonly numbers: readonly string[] };
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit, as group-commit.ts does for a file: the writes queued in one turn share one
 * transaction, each resolving once it is committed. An intent whose numbers cannot all be
 * claimed is rolled back alone (a savepoint) and rejected; the rest of its group commits.
 */
class PostgresWriter {
  #queue: Write[] = [];
  #flushing: Promise<void> | null = null;
  #failure: OutputError | null = null;
  #closed = false;

  constructor(
    readonly client: Client,
    readonly journal: string,
    readonly place: PostgresPlace,
  ) {}

  append(line: string, extra: Pick<Write, "claim" | "release"> = {}): Promise<void> {
    if (this.#failure !== null) {
      return Promise.reject(new OutputError(journalWords.failedEarlier(journalWords.databaseJournal(this.place.label), this.#failure.message), { cause: this.#failure }));
    }
    if (this.#closed) return Promise.reject(new Error(`journal ${this.place.label} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ line, ...extra, resolve, reject });
      this.#flushing ??= this.#flushLoop();
    });
  }

  /** Waits for every queued write, then lets go of the lock and the connection. Never throws. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#flushing;
    if (this.#failure === null) {
      await this.client.query("DELETE FROM portin_holders WHERE journal = $1 AND backend_pid = pg_backend_pid()", [this.journal]).catch(() => undefined);
    }
    // Ending the session drops its advisory lock.
    await this.client.end().catch(() => undefined);
  }

  async #flushLoop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      let refused: Map<Write, StateError>;
      try {
        refused = await this.#commit(group);
      } catch (cause) {
        await this.client.query("ROLLBACK").catch(() => undefined);
        this.#failure = new OutputError(
          journalWords.cannotWriteDatabase(this.place.label, safeDescribe(cause, this.place)),
          { cause },
        );
        for (const write of [...group, ...this.#queue]) write.reject(this.#failure);
        this.#queue = [];
        break;
      }
      for (const write of group) {
        const refusal = refused.get(write);
        if (refusal === undefined) write.resolve();
        else write.reject(refusal);
      }
    }
    this.#flushing = null;
  }

  /**
   * One transaction for the group; the intents refused for a number another run claimed, each
   * with why. A refusal is all but unheard of (the lock keeps other runs out), so the group is
   * written without a savepoint an intent: a refused intent rolls its group back, which is then
   * written again without it.
   */
  async #commit(group: readonly Write[]): Promise<Map<Write, StateError>> {
    const refused = new Map<Write, StateError>();
    let left = group;
    while (left.length > 0) {
      const refusal = await this.#tryCommit(left);
      if (refusal === null) break;
      refused.set(refusal.write, refusal.error);
      left = left.filter((write) => write !== refusal.write);
    }
    return refused;
  }

  /** Commits every write of `group` in order, or rolls them all back and names the first intent refused. */
  async #tryCommit(group: readonly Write[]): Promise<{ write: Write; error: StateError } | null> {
    const { client, journal } = this;
    let lines: string[] = [];
    // Records in a row share one INSERT, in their order: one round trip, not one a record.
    const insertLines = async (): Promise<void> => {
      if (lines.length === 0) return;
      await client.query("INSERT INTO portin_records (journal, line) SELECT $1, line FROM unnest($2::text[]) WITH ORDINALITY AS t (line, n) ORDER BY n", [journal, lines]);
      lines = [];
    };
    await client.query("BEGIN");
    for (const write of group) {
      if (write.claim !== undefined) {
        await insertLines();
        const wanted = new Set(write.claim.numbers);
        const taken = await claimWithIntent(client, journal, write.claim, lineOf(write));
        if (taken.size < wanted.size) {
          await client.query("ROLLBACK");
          const other = [...wanted].find((number) => !taken.has(number)) ?? "";
          return { write, error: await claimRefusal(client, journal, other, this.place) };
        }
        continue;
      }
      lines.push(lineOf(write));
      if (write.release !== undefined && write.release.numbers.length > 0) {
        await insertLines();
        await client.query("DELETE FROM portin_claims WHERE journal = $1 AND number = ANY($2::text[]) AND request_id = $3", [journal, write.release.numbers, write.release.requestId]);
      }
    }
    await insertLines();
    await client.query("COMMIT");
    return null;
  }
}

/** A record's row: its line without the newline. */
function lineOf(write: Write): string {
  return write.line.endsWith("\n") ? write.line.slice(0, -1) : write.line;
}

/**
 * Claims each number for `requestId` and, only if every one is taken, records the intent: one
 * statement, one round trip. A number is taken when no run has claimed it, or when its claim is
 * still the one this run read it under (`replaces`: the request that last carried it, as this
 * run's journal says), so a number another run claimed meanwhile is never taken over. The
 * numbers taken; when they are not all of them, the caller rolls the claims back.
 */
async function claimWithIntent(client: ClientBase, journal: string, claimed: NonNullable<Write["claim"]>, line: string): Promise<Set<string>> {
  // A number twice in one request is claimed once: a claim row cannot be written twice in one statement.
  const numbers: string[] = [];
  const replaces: string[] = [];
  const seen = new Set<string>();
  claimed.numbers.forEach((number, i) => {
    if (seen.has(number)) return;
    seen.add(number);
    numbers.push(number);
    replaces.push(claimed.replaces[i] ?? "");
  });
  const result = await client.query<{ number: string }>(
    `WITH claimed AS (
       INSERT INTO portin_claims AS c (journal, number, request_id, replaces)
         SELECT $1, number, $2, replaces FROM unnest($3::text[], $4::text[]) AS t (number, replaces)
       ON CONFLICT (journal, number) DO UPDATE SET request_id = EXCLUDED.request_id, replaces = EXCLUDED.replaces, claimed_at = now()
         WHERE c.request_id = EXCLUDED.replaces
       RETURNING number
     ), recorded AS (
       INSERT INTO portin_records (journal, line) SELECT $1, $5 WHERE (SELECT count(*) FROM claimed) = $6::bigint
     )
     SELECT number FROM claimed`,
    [journal, claimed.requestId, numbers, replaces, line, numbers.length],
  );
  return new Set(result.rows.map((row) => row.number));
}

async function claimRefusal(client: ClientBase, journal: string, number: string, place: PostgresPlace): Promise<StateError> {
  const held = await client.query<{ request_id: string; claimed_at: Date }>("SELECT request_id, claimed_at FROM portin_claims WHERE journal = $1 AND number = $2", [journal, number]);
  const row = held.rows[0];
  const by = row === undefined ? "" : journalWords.claimedBy(row.request_id, row.claimed_at.toISOString());
  return new StateError(journalWords.claimedElsewhere(number, place.label, by));
}

function createPostgresJournal(writer: PostgresWriter, prior: PriorState, onStatusReading: ((reading: StatusRecord) => void) | undefined): Journal {
  /** The request each number was last claimed for by this run: the claim a later intent of this run replaces. */
  const claims = new Map<string, string>();
  /** This run's intents without an outcome yet: their numbers, for the claims an outcome releases. */
  const open = new Map<string, readonly string[]>();
  const replaces = (number: string): string => claims.get(number) ?? prior.states.get(number)?.requestId ?? "";
  let closing: Promise<void> | null = null;
  return {
    prior,
    async intent(requestId, operation, numbers, fingerprints) {
      const line = serializeRecord(entries.intentRecord(requestId, operation, numbers, fingerprints));
      await writer.append(line, { claim: { requestId, numbers, replaces: numbers.map(replaces) } });
      for (const number of numbers) claims.set(number, requestId);
      open.set(requestId, numbers);
    },
    async outcome(requestId, outcome: JournalOutcome) {
      const line = serializeRecord(entries.outcomeRecord(requestId, outcome));
      const released = releasedBy(outcome, open.get(requestId) ?? []);
      await writer.append(line, { release: { requestId, numbers: released } });
      open.delete(requestId);
      for (const number of released) if (claims.get(number) === requestId) claims.delete(number);
    },
    confirmed: async (number, ticket, status, outside, refused) => writer.append(serializeRecord(entries.confirmedRecord(number, ticket, status, outside, refused))),
    ended: async (order: EndedEntry) => writer.append(serializeRecord(entries.endedRecord(order))),
    async status(order: StatusEntry) {
      const record = entries.statusRecord(order);
      onStatusReading?.(record);
      await writer.append(serializeRecord(record));
    },
    e911Intent: async (number, method, address) => writer.append(serializeRecord(entries.e911IntentRecord(number, method, address))),
    e911Outcome: async (number, status, address, message) => writer.append(serializeRecord(entries.e911OutcomeRecord(number, status, address, message))),
    trunkCheck: async (number, onTrunk, e911) => writer.append(serializeRecord(entries.trunkCheckRecord(number, onTrunk, e911))),
    close() {
      closing ??= writer.close();
      return closing;
    },
  };
}

/**
 * The numbers of a request whose claims its outcome lets go, as prior.ts reads the outcome: those
 * it leaves with no state, to be sent again (a `failed` or withdrawn request; a rejection's
 * numbers it did not name, sent again in a new request). A submitted, unknown or rejected
 * number keeps its claim; a later run that may send it again replaces the claim (`claim`).
 */
function releasedBy(outcome: JournalOutcome, numbers: readonly string[]): string[] {
  if (outcome.status === "failed") return [...numbers];
  if (outcome.status !== "rejected") return [];
  const named = new Set((outcome.rejected ?? []).map((entry) => entry.number));
  return numbers.filter((number) => !named.has(number));
}

/** Every journal the database holds, by identity. */
export async function journalsIn(place: PostgresPlace, version: string): Promise<JournalKey[]> {
  const client = await connectTo(place);
  try {
    if ((await readableSchema(client, place.label, version)) === 0) return [];
    const found = await client.query<{ base_url: string; username: string }>(
      "SELECT base_url, username FROM portin_journals j WHERE EXISTS (SELECT 1 FROM portin_records r WHERE r.journal = j.id) ORDER BY id",
    );
    return found.rows.map((row) => ({ baseUrl: row.base_url, user: row.username }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The one journal the database holds, for a command that names no service (`report`, `journal
 * copy`): null when it holds none; StateError when it holds several, naming them.
 */
export async function onlyJournalIn(place: PostgresPlace, version: string): Promise<JournalKey | null> {
  const keys = await journalsIn(place, version);
  if (keys.length <= 1) return keys[0] ?? null;
  const named = keys.map((key) => journalWords.journalOf(key.user, key.baseUrl)).join("; ");
  throw new StateError(journalWords.severalJournalsInDatabase(place.label, keys.length, named));
}

/** The journal of `key`'s lines, verbatim, header first: for `journal copy`. */
export async function readPostgresLines(place: PostgresPlace, version: string, key: JournalKey): Promise<string[]> {
  const lines: string[] = [];
  await withReader(place, version, key, async (client, journal) => {
    let after = "0";
    for (;;) {
      const page = await client.query<{ seq: string; line: string }>("SELECT seq, line FROM portin_records WHERE journal = $1 AND seq > $2 ORDER BY seq LIMIT $3", [journal, after, PAGE_ROWS]);
      for (const row of page.rows) lines.push(row.line);
      if (page.rows.length < PAGE_ROWS) return;
      after = page.rows.at(-1)?.seq ?? after;
    }
  });
  return lines;
}

/**
 * Writes `lines` (a journal's, header first) as the journal of `key`, in one transaction under
 * the journal's lock; StateError when the database already holds records for it, or a run holds it.
 */
export async function writePostgresLines(place: PostgresPlace, version: string, key: JournalKey, lines: readonly string[]): Promise<void> {
  const client = await connectTo(place);
  try {
    await ensureSchema(client, place.label, version);
    const journal = await journalId(client, key);
    await lockJournal(client, journal, place);
    await client.query("BEGIN");
    const held = await client.query("SELECT 1 FROM portin_records WHERE journal = $1 LIMIT 1", [journal]);
    if (held.rowCount !== 0) {
      await client.query("ROLLBACK");
      throw new StateError(journalWords.copyTargetDatabaseNotEmpty(place.label, key.user, key.baseUrl));
    }
    for (let start = 0; start < lines.length; start += PAGE_ROWS) {
      await client.query("INSERT INTO portin_records (journal, line) SELECT $1, line FROM unnest($2::text[]) WITH ORDINALITY AS t (line, n) ORDER BY n", [journal, lines.slice(start, start + PAGE_ROWS)]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Who holds the journal's lock now, looked at without taking it (`plan` beside a running
 * `submit`, docs/contract.md §5): null when nobody does; `owner` null when the holder has not
 * named itself in `portin_holders`.
 */
export async function postgresHolder(place: PostgresPlace, identity: JournalIdentity): Promise<{ owner: { pid: number; hostname: string; startedAt: string } | null } | null> {
  const held = await withReader(place, identity.version, keyOf(identity), async (client, journal) => {
    const found = await client.query<{ pid: number | null; hostname: string | null; started_at: string | null }>(
      `SELECT h.pid, h.hostname, h.started_at FROM pg_locks l
         LEFT JOIN portin_holders h ON h.journal = $2 AND h.backend_pid = l.pid
        WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.classid = $1::oid AND l.objid = $2::bigint::oid AND l.granted
        LIMIT 1`,
      [LOCK_SPACE, journal],
    );
    const row = found.rows[0];
    if (row === undefined) return null;
    return { owner: row.pid === null ? null : { pid: row.pid, hostname: row.hostname ?? "", startedAt: row.started_at ?? "" } };
  });
  return held ?? null;
}
