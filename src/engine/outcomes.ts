/**
 * What each row became, from the settlement and, for a submit, what the service answered: the one
 * place a row's outcome is worked out, for the results and the summary alike.
 */
import * as outcomes from "../messages/outcomes.js";
import { describeOperation } from "../catalog/operations.js";
import type { PortRequest } from "../group/requests.js";
import { adviseNotPortable, rowOutcome, withMessage } from "../results/row-outcome.js";
import type { OutcomeVerdict, RowOutcome } from "../results/row-outcome.js";
import type { DispatchReport, StopReason } from "../send/dispatch.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { refusedHoldMessage, refusedUnfoundMessage, requestedPortDate } from "./account-orders.js";
import { saysPending } from "./pending-answers.js";
import type { AccountHold } from "./verdict.js";
import type { Settlement } from "./settle.js";

const PLANNED: OutcomeVerdict = { status: "planned", httpStatus: null, message: "", ticket: "" };

/**
 * Returns `outcomeOf(i)` for row i; `report` null for a dry run. `held`: numbers the service
 * refused as already pending that an order turned out to hold (pending-answers.ts): `skipped`,
 * saying they were sent and refused.
 */
export function rowOutcomes(
  rows: readonly CheckedRow[],
  settlement: Settlement,
  report: DispatchReport | null,
  held: ReadonlyMap<string, AccountHold> = new Map(),
): (index: number) => RowOutcome {
  // A typed array rather than a Map: a million rows (bench/README.md).
  const requestOf = new Uint32Array(rows.length);
  settlement.requests.forEach((request, at) => {
    for (const row of request.numbers) requestOf[row.index] = at + 1;
  });
  return (index) => {
    const settled = settlement.settledOutcome(index);
    // A number the service says is not portable: advice a person can follow (docs/contract.md §6).
    if (settled !== undefined) return adviseNotPortable(settled);
    const request = settlement.requests[(requestOf[index] ?? 0) - 1] as PortRequest;
    const row = rows[index] as ValidRow;
    const sent = report === null ? carried(request, row, PLANNED) : sentOutcome(request, row, report);
    const outcome = sent.status === "rejected" ? refusedOutcome(sent, held.get(row.number), requestedPortDate(row)) : sent;
    const note = settlement.notes.get(index);
    // A row sent again after its order ended says so first (docs/contract.md §5).
    if (note === undefined) return adviseNotPortable(outcome);
    return adviseNotPortable(withMessage(outcome, outcome.message === "" ? note : `${note}; ${outcome.message}`));
  };
}

/**
 * A row the service refused (docs/contract.md §5, "A pending-port-in answer"): sent, and refused
 * because an order already holds it: `skipped` with that order's ticket when PortInStatus
 * found it, saying both; `rejected` when it did not (yet), still saying the row was sent and
 * why it was refused, with the step that resolves it. Any other refusal stays as the service said it.
 */
function refusedOutcome(sent: RowOutcome, hold: AccountHold | undefined, requested: string): RowOutcome {
  if (hold !== undefined) return rowOutcome(sent, { status: "skipped", ticket: hold.ticket, httpStatus: sent.httpStatus, message: refusedHoldMessage(hold, requested), next: "refused-held" });
  if (!saysPending(sent.message)) return sent;
  return withMessage(sent, refusedUnfoundMessage(sent.message), "run-again-refused-held");
}

/** Row `row`'s outcome as `request` carried it. */
function carried(request: PortRequest, row: ValidRow, shared: OutcomeVerdict): RowOutcome {
  return rowOutcome({ number: row.number, numberType: row.numberKind, operation: describeOperation(request.operation), sequence: request.sequence }, shared);
}

/**
 * What a sent row became: its request's outcome, or, when a rejection named some of the
 * request's numbers, its own part of the message or the outcome of the request that carried
 * it again (docs/contract.md §4). Never another row's reason.
 */
function sentOutcome(planned: PortRequest, row: ValidRow, report: DispatchReport): RowOutcome {
  for (let request = planned; ; ) {
    const result = report.results.get(request.sequence);
    if (result === undefined) return carried(request, row, notSent(report.stopped));
    if (result.named === null) return carried(request, row, result);
    const part = result.named.get(row.number);
    if (part !== undefined) return carried(request, row, { status: result.status, ticket: result.ticket, httpStatus: result.httpStatus, message: part });
    if (result.resentAs === null) {
      return carried(request, row, {
        status: "failed",
        httpStatus: result.httpStatus,
        ticket: "",
        message: outcomes.REJECTED_FOR_OTHERS,
      });
    }
    request = result.resentAs;
  }
}

/** Rows whose request never started because the run stopped sending. */
function notSent(stopped: StopReason | null): OutcomeVerdict {
  const base = { status: "failed", httpStatus: null, ticket: "" } as const;
  switch (stopped?.kind) {
    case "auth":
      return { ...base, message: outcomes.notSentAfterAuth(stopped.message), next: "fix-credentials" };
    case "signal":
      return { ...base, message: outcomes.NOT_SENT_INTERRUPTED, next: "run-again-interrupted" };
    case "journal":
      return { ...base, message: outcomes.notSentBecause(stopped.error.message) };
    default:
      return { ...base, message: outcomes.NOT_SENT };

  }
}
