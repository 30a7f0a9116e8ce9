/**
 * What `portin status` reports for one row (docs/contract.md §6): where the row's port-in
 * order stands, as the service says it, or why there is none to ask about; and the
 * `status_*` columns that carry it after the input's own cells.
 */
import { escapeFormula } from "./formula.js";
import type { ColumnSet } from "./columns.js";

/**
 * - `open`, `completed`, `ended`: the service's Status, read by catalog/account.ts portInPhase;
 * - `not-found`: the service has no such ticket, or no port-in for an unsure number (404);
 * - `unchecked`: the question failed, or was not asked (PortInStatus unavailable, interrupted);
 * - `not-submitted`: the journal holds no accepted order for the row.
 */
export type OrderState = "open" | "completed" | "ended" | "not-found" | "unchecked" | "not-submitted";

/** portin's own words in the `status` column, for rows the service gave no Status for. */
export const OWN_STATUS: Readonly<Record<"not-found" | "unchecked" | "not-submitted", string>> = {
  "not-found": "not-found",
  unchecked: "unchecked",
  "not-submitted": "not-submitted",
};

export interface OrderStatus {
  /** The service's Status word as it wrote it, or one of OWN_STATUS. */
  readonly status: string;
  readonly state: OrderState;
  readonly ticket: string;
  readonly portDate: string;
  readonly rejectReason: string;
  readonly rejectSummary: string;
  /** `6P NAME: END USER NAME ON LSR DOES NOT MATCH CSR`, `;`-joined. */
  readonly rejectDetails: string;
  /** When the service answered, UTC ISO; "" when it was not asked. */
  readonly checkedAt: string;
  /** One line: what to do, or for a row never submitted, why. */
  readonly message: string;
}

/** Where a row's order stands, without what to do about it. */
export type OrderFacts = Omit<OrderStatus, "message">;

/**
 * The one way an OrderStatus is made: every one in one shape, never a spread with more
 * members after it (row-outcome.ts rowOutcome says why: a million hidden classes).
 */
export function orderStatus(facts: OrderFacts, message: string): OrderStatus {
  return {
    status: facts.status,
    state: facts.state,
    ticket: facts.ticket,
    portDate: facts.portDate,
    rejectReason: facts.rejectReason,
    rejectSummary: facts.rejectSummary,
    rejectDetails: facts.rejectDetails,
    checkedAt: facts.checkedAt,
    message,
  };
}

/** A row with no order the service told of: never submitted, not found, or not learned (`unchecked`); `message` says why. */
export function noOrder(state: keyof typeof OWN_STATUS, ticket: string, checkedAt: string, message: string): OrderStatus {
  return orderStatus({ status: OWN_STATUS[state], state, ticket, portDate: "", rejectReason: "", rejectSummary: "", rejectDetails: "", checkedAt }, message);
}

/** States that make `portin status` exit 1 (docs/contract.md §7): ended without porting, or not learned. */
export const NEEDS_ATTENTION_STATES: readonly OrderState[] = ["ended", "not-found", "unchecked"];

const COLUMNS: readonly { readonly name: string; readonly cell: (s: OrderStatus) => string }[] = [
  { name: "status", cell: (s) => s.status },
  { name: "status_ticket", cell: (s) => s.ticket },
  { name: "status_port_date", cell: (s) => s.portDate },
  { name: "status_reject_reason", cell: (s) => s.rejectReason },
  { name: "status_reject_summary", cell: (s) => s.rejectSummary },
  { name: "status_reject_details", cell: (s) => s.rejectDetails },
  { name: "status_checked_at", cell: (s) => s.checkedAt },
  { name: "status_message", cell: (s) => s.message },
];

/** Every cell comes from the service or portin, and may start like a formula: each is made safe. */
export const STATUS_COLUMN_SET: ColumnSet<OrderStatus> = {
  names: COLUMNS.map((column) => column.name),
  cells: (status) => COLUMNS.map((column) => escapeFormula(column.cell(status))),
};

/** A status row with its trunk and 9-1-1 check (engine/trunk-check.ts), for the report with `status_on_trunk` and `status_e911`. */
export interface CheckedOrderStatus {
  readonly order: OrderStatus;
  readonly onTrunk: string;
  readonly e911: string;
}

/** docs/contract.md §6: on a sheet with a regular number on a SIP trunk (or 9-1-1 addresses in it or the defaults), `status_on_trunk` and `status_e911` follow. */
export const TRUNK_STATUS_COLUMN_SET: ColumnSet<CheckedOrderStatus> = {
  names: [...STATUS_COLUMN_SET.names, "status_on_trunk", "status_e911"],
  cells: (checked) => [...STATUS_COLUMN_SET.cells(checked.order), checked.onTrunk, checked.e911],
};
