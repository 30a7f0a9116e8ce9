/**
 * What a valid row becomes because of earlier runs on the same journal (docs/contract.md §5): a number
 * already submitted is `skipped` with its ticket; one rejected earlier stays `rejected` until
 * its row changes; one an earlier run left unsure is first confirmed with PortInStatus
 * (confirm.ts) and then `skipped`, `unknown`, or planned again.
 */
import * as outcomes from "../messages/outcomes.js";
import { stateOf } from "../journal/prior.js";
import type { EarlierRejection, EndedOrder, PriorState, Submitted } from "../journal/prior.js";
import { rowFingerprint } from "../group/fingerprint.js";
import { rowOutcome, saysNotPortable } from "../results/row-outcome.js";
import type { OutcomeSubject, RowOutcome } from "../results/row-outcome.js";
import { describeOperation } from "../catalog/operations.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { accountHoldMessage, requestedPortDate } from "./account-orders.js";
import { inFlightMessage } from "./running-submit.js";
import type { RunningSubmit } from "./running-submit.js";
import { confirmNumbers, unsureRequests } from "./confirm.js";
import type { Confirmation, ConfirmOptions } from "./confirm.js";
import { rowNowOf, verdictOf } from "./verdict.js";
import type { AccountHold, RowNow, UnsureState, Verdict } from "./verdict.js";

export interface EarlierRuns {
  /** The row's outcome without sending it, or null when it is to be planned and sent. */
  settle(row: ValidRow): RowOutcome | null;
  /**
   * For a row to be sent again after its order ended (`status` learned the carrier rejected
   * it), what its results message says first: `resubmitted after ticket X was rejected: …`.
   */
  resendNote(row: ValidRow): string | null;
}

export interface ReviewOptions extends ConfirmOptions {
  readonly retryUnknown: boolean;
  readonly retryRejected: boolean;
  /** What the account's order list said of the numbers the journal does not hold as submitted (account-orders.ts). */
  readonly account?: ReadonlyMap<string, AccountHold>;
  /** The `submit` holding the journal while `plan` reads it, and what it has in flight (running-submit.ts). */
  readonly running?: RunningSubmit | null;
}

const NO_ACCOUNT: ReadonlyMap<string, AccountHold> = new Map();

/** Confirms the valid rows' unsure numbers with the service, then settles rows by the journal, the account and those answers. */
export async function reviewEarlierRuns(prior: PriorState | null, rows: readonly CheckedRow[], options: ReviewOptions): Promise<EarlierRuns> {
  const account = options.account ?? NO_ACCOUNT;
  if (prior === null && account.size === 0) return { settle: () => null, resendNote: () => null };
  const unchanged = sentRowMemo(rows.length);
  const unsure = function* (): Generator<string> {
    // Only a number whose verdict waits on PortInStatus: not one an order on the account holds.
    // Nor one a running `submit` has in flight: its answer is on the way (docs/contract.md §5).
    for (const row of rows) {
      if (!row.valid || options.running?.numbers.has(row.number) === true) continue;
      if (verdictOf({ state: stateOf(prior, row.number), hold: account.get(row.number) }).kind === "unsure") yield row.number;
    }
  };
  const confirmations = await confirmNumbers(unsureRequests(unsure(), prior), options);
  const verdictFor = (row: ValidRow): Verdict =>
    verdictOf({ state: stateOf(prior, row.number), hold: account.get(row.number), row: rowNow(row, unchanged), retryRejected: options.retryRejected });
  return {
    settle: (row) => outcomeOf(row, verdictFor(row), confirmations, options),
    resendNote: (row) => {
      const verdict = verdictFor(row);
      const order = verdict.kind === "send" ? verdict.rejection?.order : undefined;
      return order === undefined ? null : outcomes.resubmittedAfter(endedText(order));
    },
  };
}

/**
 * What PortInStatus showed of an unsure number that has no live order. When the only order
 * it shows is the one the number was sent again after, that is no news: the resend never
 * took (docs/contract.md §5), and `status` says the same (status-words.ts).
 */
export function absentText(confirmation: { readonly status?: string; readonly ticket?: string }, after: string | undefined): string {
  if (confirmation.status === undefined) return outcomes.NO_PORT_IN_FOUND;
  if (after !== undefined && confirmation.ticket === after) return outcomes.onlyTheEndedOrder(after, confirmation.status);
  return outcomes.portInStatusSays(confirmation.status);
}

/** "ticket PI-000003 was rejected: <reason>", or "ticket … ended as CANCELLED: …" for another end. */
function endedText(order: EndedOrder): string {
  return outcomes.orderEnded(order.ticket, order.status, order.reason);
}

/** Whether `row` is still the row sent under `fingerprint` (group/fingerprint.ts). */
type Unchanged = (row: ValidRow, fingerprint: string) => boolean;

function rowNow(row: ValidRow, unchanged: Unchanged): RowNow {
  return rowNowOf(row, (fingerprint) => !unchanged(row, fingerprint));
}

/**
 * Unchanged, worked out once a row: a settled row's outcome is worked out again each time it is
 * read rather than held (settle.ts), and a digest is most of its cost. A number's fingerprint
 * as sent is one fixed value of the journal's, so one verdict a row holds for every call.
 */
function sentRowMemo(rows: number): Unchanged {
  /** 0 not yet known, 1 unchanged, 2 changed. */
  const verdicts = new Uint8Array(rows);
  return (row, fingerprint) => {
    const known = verdicts[row.index];
    if (known === 1 || known === 2) return known === 1;
    const same = rowFingerprint(row) === fingerprint;
    if (row.index < rows) verdicts[row.index] = same ? 1 : 2;
    return same;
  };
}

