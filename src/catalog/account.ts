/**
 * What the service says the account has (docs/contract.md §1.1: its SIP trunks, offerings and the
 * losing-carrier providers) and where a number's port-in stands, as portin's stages use
 * them; service/answers.ts parses the service's answers into these.
 */

/** What the account has, from the three lookups (docs/contract.md §1.1). */
export interface Lookups {
  readonly trunks: readonly Trunk[];
  readonly offerings: readonly Offering[];
  readonly providers: readonly Provider[];
}

export interface Trunk {
  /** 10 digits. */
  readonly pilotNumber: string;
  readonly label: string;
}
export interface Offering {
  readonly offeringId: string;
  /** Any integer; the validator refuses Types outside 1..7 per row. */
  readonly type: number;
  readonly name: string;
}
export interface Provider {
  readonly id: number;
  readonly name: string;
}
/** A day on which the service ports nothing (docs/contract.md §1.1 `GET /Holidays`). */
export interface Holiday {
  /** YYYY-MM-DD. */
  readonly date: string;
  /** "Christmas Day"; "" when the service gave none. */
  readonly name: string;
}

export interface PortInStatus {
  readonly ticketId: string;
  /** The service's word, as it wrote it: SUBMITTED, CONFIRMED, COMPLETED, REJECTED, CANCELLED, … */
  readonly status: string;
  readonly portDate: string;
  readonly rejectReason: string;
  readonly rejectSummary: string;
  /** Why the carrier rejected the order, one entry per disputed field; [] when none. */
  readonly rejectDetails: readonly RejectDetail[];
  /** Every number of the order, 10 digits each; [] when the answer did not list them. */
  readonly numbersToPort: readonly string[];
  /** The PortForm's CustomerAccountNumber and CustomerName the order was sent with; "" when the answer did not say. */
  readonly accountNumber: string;
  readonly endUserName: string;
}

/** One entry of a PortInStatus's RejectDetails (`"RJCT CODE"`, `"FLD ABBR"`, `"RJCT REMARKS"`…), "" where absent. */
export interface RejectDetail {
  readonly code: string;
  readonly field: string;
  readonly remarks: string;
  /** The entry's free-text `REMARKS`, apart from the reject's own. */
  readonly note: string;
}

/**
 * One request of an order in the account's order list (docs/contract.md §1.1, §5), however
 * the order was placed. The list names no ticket: PortInStatus does.
 */
export interface AccountOrder {
  /** The order's OrderID, as text; with the request's index when an order has several. */
  readonly orderId: string;
  /** False once the service assessed it `Closed` (ended: completed, rejected or cancelled). */
  readonly open: boolean;
  /** Its numbers as runs of one NPA-NXX: `first` and `last` 10 digits each, `first` <= `last`. */
  readonly ranges: readonly { readonly first: string; readonly last: string }[];
  /** Its TnRanges written in no way portin reads, as text: a number whose digits one holds is taken as held. */
  readonly unread: readonly string[];
}

/** Where a port-in stands, from its Status (docs/contract.md §1.4). */
export type PortInPhase = "open" | "completed" | "ended";

/**
 * Statuses that mean the order ended without porting, whole word, any case. The contract
 * names REJECTED and CANCELLED; the others are spellings guarded against. Anything not
 * listed here or in COMPLETED_STATUS (CANCEL_PENDING, a new word) is taken as still open,
 * the side that never resends.
 */
const ENDED_STATUS = /^(rejected|cancell?ed|failed|error|expired)$/i;
const COMPLETED_STATUS = /^(completed?)$/i;

export function portInPhase(status: string): PortInPhase {
  const word = status.trim();
  if (ENDED_STATUS.test(word)) return "ended";
  if (COMPLETED_STATUS.test(word)) return "completed";
  return "open";
}

/** `6P NAME: END USER NAME ON LSR DOES NOT MATCH CSR`, `;`-joined: the status_reject_details cell. */
export function formatRejectDetails(details: readonly RejectDetail[]): string {
  return details
    .map((d) => {
      const head = [d.code, d.field].filter((part) => part !== "").join(" ");
      const text = [d.remarks, d.note].filter((part) => part !== "").join(" ");
      return head === "" ? text : text === "" ? head : `${head}: ${text}`;
    })
    .filter((entry) => entry !== "")
    .join("; ");
}

/** What the service says of an NPA-NXX it was asked to Check. */
export interface PortabilityReply {
  readonly portable: boolean;
  readonly message: string;
}
