/**
 * What a valid row becomes because of earlier runs on the same journal (docs/contract.md §5): a number
 * already submitted is `skipped` with its ticket; one rejected earlier stays `rejected` until
 * its row changes; one an earlier run left unsure is first confirmed with PortInStatus
 * (confirm.ts) and then `skipped`, `unknown`, or planned again.
 */
import type { PriorState } from "../journal/prior.js";
import { rowFingerprint } from "../plan/fingerprint.js";
import type { RowOutcome } from "../results/status.js";
import { describeOperation } from "../catalog/operations.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { confirmNumbers, unsureNumbers } from "./confirm.js";
import type { Confirmation, ConfirmOptions } from "./confirm.js";

export interface EarlierRuns {
  /** The row's outcome without sending it, or null when it is to be planned and sent. */
  settle(row: ValidRow): RowOutcome | null;
}

export interface ReviewOptions extends ConfirmOptions {
  readonly retryUnknown: boolean;
  readonly retryRejected: boolean;
}

const NO_HISTORY: EarlierRuns = { settle: () => null };

/** Confirms the valid rows' unsure numbers with the service, then settles rows by the journal and those answers. */
export async function reviewEarlierRuns(prior: PriorState | null, rows: Iterable<CheckedRow>, options: ReviewOptions): Promise<EarlierRuns> {
  if (prior === null) return NO_HISTORY;
  const valid = function* (): Generator<string> {
    for (const row of rows) if (row.valid) yield row.number;
  };
  const confirmations = await confirmNumbers(unsureNumbers(valid(), prior), options);
  return { settle: (row) => settleRow(row, prior, confirmations, options) };
}

function settleRow(row: ValidRow, prior: PriorState, confirmations: ReadonlyMap<string, Confirmation>, options: ReviewOptions): RowOutcome | null {
  const base = { number: row.number, numberType: row.numberKind, operation: describeOperation(row.operation), sequence: null, httpStatus: null };
  const submitted = prior.submitted.get(row.number);
  if (submitted) {
    return { ...base, status: "skipped", ticket: submitted.ticket, message: "submitted by an earlier run; not sent again" };
  }
  const rejected = prior.rejected.get(row.number);
  if (rejected) {
    // The service would answer an unchanged row the same way: resending it every run (a cron
    // job every 20 minutes) only repeats the rejection. A changed row is the user's fix.
    if (options.retryRejected || rowFingerprint(row) !== rejected.fingerprint) return null;
    return {
      ...base,
      status: "rejected",
      ticket: "",
      httpStatus: rejected.httpStatus,
      message: `rejected by an earlier run; fix the row or pass --retry-rejected (the service said: ${rejected.message})`,
      next: "fix-or-retry-rejected",
    };
  }
  const confirmation = confirmations.get(row.number);
  if (confirmation === undefined) return null;

  const unknownEarlier = prior.unknown.get(row.number);
  const earlier = unknownEarlier
    ? `an earlier run sent this number but could not learn the outcome (${unknownEarlier.message || "no answer"})`
    : "an earlier run sent this number and stopped before learning the outcome";
  switch (confirmation.kind) {
    case "present":
      return {
        ...base,
        status: "skipped",
        ticket: confirmation.ticket,
        message: `accepted by an earlier run (confirmed by PortInStatus: ${confirmation.status}); not sent again`,
      };
    case "absent":
      if (options.retryUnknown) return null;
      return {
        ...base,
        status: "unknown",
        ticket: "",
        next: "retry-unknown",
        message: `${earlier}; ${confirmation.status ? `PortInStatus says ${confirmation.status}` : "PortInStatus finds no port-in for it"}: re-run with --retry-unknown to send it again`,
      };
    case "unchecked":
      // Never resent on a guess, --retry-unknown or not: the service may have it.
      return {
        ...base,
        status: "unknown",
        ticket: "",
        next: "run-again-to-check",
        message: `${earlier}; checking its port-in status failed (${confirmation.reason}), so it is not sent again: re-run later to check again`,
      };
  }
}
