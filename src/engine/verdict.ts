/**
 * What a number's state means (docs/contract.md §5): the one place where what earlier runs
 * recorded of a number (journal/prior.ts), what the account's order list holds of it
 * (account-orders.ts) and its row as it is now are weighed together. `submit` and `plan`
 * (earlier-runs.ts, settle.ts), `status` and `report` (learn-status.ts `sourceOf`) each say
 * the verdict in their own words; none decides it again. Pure: no I/O.
 */
import { rowFingerprint } from "../group/fingerprint.js";
import { unhandled } from "../journal/prior.js";
import type { E911State, EarlierRejection, EndedOrder, NumberState, Submitted } from "../journal/prior.js";
import type { ValidRow } from "../validate/types.js";

/** What the account says of a number the journal does not hold as submitted. */
export type AccountHold =
  /**
   * An open order holds it; `ticket` "" when PortInStatus could not name it (yet): `why` says why.
   * `portDate`: the PortDate PortInStatus gave the order, "" when none.
   */
  | { readonly kind: "open"; readonly orderId: string; readonly ticket: string; readonly status: string; readonly why: string; readonly portDate: string }
  /** A Closed order ported it in: PortInStatus says COMPLETED. */
  | { readonly kind: "ported"; readonly orderId: string; readonly ticket: string; readonly status: string }
  /**
   * A Closed order the losing carrier rejected, for a number the journal knows nothing of (a
   * lost journal, another sheet): `order` as PortInStatus gave it, and what it was sent with.
   */
  | { readonly kind: "rejected"; readonly orderId: string; readonly ticket: string; readonly status: string; readonly order: EndedOrder; readonly sentWith: SentWith };

/** What PortInStatus says an order was sent with: the PortForm's CustomerAccountNumber and CustomerName ("" when it did not say). */
export interface SentWith {
  readonly accountNumber: string;
  readonly endUserName: string;
}

/** The row as the sheet has it now, against the row as an earlier run sent it. */
export interface RowNow {
  /**
   * Whether the row differs from the one sent under `fingerprint` (group/fingerprint.ts);
   * "" is no row's fingerprint, so a rejection that kept none counts as changed. Asked only
   * where the answer matters: a digest is most of a re-run's cost per row.
   */
  readonly changedSince: (fingerprint: string) => boolean;
  /** Whether the row differs from what an order outside the journal was sent with, as far as PortInStatus says. */
  readonly differsFrom: (sent: SentWith) => boolean;
}

/** A row taken as it was sent: an invalid row, or one `report` knows only by its number. */
export const AS_SENT: RowNow = { changedSince: () => false, differsFrom: () => false };

/**
 * A valid row as it is now. `changedSince` works out the row's digest (group/fingerprint.ts)
 * unless given a cheaper way (earlier-runs.ts keeps one verdict a row). `differsFrom`: a value
 * PortInStatus did not give ("") differs from nothing, so an order that says nothing of what
 * it was sent with keeps its rejection until --retry-rejected, or until the journal it is
 * recorded in sees the row change.
 */
export function rowNowOf(row: ValidRow, changedSince: (fingerprint: string) => boolean = (fingerprint) => rowFingerprint(row) !== fingerprint): RowNow {
  // Both members are text (catalog/members.ts); anything else is no match for what was sent.
  const text = (member: string): string => {
    const value = row.portForm[member];
    return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
  };
  return {
    changedSince,
    differsFrom: (sent) =>
      (sent.accountNumber !== "" && text("CustomerAccountNumber") !== sent.accountNumber.trim()) || (sent.endUserName !== "" && text("CustomerName") !== sent.endUserName.trim()),
  };
}

/** A number an earlier run sent without learning the outcome. */
export type UnsureState = Extract<NumberState, { readonly kind: "pending" | "unknown" }>;

/** What becomes of one number; each consumer switches on `kind`, so a new verdict is a compile error wherever it must be said. */
export type Verdict =
  /**
   * This journal's runs hold it as submitted, or PortInStatus confirmed it: `skipped` with its
   * ticket, never sent again. `changed`: the row differs from the one the order holds.
   */
  | { readonly kind: "submitted"; readonly submitted: Submitted; readonly changed: boolean }
  /**
   * This journal's request carried it, and the service refused it because an order placed
   * outside the journal already held it (a run beside this one sent it first; the web portal):
   * sent, not this journal's order. `skipped` with that order's ticket, never sent again;
   * `status` follows that order.
   */
  | { readonly kind: "refused"; readonly submitted: Submitted }
  /**
   * An order on the account's list holds it: never sent; `skipped` with that order's ticket, or
   * `unknown` while PortInStatus gives none. `earlierRun`: the number's state when an earlier
   * run of this journal sent it without learning the outcome, so the order is its own; else null.
   */
  | { readonly kind: "held"; readonly hold: AccountHold; readonly earlierRun: UnsureState | null }
  /** Sent by an earlier run without a learned outcome, and no order on the list holds it: PortInStatus decides (confirm.ts). */
  | { readonly kind: "unsure"; readonly state: UnsureState }
  /** Rejected earlier and its row unchanged: `rejected` until the row changes, or --retry-rejected. */
  | { readonly kind: "rejected"; readonly rejection: EarlierRejection }
  /** Nothing holds it: planned and sent. `rejection`: the earlier rejection a changed row (or --retry-rejected) answers. */
  | { readonly kind: "send"; readonly rejection: EarlierRejection | null };

