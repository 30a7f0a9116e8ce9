/**
 * The records a run appends, built and checked in one place for every kind of journal (the file,
 * journal.ts; PostgreSQL, postgres.ts), so the two cannot write a record differently
 * (docs/contract.md §5). Each throws TypeError for a caller's mistake (portin's own fault).
 */
import type { ConfirmedRecord, E911IntentRecord, E911OutcomeRecord, E911OutcomeStatus, EndedRecord, IntentRecord, JournalOutcomeStatus, OutcomeRecord, RejectedNumber, StatusRecord, TrunkCheckRecord } from "./records.js";

export interface JournalOutcome {
  readonly status: JournalOutcomeStatus;
  readonly ticket?: string;
  readonly httpStatus?: number | null;
  readonly message?: string;
  /** With status `rejected`: the numbers the rejection stands for (records.ts). */
  readonly rejected?: readonly RejectedNumber[];
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

const TEN_DIGITS = /^\d{10}$/;
const now = (): string => new Date().toISOString();

function tenDigits(kind: string, number: string): void {
  if (!TEN_DIGITS.test(number)) throw new TypeError(`journal '${kind}' needs a 10-digit number, got '${number}'`);
}

export function intentRecord(requestId: string, operation: string, numbers: readonly string[], fingerprints: readonly string[] | undefined): IntentRecord {
  const bad = numbers.find((number) => !TEN_DIGITS.test(number));
  if (requestId === "" || bad !== undefined || (fingerprints !== undefined && fingerprints.length !== numbers.length)) {
    throw new TypeError(`journal intent needs a request id, 10-digit numbers and one fingerprint each, got '${requestId}' and '${bad ?? ""}'`);
  }
  return { type: "intent", requestId, operation, numbers: [...numbers], ...(fingerprints === undefined ? {} : { fingerprints: [...fingerprints] }), at: now() };
}

export function outcomeRecord(requestId: string, outcome: JournalOutcome): OutcomeRecord {
  return {
    type: "outcome",
    requestId,
    status: outcome.status,
    ticket: outcome.ticket ?? null,
    httpStatus: outcome.httpStatus ?? null,
    message: outcome.message ?? null,
    ...(outcome.rejected === undefined ? {} : { rejected: [...outcome.rejected] }),
    at: now(),
  };
}

export function confirmedRecord(number: string, ticket: string, status: string, outside?: boolean, refused?: boolean): ConfirmedRecord {
  tenDigits("confirmed", number);
  const how = outside === true ? (refused === true ? { outside, refused } : { outside }) : {};
  return { type: "confirmed", number, ticket, status, ...how, at: now() };
}

export function endedRecord(order: EndedEntry): EndedRecord {
  const bad = order.numbers.find((entry) => !TEN_DIGITS.test(entry.number));
  if (order.ticket === "" || bad !== undefined) throw new TypeError(`journal 'ended' needs a ticket and 10-digit numbers, got '${order.ticket}'`);
  const numbers = order.numbers.map(({ number, fingerprint }) => ({ number, fingerprint }));
  const { ticket, status, reason, summary, details } = order;
  return { type: "ended", ticket, status, reason, summary, details, numbers, at: now() };
}

export function statusRecord(order: StatusEntry): StatusRecord {
  const bad = order.numbers.find((number) => !TEN_DIGITS.test(number));
  if (order.ticket === "" || bad !== undefined) throw new TypeError(`journal 'status' needs a ticket and 10-digit numbers, got '${order.ticket}'`);
  const { ticket, status, reason, summary, details } = order;
  const portDate = order.portDate === null || order.portDate === "" ? null : order.portDate;
  return { type: "status", ticket, status, portDate, reason, summary, details, numbers: [...order.numbers], at: order.at ?? now() };
}

export function e911IntentRecord(number: string, method: "POST" | "PUT", address: string): E911IntentRecord {
  tenDigits("e911-intent", number);
  return { type: "e911-intent", number, method, address, at: now() };
}

export function e911OutcomeRecord(number: string, status: E911OutcomeStatus, address: string, message?: string): E911OutcomeRecord {
  tenDigits("e911-outcome", number);
  return { type: "e911-outcome", number, status, address, ...(message === undefined ? {} : { message }), at: now() };
}

export function trunkCheckRecord(number: string, onTrunk: boolean, e911: boolean): TrunkCheckRecord {
  tenDigits("trunk-check", number);
  return { type: "trunk-check", number, onTrunk, e911, at: now() };
}
