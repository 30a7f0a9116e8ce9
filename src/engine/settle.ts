/**
 * Stage 2 of a run, settle: what earlier runs on the journal settled (earlier-runs.ts, which may
 * ask PortInStatus about unsure numbers), then the requests the remaining valid rows make.
 */
import * as outcomes from "../messages/outcomes.js";
import { describeOperation } from "../catalog/operations.js";
import { stateOf } from "../journal/prior.js";
import type { PriorState } from "../journal/prior.js";
import { groupRequests } from "../group/requests.js";
import type { PortRequest } from "../group/requests.js";
import { rowOutcome } from "../results/row-outcome.js";
import type { OutcomeSubject, RowOutcome } from "../results/row-outcome.js";
import type { CheckedRow, InvalidRow, ValidRow } from "../validate/types.js";
import { reviewEarlierRuns } from "./earlier-runs.js";
import type { ReviewOptions } from "./earlier-runs.js";
import { verdictOf } from "./verdict.js";

export interface Settlement {
  /**
   * The outcome of row `index` when it is settled without sending (invalid, or settled by
   * earlier runs); undefined for a row that is planned. Worked out anew on each call, as a
   * planned row's is (outcomes.ts): a re-run of a million submitted rows holds no million
   * outcomes (docs/architecture.md, Memory).
   */
  settledOutcome(index: number): RowOutcome | undefined;
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
  // Pure in the row: the journal, the account and PortInStatus's answers were read before.
  const settle = (row: CheckedRow): RowOutcome | null => (row.valid ? earlier.settle(row) : (submittedEarlier(row, prior) ?? invalidOutcome(row)));
  /** 1 for a row that is planned. */
  const planned = new Uint8Array(rows.length);
  const toPlan: ValidRow[] = [];
  const notes = new Map<number, string>();
  for (const [i, row] of rows.entries()) {
    if (settle(row) !== null) continue;
    planned[i] = 1;
    toPlan.push(row as ValidRow);
    // What the row's values became for the carrier (docs/contract.md §3) is part of what it sends.
    const said = [earlier.resendNote(row as ValidRow), (row as ValidRow).notes ?? null].filter((n) => n !== null);
    if (said.length > 0) notes.set(i, said.join("; "));
  }
  return {
    settledOutcome: (index) => {
      const row = rows[index];
      return row === undefined || planned[index] === 1 ? undefined : (settle(row) ?? undefined);
    },
    requests: groupRequests(toPlan, options.maxPerRequest),
    notes,
  };
}

/**
 * A row an earlier run submitted stays `skipped` though it would be invalid today (docs/contract.md
 * §5: its order holds what was sent): above all a RequestedPortDate that has passed since, which
 * would otherwise make every nightly run after the port date exit 1.
 */
function submittedEarlier(row: InvalidRow, prior: PriorState | null): RowOutcome | null {
  // The row as it stands is not what was sent, and says nothing of the order: taken as sent.
  const verdict = verdictOf({ state: stateOf(prior, row.number) });
  if (verdict.kind !== "submitted" && verdict.kind !== "refused") return null;
  const earlier = verdict.kind === "refused" ? outcomes.refusedEarlier(verdict.submitted.ticket) : outcomes.SUBMITTED_BY_EARLIER_RUN;
  return rowOutcome(invalidSubject(row), {
    status: "skipped",
    ticket: verdict.submitted.ticket,
    httpStatus: null,
    message: outcomes.submittedEarlierNowInvalid(row.reason, earlier),
  });
}

function invalidSubject(row: InvalidRow): OutcomeSubject {
  return { number: row.number, numberType: row.numberKind, operation: row.operation ? describeOperation(row.operation) : "", sequence: null };
}

function invalidOutcome(row: InvalidRow): RowOutcome {
  return rowOutcome(invalidSubject(row), { status: "invalid", ticket: "", httpStatus: null, message: row.reason });
}