export interface VerdictInput {
  /** What earlier runs recorded of the number (journal/prior.ts `stateOf`). */
  readonly state: NumberState;
  /** What the account's order list holds of it; undefined when it holds nothing, or was not read. */
  readonly hold?: AccountHold | undefined;
  /** The row now; AS_SENT when omitted. */
  readonly row?: RowNow;
  /** --retry-rejected: an unchanged rejected row is sent again. */
  readonly retryRejected?: boolean;
}

const SEND: Verdict = { kind: "send", rejection: null };

/**
 * The journal's submission comes first: a ticket is a fact no later answer undoes (prior.ts).
 * Then an order on the account, before any earlier rejection; then the number's own state.
 */
export function verdictOf(input: VerdictInput): Verdict {
  const { state } = input;
  const row = input.row ?? AS_SENT;
  // A carrier's rejection on the list speaks only for a number the journal knows nothing of: it
  // knows its own rejections, and an unsure number's PortInStatus answers for it.
  const rejectedOrder = input.hold?.kind === "rejected" ? input.hold : undefined;
  const hold = rejectedOrder === undefined ? input.hold : undefined;
  switch (state.kind) {
    case "submitted":
      // Whatever the row is now, the order holds the row another sent: this journal's never took.
      if (state.refused === true) return { kind: "refused", submitted: state };
      // The order holds the row as it was sent: an edit since changes nothing at the service.
      return { kind: "submitted", submitted: state, changed: state.fingerprint !== undefined && row.changedSince(state.fingerprint) };
    case "pending":
    case "unknown":
      return hold === undefined ? { kind: "unsure", state } : { kind: "held", hold, earlierRun: state };
    case "rejected":
      if (hold !== undefined) return { kind: "held", hold, earlierRun: null };
      // The service would answer an unchanged row the same way: resending it every run (a cron
      // job every 20 minutes) only repeats the rejection. A changed row is the user's fix.
      return input.retryRejected === true || row.changedSince(state.fingerprint) ? { kind: "send", rejection: state } : { kind: "rejected", rejection: state };
    case "none": {
      if (hold !== undefined) return { kind: "held", hold, earlierRun: null };
      if (rejectedOrder === undefined) return SEND;
      // Rebuilt from the account: resent once the row differs from what the order was sent with.
      const rejection: EarlierRejection = { requestId: "", message: rejectedOrder.order.reason, httpStatus: null, fingerprint: "", order: rejectedOrder.order };
      return input.retryRejected === true || row.differsFrom(rejectedOrder.sentWith) ? { kind: "send", rejection } : { kind: "rejected", rejection };
    }
    default:
      return unhandled(state);
  }
}

/**
 * The day an order on the account moves a row's numbers, when it is not the day the row asks for
 * (docs/contract.md §5, §6): `held`, the order's PortDate (a date, or a date and time), against
 * the row's RequestedPortDate. The account's date is the one that holds; the sheet's is what
 * the user expects, so a difference is always said. null when they agree, or either is no date.
 */
export function portDateApart(held: string, requested: string): string | null {
  const day = held.slice(0, 10);
  if (!DAY.test(day) || !DAY.test(requested) || day === requested) return null;
  return day;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What a number's 9-1-1 registration calls for (docs/contract.md §1.5, docs/verdicts.md "9-1-1
 * records"), from what earlier runs recorded of it and its row's address now (its fingerprint):
 * - `register`: none was ever sent: POST it;
 * - `registered`: registered with this address: send nothing;
 * - `replace`: registered with another address: PUT this one;
 * - `ask`: an earlier registration's outcome is not known to have registered it (killed
 *   between intent and answer, a 500, a refusal, a failure): GET the record first, never a
 *   second POST on a guess (e911AfterAsking).
 */
export type E911Verdict = { readonly kind: "register" } | { readonly kind: "registered" } | { readonly kind: "replace" } | { readonly kind: "ask" };

export function e911VerdictOf(state: E911State | undefined, fingerprint: string): E911Verdict {
  if (state === undefined) return { kind: "register" };
  if (state.kind === "unsure") return { kind: "ask" };
  return state.address === fingerprint ? { kind: "registered" } : { kind: "replace" };
}

/** What an `ask` verdict becomes once the service showed the number's record (null: it has none), as fingerprints. */
export function e911AfterAsking(recordFingerprint: string | null, fingerprint: string): Exclude<E911Verdict, { kind: "ask" }> {
  if (recordFingerprint === null) return { kind: "register" };
  return recordFingerprint === fingerprint ? { kind: "registered" } : { kind: "replace" };
}
