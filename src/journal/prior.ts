/**
 * The re-run rules of docs/contract.md §5, applied to the records of earlier runs: pure, no I/O.
 */
import type { JournalRecord } from "./records.js";

/** What earlier runs recorded about each number (10 digits). A number is in at most one map. */
export interface PriorState {
  /**
   * Numbers an earlier run submitted, or confirmed by PortInStatus, with the ticket and the
   * request id that carried them: never sent again, unless `status` learns the order ended.
   */
  readonly submitted: ReadonlyMap<string, { readonly ticket: string; readonly requestId: string } & Sent>;
  /** Numbers whose request has an intent but no outcome: it may have reached the service. */
  readonly pending: ReadonlyMap<string, { readonly requestId: string } & Sent>;
  /** Numbers an earlier run recorded as `unknown` (500, 502, 504, timeout, cut connection) and not since resolved. */
  readonly unknown: ReadonlyMap<string, { readonly requestId: string; readonly message: string } & Sent>;
  /**
   * Numbers whose latest request was rejected for them, or whose order `status` learned
   * ended without porting: resent only once their row changed, or with --retry-rejected.
   */
  readonly rejected: ReadonlyMap<string, EarlierRejection>;
  /**
   * The latest status a `status` check learned for each number's order (records.ts `status`),
   * whatever map the number is in: a number whose status cannot be learned next time keeps
   * this one, with when it was learned (docs/contract.md §6).
   */
  readonly lastStatus: ReadonlyMap<string, KnownStatus>;
}

/** One order's status as a `status` check learned it. */
export interface KnownStatus {
  readonly ticket: string;
  readonly status: string;
  readonly portDate: string;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** When it was learned. */
  readonly at: string;
}

/** What the intent that last carried a number says of its row. */
interface Sent {
  /** The row's fingerprint as sent; absent in intents an older portin wrote. */
  readonly fingerprint?: string;
}

export interface EarlierRejection {
  readonly requestId: string;
  /** The part of the service's message about this number; for an ended order, its reason. */
  readonly message: string;
  readonly httpStatus: number | null;
  /** Of the row as it was sent (plan/fingerprint.ts); "" when not known: any row counts as changed. */
  readonly fingerprint: string;
  /** Set when the rejection is the order's end, learned later by `status`, not the service's answer to the POST. */
  readonly order?: EndedOrder;
}

/** An order that ended without porting, as `status` recorded it (records.ts `ended`). */
export interface EndedOrder {
  readonly ticket: string;
  readonly status: string;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** When `status` learned it. */
  readonly at: string;
}

type NumberState =
  | ({ readonly kind: "submitted"; readonly ticket: string; readonly requestId: string } & Sent)
  | ({ readonly kind: "pending"; readonly requestId: string } & Sent)
  | ({ readonly kind: "unknown"; readonly requestId: string; readonly message: string } & Sent)
  | ({ readonly kind: "rejected" } & EarlierRejection);

/** `fingerprint` only when known: most journals hold millions of states. */
const sent = (fingerprint: string | undefined): Sent => (fingerprint === undefined ? {} : { fingerprint });

/**
 * Later records win, with one exception: a number once submitted stays submitted (a later
 * submission only replaces its ticket). A ticket is a fact a later refusal cannot undo; the
 * service typically rejects a second port-in of a number precisely because the first exists.
 * Only an `ended` record for that very ticket undoes it: the order is over.
 */
