/**
 * Each row's `result_e911` and what its message adds (docs/contract.md §6): from what
 * prepare read of its address, what this run verified and what it registered.
 */
import * as e911Words from "../messages/e911.js";
import type { E911Registration } from "./e911-register.js";
import type { VerifiedRows } from "./e911-verify.js";
import type { RowOutcome } from "../results/row-outcome.js";
import { rowOutcome } from "../results/row-outcome.js";
import { takesE911 } from "../validate/e911.js";
import type { E911Rows } from "../validate/e911.js";
import type { CheckedRow } from "../validate/types.js";

/** docs/contract.md §2: a trunk number the sheet gives no address for. */
export const NO_E911_ADDRESS = e911Words.NO_E911_ADDRESS;

export interface E911Run {
  readonly rows: E911Rows;
  readonly verified: VerifiedRows;
  /** What this run registered, or (for a plan) what earlier runs did as the row has it now. */
  readonly registered: ReadonlyMap<number, E911Registration>;
  /** A plan says "verified" of a row it verified and registers nothing. */
  readonly plan: boolean;
}

/**
 * `outcomeOf` with each row's 9-1-1 cell and words. A trunk number without an address says so
 * whether or not the sheet gives addresses at all (docs/contract.md §2 "9-1-1 addresses"): a
 * sheet without e911 columns is where such numbers are most likely. The cell itself is written
 * only when the sheet or defaults give addresses (port-in.ts picks the columns).
 */
/** The statuses of a row whose port is planned, on its way, or done: a number that rings on its trunk. */
const GOES_AHEAD: ReadonlySet<RowOutcome["status"]> = new Set(["planned", "submitted", "skipped", "unknown"]);

export function withE911(rows: readonly CheckedRow[], run: E911Run, outcomeOf: (index: number) => RowOutcome): (index: number) => RowOutcome {
  return (index) => {
    const outcome = outcomeOf(index);
    const row = rows[index];
    if (run.rows.invalid.has(index)) return rowOutcome(outcome, { ...verdictOf(outcome), e911: "invalid" });
    if (row === undefined || !row.valid || !takesE911(row.operation)) return outcome;
    if (!run.rows.addresses.has(index)) {
      // Only a port that goes ahead needs its 9-1-1 address before it completes: a rejected or
      // failed row's own words say what to do first (docs/contract.md §2 "9-1-1 addresses").
      return GOES_AHEAD.has(outcome.status) ? rowOutcome(outcome, { ...verdictOf(outcome), message: joined(outcome.message, NO_E911_ADDRESS) }) : outcome;
    }
    const registration = run.registered?.get(index);
    if (registration !== undefined) return rowOutcome(outcome, { ...verdictOf(outcome), message: joined(outcome.message, registration.message), e911: registration.result });
    if (run.plan && run.verified.has(index)) return rowOutcome(outcome, { ...verdictOf(outcome), e911: "verified" });
    return outcome;
  };
}

function verdictOf(outcome: RowOutcome): Pick<RowOutcome, "status" | "ticket" | "httpStatus" | "message" | "next"> {
  return { status: outcome.status, ticket: outcome.ticket, httpStatus: outcome.httpStatus, message: outcome.message, next: outcome.next };
}

function joined(message: string, more: string): string {
  if (more === "") return message;
  return message === "" ? more : `${message}; ${more}`;
}
