/**
 * The re-run rules of docs/contract.md §5, applied to the records of earlier runs: pure, no I/O.
 */
import type { JournalRecord } from "./records.js";

/** What earlier runs recorded about each number (10 digits). A number is in at most one map. */
export interface PriorState {
  /**
   * Numbers an earlier run submitted, or confirmed by PortInStatus, with the ticket and the
   * request id that carried them: never sent again.
   */
  readonly submitted: ReadonlyMap<string, { readonly ticket: string; readonly requestId: string }>;
  /** Numbers whose request has an intent but no outcome: it may have reached the service. */
  readonly pending: ReadonlyMap<string, { readonly requestId: string }>;
  /** Numbers an earlier run recorded as `unknown` (500, 502, 504, timeout, cut connection) and not since resolved. */
  readonly unknown: ReadonlyMap<string, { readonly requestId: string; readonly message: string }>;
  /** Numbers whose latest request was rejected for them: resent only once their row changed, or with --retry-rejected. */
  readonly rejected: ReadonlyMap<string, EarlierRejection>;
}

export interface EarlierRejection {
  readonly requestId: string;
  /** The part of the service's message about this number. */
  readonly message: string;
  readonly httpStatus: number | null;
  /** Of the row as it was sent (plan/fingerprint.ts). */
  readonly fingerprint: string;
}

type NumberState =
  | { readonly kind: "submitted"; readonly ticket: string; readonly requestId: string }
  | { readonly kind: "pending"; readonly requestId: string }
  | { readonly kind: "unknown"; readonly requestId: string; readonly message: string }
  | ({ readonly kind: "rejected" } & EarlierRejection);

/**
 * Later records win, with one exception: a number once submitted stays submitted (a later
 * submission only replaces its ticket). A ticket is a fact a later refusal cannot undo; the
 * service typically rejects a second port-in of a number precisely because the first exists.
 */
export function derivePriorState(records: Iterable<JournalRecord>): PriorState {
  const numbersByRequest = new Map<string, readonly string[]>();
  const states = new Map<string, NumberState>();

  for (const record of records) {
    if (record.type === "intent") {
      numbersByRequest.set(record.requestId, record.numbers);
      for (const number of record.numbers) {
        if (states.get(number)?.kind !== "submitted") states.set(number, { kind: "pending", requestId: record.requestId });
      }
    } else if (record.type === "outcome") {
      const { requestId } = record;
      for (const number of numbersByRequest.get(requestId) ?? []) {
        const current = states.get(number);
        if (record.status === "submitted") {
          states.set(number, { kind: "submitted", ticket: record.ticket ?? "", requestId });
          continue;
        }
        // An outcome speaks only for numbers whose latest request it answers.
        if (current === undefined || current.kind === "submitted" || current.requestId !== requestId) continue;
        const rejection = record.status === "rejected" ? record.rejected?.find((entry) => entry.number === number) : undefined;
        if (record.status === "unknown") {
          states.set(number, { kind: "unknown", requestId, message: record.message ?? "" });
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
      states.set(record.number, { kind: "submitted", ticket: record.ticket, requestId: current?.requestId ?? "" });
    }
  }

  const submitted = new Map<string, { ticket: string; requestId: string }>();
  const pending = new Map<string, { requestId: string }>();
  const unknown = new Map<string, { requestId: string; message: string }>();
  const rejected = new Map<string, EarlierRejection>();
  for (const [number, state] of states) {
    if (state.kind === "submitted") submitted.set(number, { ticket: state.ticket, requestId: state.requestId });
    else if (state.kind === "pending") pending.set(number, { requestId: state.requestId });
    else if (state.kind === "unknown") unknown.set(number, { requestId: state.requestId, message: state.message });
    else rejected.set(number, { requestId: state.requestId, message: state.message, httpStatus: state.httpStatus, fingerprint: state.fingerprint });
  }
  return { submitted, pending, unknown, rejected };
}
