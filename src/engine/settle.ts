/**
 * Stage 2 of a run, settle: what earlier runs on the journal settled (earlier-runs.ts, which may
 * ask PortInStatus about unsure numbers), then the requests the remaining valid rows make.
 */
import { describeOperation } from "../catalog/operations.js";
import { stateOf, unhandled } from "../journal/prior.js";
import type { PriorState } from "../journal/prior.js";
import { groupRequests } from "../group/requests.js";
import type { PortRequest } from "../group/requests.js";
import type { RowOutcome } from "../results/row-outcome.js";
import type { CheckedRow, InvalidRow, ValidRow } from "../validate/types.js";
import { reviewEarlierRuns } from "./earlier-runs.js";
import type { ReviewOptions } from "./earlier-runs.js";

export interface Settlement {
  /** By row index: the outcome of each row settled without sending (invalid, or settled by earlier runs). */
  readonly settled: readonly (RowOutcome | undefined)[];
  /** What the other rows make, in order of sequence number. */
  readonly requests: readonly PortRequest[];
  /** By row index, for planned rows sent again after their order ended: what their message says first. */
  readonly notes: ReadonlyMap<number, string>;
}

export interface SettleOptions extends ReviewOptions {
  readonly maxPerRequest: number;
}

export async function settleRows(rows: readonly CheckedRow[], prior: PriorState | null, options: SettleOptions): Promise<Settlement> {
  const earlier = await reviewEarlierRuns(prior, rows, options);
  const settled = new Array<RowOutcome | undefined>(rows.length);
  const toPlan: ValidRow[] = [];
  const notes = new Map<number, string>();
  for (const [i, row] of rows.entries()) {
    const outcome = row.valid ? earlier.settle(row) : (submittedEarlier(row, prior) ?? invalidOutcome(row));
    if (outcome) {
      settled[i] = outcome;
      continue;
    }
    toPlan.push(row as ValidRow);
    // What the row's values became for the carrier (docs/contract.md §3) is part of what it sends.
    const said = [earlier.resendNote(row as ValidRow), (row as ValidRow).notes ?? null].filter((n) => n !== null);
    if (said.length > 0) notes.set(i, said.join("; "));
  }
  return { settled, requests: groupRequests(toPlan, options.maxPerRequest), notes };
}

/**
 * A row an earlier run submitted stays `skipped` though it would be invalid today (docs/contract.md
 * §5: its order holds what was sent): above all a RequestedPortDate that has passed since, which
 * would otherwise make every nightly run after the port date exit 1.
 */
function submittedEarlier(row: InvalidRow, prior: PriorState | null): RowOutcome | null {
  const state = stateOf(prior, row.number);
  switch (state.kind) {
    case "submitted":
      return {
        ...invalidOutcome(row),
        status: "skipped",
        ticket: state.ticket,
        message: `submitted by an earlier run; not sent again (the row as it stands would be invalid: ${row.reason})`,
      };
    case "pending":
    case "unknown":
    case "rejected":
    case "none":
      return null;
    default:
      return unhandled(state);
  }
}

function invalidOutcome(row: InvalidRow): RowOutcome {
  return {
    status: "invalid",
    number: row.number,
    numberType: row.numberKind,
    operation: row.operation ? describeOperation(row.operation) : "",
    sequence: null,
    ticket: "",
    httpStatus: null,
    message: row.reason,
  };
}
