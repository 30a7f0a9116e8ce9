import type { NumberKind } from "../catalog/operations.js";
import * as outputWords from "../messages/output.js";

/** docs/contract.md §6. */
export type RowStatus = "submitted" | "planned" | "skipped" | "invalid" | "rejected" | "failed" | "unknown";
export const ROW_STATUSES: readonly RowStatus[] = ["submitted", "planned", "skipped", "invalid", "rejected", "failed", "unknown"];

/**
 * What the user does about a row that needs attention; the summary prints one "next:" line per
 * step, so its advice always matches what the run did to those rows (docs/contract.md §6).
 */
export type NextStep =
  /** invalid: fix the row. */
  | "fix-row"
  /** rejected by the service in this run. */
  | "read-rejection"
  /** rejected by an earlier run, and the row has not changed since. */
  | "fix-or-retry-rejected"
  /** its order ended without porting (the carrier rejected it, `status` learned), and the row has not changed since. */
  | "fix-carrier-rejection"
  /** failed: not accepted after retries, or not sent; the next run sends it. */
  | "run-again"
  /** failed: not sent because the run was interrupted. */
  | "run-again-interrupted"
  /** failed: not sent because the service refused the credentials. */
  | "fix-credentials"
  /** unknown: sent in this run, outcome never learned; the next run checks PortInStatus first. */
  | "run-again-to-confirm"
  /** unknown: PortInStatus finds no port-in; --retry-unknown sends it. */
  | "retry-unknown"
  /** unknown: checking PortInStatus failed; a later run checks again. */
  | "run-again-to-check"
  /** unknown: an open order of the account's order list holds it, and PortInStatus gives no ticket for it: not sent. */
  | "ask-about-order"
  /** skipped: sent in this run, and refused because an order placed outside the journal already holds it. */
  | "refused-held"
  /** rejected: sent in this run, and refused because another order holds it, which PortInStatus does not show yet. */
  | "run-again-refused-held"
  /** invalid or rejected: the service (or --check-portability) says the number is not portable; no fix of the row helps. */
  | "port-another-way";

/** The step each status needs unless its outcome names another. */
export const USUAL_NEXT_STEP: Readonly<Partial<Record<RowStatus, NextStep>>> = {
  invalid: "fix-row",
  rejected: "read-rejection",
  failed: "run-again",
  unknown: "run-again-to-confirm",
};

/** What a person can do about a number the service says is not portable (docs/contract.md §6): no edit of its row helps. */
export const NOT_PORTABLE_ADVICE = outputWords.NOT_PORTABLE_ADVICE;


/**
 * Whether the service's words (or --check-portability's) say the number is not portable to
 * this service, e.g. "4165550199 is not portable: the losing carrier reports it as a wireless number".
 */
export function saysNotPortable(message: string): boolean {
  return /\bnot portable\b|\bwireless number\b/i.test(message);
}

/**
 * An invalid or rejected row whose number is not portable gets the only advice a person can
 * follow, and the summary's matching "next:" line, instead of "fix the row and run again".
 */
export function adviseNotPortable(outcome: RowOutcome): RowOutcome {
  if ((outcome.status !== "invalid" && outcome.status !== "rejected") || !saysNotPortable(outcome.message)) return outcome;
  const message = outcome.message.includes(NOT_PORTABLE_ADVICE) ? outcome.message : `${outcome.message}; ${NOT_PORTABLE_ADVICE}`;
  return withMessage(outcome, message, "port-another-way");
}

/** The same outcome saying `message`, with `next` for its next step (by default the one it had). */
export function withMessage(outcome: RowOutcome, message: string, next: NextStep | undefined = outcome.next): RowOutcome {
  return rowOutcome(outcome, { status: outcome.status, ticket: outcome.ticket, httpStatus: outcome.httpStatus, message, next, e911: outcome.e911 });
}

/** What a row's outcome is about: the row's number and the operation and request that carry it. */
export type OutcomeSubject = Pick<RowOutcome, "number" | "numberType" | "operation" | "sequence">;

/** What became of the row; its 9-1-1 registration "" unless said. */
export type OutcomeVerdict = Pick<RowOutcome, "status" | "ticket" | "httpStatus" | "message" | "next"> & { readonly e911?: E911Result };

/**
 * The one way a RowOutcome is made: every outcome in one shape. V8 gives an object built
 * with a spread and then more members (`{ ...base, status }`) a hidden class of its own;
 * a re-run of a million rows made a million, most of its memory (docs/architecture.md, Memory).
 */
export function rowOutcome(subject: OutcomeSubject, verdict: OutcomeVerdict): RowOutcome {
  return {
    status: verdict.status,
    number: subject.number,
    numberType: subject.numberType,
    operation: subject.operation,
    sequence: subject.sequence,
    ticket: verdict.ticket,
    httpStatus: verdict.httpStatus,
    message: verdict.message,
    next: verdict.next,
    e911: verdict.e911 ?? "",
  };
}

/** The `result_*` cells of one results row. */
export interface RowOutcome {
  readonly status: RowStatus;
  /** 10 digits, "" if unparseable. */
  readonly number: string;
  readonly numberType: NumberKind | null;
  /** "POST /v2/NumberPorts/Inbound/DIDs", "" when none. */
  readonly operation: string;
  /** The sequence number in this run of the request that carried it (the `result_batch` column). */
  readonly sequence: number | null;
  readonly ticket: string;
  readonly httpStatus: number | null;
  readonly message: string;
  /** When it is not the status's usual one (USUAL_NEXT_STEP). */
  readonly next?: NextStep;
  /** The `result_e911` cell (docs/contract.md §6): what became of its 9-1-1 record; "" for a number that needs none. */
  readonly e911?: E911Result;
}

/** docs/contract.md §6 `result_e911`. */
export type E911Result = "" | "registered" | "verified" | "invalid" | "failed" | "unknown";
