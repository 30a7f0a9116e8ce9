/**
 * The records of the run journal (docs/contract.md §5): one JSON object per line, appended, never
 * rewritten. The schemas are strict about what portin itself relies on and lenient about
 * extra members, so a human's note in a record does not make the file unreadable.
 */
import { z } from "zod";
import { once } from "../once.js";

/** Bumped only when an older portin could misread a newer file. */
export const JOURNAL_FORMAT_VERSION = 1;

export const OUTCOME_STATUSES = ["submitted", "rejected", "failed", "unknown"] as const;
export type JournalOutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export const E911_OUTCOME_STATUSES = ["registered", "refused", "failed", "unknown"] as const;
export type E911OutcomeStatus = (typeof E911_OUTCOME_STATUSES)[number];

/**
 * The records' schemas, built at the first journal read: zod builds each schema's classes as
 * it is made, some 8 ms that a `plan` with no journal, or any run before its journal is read,
 * would pay at start-up for nothing (docs/contract.md §8, "Start-up").
 */
function buildSchemas() {
  const tenDigits = z.string().regex(/^\d{10}$/);

  const headerSchema = z.object({
    type: z.literal("header"),
    version: z.number().int().positive(),
    tool: z.string(),
    baseUrl: z.string(),
    user: z.string(),
    createdAt: z.string(),
  });

  const runSchema = z.object({
    type: z.literal("run"),
    pid: z.number().int(),
    startedAt: z.string(),
  });

  const intentSchema = z.object({
    type: z.literal("intent"),
    requestId: z.string().min(1),
    operation: z.string(),
    numbers: z.array(tenDigits),
    /**
     * The fingerprint of each number's row as sent (group/fingerprint.ts), in `numbers`' order:
     * when `status` later learns the carrier rejected the order, a re-run resends a row only
     * once it differs from what was sent. Added after format 1 shipped: an older portin
     * ignores it, and an intent without it (an older portin's) falls back to the row as
     * `status` read it.
     */
    fingerprints: z.array(z.string()).optional(),
    at: z.string(),
  });

  /**
   * One number a rejection is about, with the part of the message about it and the fingerprint
   * of its row as sent (group/fingerprint.ts): a re-run resends it only once the row changed.
   */
  const rejectedNumberSchema = z.object({
    number: tenDigits,
    message: z.string(),
    fingerprint: z.string(),
  });

  const outcomeSchema = z.object({
    type: z.literal("outcome"),
    requestId: z.string().min(1),
    status: z.enum(OUTCOME_STATUSES),
    ticket: z.string().nullable().optional(),
    httpStatus: z.number().int().nullable().optional(),
    message: z.string().nullable().optional(),
    /**
     * With status `rejected`: the numbers the rejection stands for. The request's other numbers
     * were sent again in a new request, whose own records follow. Added after format 1 shipped:
     * a `rejected` outcome without it (an older portin's) stands for nobody, so its numbers are
     * sent again as they always were; an older portin reading it ignores it the same way.
     */
    rejected: z.array(rejectedNumberSchema).optional(),
    at: z.string(),
  });

  /**
   * A number an earlier request may or may not have carried (intent without outcome, or
   * `unknown`), which PortInStatus then showed the service has: submitted, without resending.
   * Added after format 1 shipped without a version bump: files without it read as before, and
   * an older portin reading one with it refuses it as edited (or, as the last line, drops it
   * as torn) rather than misreading it, which can only make it ask or report `unknown` again.
   */
  const confirmedSchema = z.object({
    type: z.literal("confirmed"),
    number: tenDigits,
    ticket: z.string(),
    /** The service's Status, e.g. SUBMITTED. */
    status: z.string().nullable().optional(),
    /**
     * True when the order was placed outside this journal (another sheet, a lost journal, the
     * web portal) and learned from the account's order list or a pending-port-in answer
     * (docs/contract.md §5): later runs say so rather than "submitted by an earlier run".
     */
    outside: z.boolean().optional(),
    /**
     * True when this journal's own request carried the number and the service refused it because
     * this order already held it (a run beside this one sent it first): the number was sent, and
     * is not this journal's order (docs/contract.md §5, "A pending-port-in answer"). An older
     * portin ignores the member and reads the record as `outside` alone.
     */
    refused: z.boolean().optional(),
    at: z.string(),
  });

  /**
   * An order `status` learned has ended without porting (REJECTED, CANCELLED, …): its numbers
   * are treated from then on like numbers the service rejected at submission, resent once
   * their row changed (or with --retry-rejected), each compared with `fingerprint`: the row as
   * it was sent, or "" when that is not known (then the row counts as changed). Added after
   * format 1 shipped, without a version bump, as `confirmed` was: an older portin refuses a
   * file holding one as edited (or, as the last line, drops it as torn) rather than misreading
   * it; both only stop it, and sending nothing is the safe side.
   */
  const endedSchema = z.object({
    type: z.literal("ended"),
    ticket: z.string().min(1),
    /** The service's Status word. */
    status: z.string(),
    reason: z.string(),
    summary: z.string(),
    /** RejectDetails as the status report writes them (`6P NAME: …; …`). */
    details: z.string(),
    numbers: z.array(z.object({ number: tenDigits, fingerprint: z.string() })),
    at: z.string(),
  });

  /**
   * What one `status` check learned of one order (docs/contract.md §5, §6): the journal keeps
   * every such reading, so a number whose status cannot be learned next time keeps its last
   * known one, `status` can say what changed since the previous check, and `report` can draw
   * the migration night by night. Appended once per order per check, whatever the answer.
   * Added after format 1 shipped without a version bump, as `confirmed` and `ended` were.
   */
  const statusSchema = z.object({
    type: z.literal("status"),
    ticket: z.string().min(1),
    /** The service's Status word (SUBMITTED, CONFIRMED, COMPLETED, REJECTED, CANCELLED, …). */
    status: z.string(),
    /** PortDate as the service gave it, or null. */
    portDate: z.string().nullable(),
    reason: z.string(),
    summary: z.string(),
    /** RejectDetails as the status report writes them (`6P NAME: …; …`). */
    details: z.string(),
    /** The order's numbers, 10 digits each. */
    numbers: z.array(tenDigits),
    at: z.string(),
  });

  /**
   * A 9-1-1 registration about to be sent (docs/contract.md §1.5, §5): flushed before the POST
   * or PUT, like a port-in's intent, so that a run killed before its answer leaves the next run
   * to ask GET /v2/V911s/{number} rather than POST again. `address` is the address's
   * fingerprint (engine/e911-register.ts). Added after format 1 shipped without a version bump,
   * as `confirmed` was: an older portin refuses a file holding one as edited.
   */
  const e911IntentSchema = z.object({
    type: z.literal("e911-intent"),
    number: tenDigits,
    method: z.enum(["POST", "PUT"]),
    address: z.string().min(1),
    at: z.string(),
  });

  /**
   * What became of a 9-1-1 registration, or what GET /v2/V911s/{number} showed of an unsure one:
   * `registered` (with that address), `refused` or `failed` (nothing registered), `unknown`
   * (it may have been made: the next run asks before sending again).
   */
  const e911OutcomeSchema = z.object({
    type: z.literal("e911-outcome"),
    number: tenDigits,
    status: z.enum(E911_OUTCOME_STATUSES),
    address: z.string(),
    message: z.string().optional(),
    at: z.string(),
  });

  /**
   * What `status` found of a COMPLETED trunk number (docs/contract.md §6, engine/trunk-check.ts):
   * whether it is on its trunk and has a 9-1-1 record, so that `report`, which asks no service,
   * can show in red a number that completed off its trunk or without 9-1-1.
   */
  const trunkCheckSchema = z.object({
    type: z.literal("trunk-check"),
    number: tenDigits,
    onTrunk: z.boolean(),
    e911: z.boolean(),
    at: z.string(),
  });

  const recordSchema = z.discriminatedUnion("type", [headerSchema, runSchema, intentSchema, outcomeSchema, confirmedSchema, endedSchema, statusSchema, e911IntentSchema, e911OutcomeSchema, trunkCheckSchema]);
  return { headerSchema, runSchema, intentSchema, outcomeSchema, confirmedSchema, endedSchema, statusSchema, e911IntentSchema, e911OutcomeSchema, trunkCheckSchema, rejectedNumberSchema, recordSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
const schemas = once(buildSchemas);

export type HeaderRecord = z.infer<Schemas["headerSchema"]>;
export type RunRecord = z.infer<Schemas["runSchema"]>;
export type IntentRecord = z.infer<Schemas["intentSchema"]>;
export type OutcomeRecord = z.infer<Schemas["outcomeSchema"]>;
export type ConfirmedRecord = z.infer<Schemas["confirmedSchema"]>;
export type EndedRecord = z.infer<Schemas["endedSchema"]>;
export type StatusRecord = z.infer<Schemas["statusSchema"]>;
export type RejectedNumber = z.infer<Schemas["rejectedNumberSchema"]>;
export type E911IntentRecord = z.infer<Schemas["e911IntentSchema"]>;
export type E911OutcomeRecord = z.infer<Schemas["e911OutcomeSchema"]>;
export type TrunkCheckRecord = z.infer<Schemas["trunkCheckSchema"]>;
export type JournalRecord = z.infer<Schemas["recordSchema"]>;

/** The record a line holds, or null when the line is not one (torn, edited, or not JSON). */
export function parseRecord(line: string): JournalRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = schemas().recordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The kinds of record this portin writes and reads (the `type` of buildSchemas's union). */
const RECORD_KINDS: ReadonlySet<string> = new Set(["header", "run", "intent", "outcome", "confirmed", "ended", "status"]);

/**
 * The kind a line names when it is a whole JSON object whose `type` this portin does not know:
 * a newer portin's record, not a crash's torn line (which is not whole JSON). Null otherwise.
 * Asked only of a line parseRecord refused.
 */
export function unknownKindOf(line: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const kind = (value as { type?: unknown }).type;
  return typeof kind === "string" && !RECORD_KINDS.has(kind) ? kind : null;
}

/** One line, newline included: a record is only ever written whole, in one write. */
export function serializeRecord(record: JournalRecord): string {
  return `${JSON.stringify(record)}\n`;
}