export function derivePriorState(records: Iterable<JournalRecord>): PriorState {
  const numbersByRequest = new Map<string, readonly string[]>();
  const fingerprintsByRequest = new Map<string, readonly string[]>();
  const states = new Map<string, NumberState>();
  const lastStatus = new Map<string, KnownStatus>();

  for (const record of records) {
    if (record.type === "intent") {
      numbersByRequest.set(record.requestId, record.numbers);
      // Kept only when whole: a list that does not match the numbers says nothing reliable.
      const fingerprints = record.fingerprints?.length === record.numbers.length ? record.fingerprints : undefined;
      if (fingerprints) fingerprintsByRequest.set(record.requestId, fingerprints);
      record.numbers.forEach((number, i) => {
        if (states.get(number)?.kind !== "submitted") states.set(number, { kind: "pending", requestId: record.requestId, ...sent(fingerprints?.[i]) });
      });
    } else if (record.type === "outcome") {
      const { requestId } = record;
      const fingerprints = fingerprintsByRequest.get(requestId);
      for (const [i, number] of (numbersByRequest.get(requestId) ?? []).entries()) {
        const current = states.get(number);
        if (record.status === "submitted") {
          states.set(number, { kind: "submitted", ticket: record.ticket ?? "", requestId, ...sent(fingerprints?.[i]) });
          continue;
        }
        // An outcome speaks only for numbers whose latest request it answers.
        if (current === undefined || current.kind === "submitted" || current.requestId !== requestId) continue;
        const rejection = record.status === "rejected" ? record.rejected?.find((entry) => entry.number === number) : undefined;
        if (record.status === "unknown") {
          states.set(number, { kind: "unknown", requestId, message: record.message ?? "", ...sent(fingerprints?.[i]) });
        } else if (rejection !== undefined) {
          states.set(number, { kind: "rejected", requestId, message: rejection.message, httpStatus: record.httpStatus ?? null, fingerprint: rejection.fingerprint });
        } else {
          // Failed, or rejected for other numbers and sent again in a request recorded after this one.
          states.delete(number);
        }
      }
    } else if (record.type === "confirmed") {
      // The service showed the port-in exists: as good as an outcome `submitted` for this number alone.
      const current = states.get(record.number);
      const fingerprint = current?.kind === "rejected" ? undefined : current?.fingerprint;
      states.set(record.number, { kind: "submitted", ticket: record.ticket, requestId: current?.requestId ?? "", ...sent(fingerprint) });
    } else if (record.type === "status") {
      const { ticket, status, reason, summary, details, at } = record;
      // One object per reading, shared by the order's numbers.
      const known: KnownStatus = { ticket, status, portDate: record.portDate ?? "", reason, summary, details, at };
      for (const number of record.numbers) lastStatus.set(number, known);
    } else if (record.type === "ended") {
      const order: EndedOrder = { ticket: record.ticket, status: record.status, reason: record.reason, summary: record.summary, details: record.details, at: record.at };
      for (const { number, fingerprint } of record.numbers) {
        const current = states.get(number);
        // Only the number's latest order can end it: one submitted since under another ticket stands.
        const ends = current !== undefined && (current.kind === "submitted" ? current.ticket === record.ticket : current.kind !== "rejected");
        if (!ends) continue;
        states.set(number, { kind: "rejected", requestId: current.requestId, message: record.reason, httpStatus: null, fingerprint, order });
      }
    }
  }

  const submitted = new Map<string, { ticket: string; requestId: string } & Sent>();
  const pending = new Map<string, { requestId: string } & Sent>();
  const unknown = new Map<string, { requestId: string; message: string } & Sent>();
  const rejected = new Map<string, EarlierRejection>();
  for (const [number, state] of states) {
    if (state.kind === "submitted") submitted.set(number, { ticket: state.ticket, requestId: state.requestId, ...sent(state.fingerprint) });
    else if (state.kind === "pending") pending.set(number, { requestId: state.requestId, ...sent(state.fingerprint) });
    else if (state.kind === "unknown") unknown.set(number, { requestId: state.requestId, message: state.message, ...sent(state.fingerprint) });
    else {
      const { requestId, message, httpStatus, fingerprint, order } = state;
      rejected.set(number, { requestId, message, httpStatus, fingerprint, ...(order === undefined ? {} : { order }) });
    }
  }
  return { submitted, pending, unknown, rejected, lastStatus };
}