/** The verdict (verdict.ts) in submit's words; null for a row to plan and send (docs/contract.md §5). */
function outcomeOf(row: ValidRow, verdict: Verdict, confirmations: ReadonlyMap<string, Confirmation>, options: ReviewOptions): RowOutcome | null {
  const base: OutcomeSubject = { number: row.number, numberType: row.numberKind, operation: describeOperation(row.operation), sequence: null };
  // Being sent right now by the `submit` holding the journal: neither planned nor asked about (docs/contract.md §5).
  if (verdict.kind !== "submitted" && verdict.kind !== "refused" && options.running?.numbers.has(row.number) === true) {
    return rowOutcome(base, { status: "skipped", ticket: "", httpStatus: null, message: inFlightMessage(options.running) });
  }
  switch (verdict.kind) {
    case "submitted":
      return fromSubmitted(base, verdict.submitted, verdict.changed);
    case "refused":
      return rowOutcome(base, { status: "skipped", ticket: verdict.submitted.ticket, httpStatus: null, message: `${outcomes.refusedEarlier(verdict.submitted.ticket)}; not sent again` });
    case "held":
      return fromHold(base, verdict.hold, verdict.earlierRun !== null, requestedPortDate(row));
    case "unsure":
      return fromConfirmation(base, verdict.state, confirmations.get(row.number), options);
    case "rejected":
      return fromRejected(base, verdict.rejection);
    case "send":
      return null;
  }
}

function fromSubmitted(base: OutcomeSubject, submitted: Submitted, changed: boolean): RowOutcome {
  if (changed) {
    return rowOutcome(base, { status: "skipped", ticket: submitted.ticket, httpStatus: null, message: outcomes.changedSinceSubmitted(submitted.ticket) });
  }
  const message = submitted.outside
    ? outcomes.inOrderPlacedOutside(submitted.ticket)
    : outcomes.SUBMITTED_EARLIER;
  return rowOutcome(base, { status: "skipped", ticket: submitted.ticket, httpStatus: null, message });
}


/**
 * Held by an order on the account that this journal did not place, or that an earlier run of
 * it sent (`earlierRun`) without learning the outcome; `requested`, the row's RequestedPortDate,
 * which an order placed outside may not keep. Never sent; when PortInStatus gives no
 * ticket for the order, the row is `unknown` (exit 1), not `skipped`: nothing says the order
 * will ever port, and only the service can say what it is (docs/contract.md §5).
 */
function fromHold(base: OutcomeSubject, hold: AccountHold, earlierRun: boolean, requested: string): RowOutcome {
  if (hold.ticket === "") {
    const held = earlierRun
      ? outcomes.acceptedEarlierInOpenOrder(hold.orderId, hold.kind === "open" ? hold.why : "")
      : accountHoldMessage(hold);
    const message = outcomes.askAboutOrder(held, hold.orderId);
    return rowOutcome(base, { status: "unknown", ticket: "", httpStatus: null, message, next: "ask-about-order" });
  }
  const message = earlierRun ? outcomes.acceptedEarlierConfirmed(hold.status) : accountHoldMessage(hold, requested);
  return rowOutcome(base, { status: "skipped", ticket: hold.ticket, httpStatus: null, message });
}

/** Rejected earlier, its row unchanged since. */
function fromRejected(base: OutcomeSubject, rejected: EarlierRejection): RowOutcome {
  if (rejected.order) {
    const { order } = rejected;
    return rowOutcome(base, {
      status: "rejected",
      ticket: order.ticket,
      httpStatus: null,
      message: outcomes.carrierRejectedUnchanged(endedText(order), order.details),
      next: "fix-carrier-rejection",
    });
  }
  // No edit makes a number portable: outcomes.ts adds what a person can do (docs/contract.md §6).
  if (saysNotPortable(rejected.message)) {
    return rowOutcome(base, { status: "rejected", ticket: "", httpStatus: rejected.httpStatus, message: outcomes.rejectedEarlierNotPortable(rejected.message) });
  }
  return rowOutcome(base, {
    status: "rejected",
    ticket: "",
    httpStatus: rejected.httpStatus,
    message: outcomes.rejectedEarlier(rejected.message),
    next: "fix-or-retry-rejected",
  });
}

/** A number an earlier run sent without learning the outcome, settled by what PortInStatus said of it (confirm.ts). */
function fromConfirmation(
  base: OutcomeSubject,
  unsure: UnsureState,
  confirmation: Confirmation | undefined,
  options: ReviewOptions,
): RowOutcome | null {
  if (confirmation === undefined) return null;
  const earlier =
    unsure.kind === "unknown"
      ? outcomes.sentWithoutOutcome(unsure.message)
      : outcomes.SENT_THEN_STOPPED;
  switch (confirmation.kind) {
    case "present":
      return rowOutcome(base, {
        status: "skipped",
        ticket: confirmation.ticket,
        httpStatus: null,
        message: outcomes.acceptedEarlierConfirmed(confirmation.status),
      });
    case "absent":
      if (options.retryUnknown) return null;
      return rowOutcome(base, { status: "unknown", ticket: "", httpStatus: null, next: "retry-unknown", message: outcomes.unsureAbsent(earlier, absentText(confirmation, unsure.after)) });
    case "unchecked":
      // Never resent on a guess, --retry-unknown or not: the service may have it.
      return rowOutcome(base, {
        status: "unknown",
        ticket: "",
        httpStatus: null,
        next: "run-again-to-check",
        message: outcomes.unsureUnchecked(earlier, confirmation.reason),

      });
  }
}
