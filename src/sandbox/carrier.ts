/**
 * The losing carrier's side of an order the sandbox accepted (docs/contract.md §1.4): it
 * answers a business day later, confirming a port date or rejecting the order with a code
 * naming the field it disputes, and the port completes on its date. Which orders are
 * rejected is drawn from a seeded PRNG, so a run can be replayed; a rejection sticks to the
 * disputed PortForm member's value, so resending the same order is rejected again and
 * resending it with that member corrected ports.
 */
import type { Random } from "./prng.js";
import type { SandboxClock } from "./clock.js";

/** The carrier answers (confirms or rejects) this many business days after the order. */
export const ANSWER_BUSINESS_DAYS = 1;
/** A confirmed port happens this many business days after the carrier's answer, unless the customer asked for a later date. */
export const PORT_LEAD_BUSINESS_DAYS = 2;

/** One of the reasons the sandbox's carriers reject an order, in the service's reject vocabulary. */
export interface CarrierRejection {
  /** The PortForm member the carrier disputes: a changed value is taken as the fix. */
  readonly member: string;
  readonly code: string;
  readonly field: string;
  readonly form: string;
  readonly reason: string;
  readonly remarks: string;
  /** What to correct, for the summary. */
  readonly fix: string;
}

export const REJECTIONS: readonly CarrierRejection[] = [
  {
    member: "CustomerName",
    code: "6P",
    field: "NAME",
    form: "EU",
    reason: "End user name does not match the losing carrier's records",
    remarks: "END USER NAME ON LSR DOES NOT MATCH CSR",
    fix: "the end user name (PortForm.CustomerName)",
  },
  {
    member: "CustomerAccountNumber",
    code: "1P",
    field: "AN",
    form: "LSR",
    reason: "Account number does not match the losing carrier's records",
    remarks: "ACCOUNT NUMBER ON LSR DOES NOT MATCH CSR",
    fix: "the account number at the losing carrier (PortForm.CustomerAccountNumber)",
  },
  {
    member: "CustomerStreetNumber",
    code: "8C",
    field: "SANO",
    form: "EU",
    reason: "Service address does not match the losing carrier's records",
    remarks: "SERVICE ADDRESS HOUSE NUMBER DOES NOT MATCH CSR",
    fix: "the service address's street number (PortForm.CustomerStreetNumber)",
  },
  {
    member: "CustomerPostalCode",
    code: "8E",
    field: "ZIP",
    form: "EU",
    reason: "Postal code does not match the service address on file",
    remarks: "POSTAL CODE DOES NOT MATCH SERVICE ADDRESS ON CSR",
    fix: "the postal code (PortForm.CustomerPostalCode)",
  },
];

/** What the carrier will do with an order, decided when the service accepts it. */
export type Fate =
  | { readonly kind: "port" }
  /** `value` is the disputed member's value as the order sent it (JSON). */
  | { readonly kind: "reject"; readonly rejection: CarrierRejection; readonly value: string };

/** An order as the carrier sees it. */
export interface Order {
  readonly ticket: string;
  readonly numbers: readonly string[];
  readonly body: Record<string, unknown>;
  readonly acceptedDay: number;
  readonly fate: Fate;
  /**
   * The status of an order placed in the web portal (docs/contract.md §1.4): it keeps the
   * status it was placed with, since the sandbox's carriers never saw it.
   */
  readonly placedAs?: Phase;
  /**
   * How the order list writes a portal order's numbers when the portal kept them as a person
   * typed them (`(416) 555-0100`, `4165550100-4165550199`), not in the service's own way: what
   * a client must still read (docs/contract.md §5).
   */
  readonly listedAs?: readonly string[];
}

export type Phase = "SUBMITTED" | "CONFIRMED" | "COMPLETED" | "REJECTED" | "CANCELLED";

/** Phases after which an order holds its numbers no more, or holds them as ported in. */
export const CLOSED_PHASES: ReadonlySet<Phase> = new Set<Phase>(["COMPLETED", "REJECTED", "CANCELLED"]);

/** The service's PortInStatus answer, in its own spelling (docs/contract.md §1.4). */
export interface PortInStatusJson {
  TicketId: string;
  Status: Phase;
  PortDate: string;
  RejectReason: string;
  RejectSummary: string;
  RejectDetails: Record<string, string>[];
  NumbersToPort: number[];
  AccountNumber: string;
  EndUserName: string;
  Reseller: string | null;
  Disputing: boolean;
  ValidationLSC: null;
}

export interface CarrierOptions {
  readonly clock: SandboxClock;
  readonly random: Random;
  /** Share of new orders the carrier rejects, 0..1. */
  readonly rejectRate: number;
  /** Provider ID -> name, for the summary. */
  readonly providers: ReadonlyMap<number, string>;
}

/** The PortForm members the carrier reads: what an order must keep of its body to live on (saved-orders.ts). */
const CARRIER_MEMBERS: readonly string[] = [
  ...new Set([...REJECTIONS.map((r) => r.member), "CustomerAccountNumber", "CustomerName", "RequestedPortDate", "CurrentProvider", "CurrentReseller"]),
];

/**
 * An order's body as the carrier sees it: its PortForm's members the carrier reads, and
 * nothing else, so that what is kept of an order holds no item's passwords or attachments.
 */
export function carrierView(body: Record<string, unknown>): Record<string, unknown> {
  const form = portFormOf(body);
  return { PortForm: Object.fromEntries(CARRIER_MEMBERS.filter((m) => form[m] !== undefined).map((m) => [m, form[m]])) };
}

function portFormOf(body: Record<string, unknown>): Record<string, unknown> {
  const form = body["PortForm"];
  return form !== null && typeof form === "object" ? (form as Record<string, unknown>) : {};
}

export class Carrier {
  private rejectRate: number;

  constructor(private readonly options: CarrierOptions) {
    this.rejectRate = options.rejectRate;
  }

  /** Changes the share of new orders rejected from the next order on; the PRNG's sequence goes on where it was. */
  setRejectRate(rate: number): void {
    this.rejectRate = rate;
  }

  /**
   * The fate of an order just accepted. `previous` gives each number's order before this one.
   * Two draws per order whatever it decides, so an order's fate depends only on its place in
   * the sequence and on what it corrects.
   */
  fate(numbers: readonly string[], body: Record<string, unknown>, previous: (number: string) => Order | undefined): Fate {
    const which = this.options.random();
    const why = this.options.random();
    const form = portFormOf(body);
    let disputed = false;
    for (const number of numbers) {
      const earlier = previous(number)?.fate;
      if (earlier?.kind !== "reject") continue;
      disputed = true;
      // The carrier's records did not change: the same order is rejected for the same reason.
      if (JSON.stringify(form[earlier.rejection.member] ?? null) === earlier.value) return earlier;
    }
    if (disputed || which >= this.rejectRate) return { kind: "port" };
    const rejection = REJECTIONS[Math.floor(why * REJECTIONS.length)] as CarrierRejection;
    return { kind: "reject", rejection, value: JSON.stringify(form[rejection.member] ?? null) };
  }

  /** The day the carrier answers, and the port date it sets when it confirms. */
  private schedule(order: Order): { answerDay: number; portDay: number } {
    const { clock } = this.options;
    const answerDay = clock.addBusinessDays(order.acceptedDay, ANSWER_BUSINESS_DAYS);
    const earliest = clock.addBusinessDays(answerDay, PORT_LEAD_BUSINESS_DAYS);
    const requested = portFormOf(order.body)["RequestedPortDate"];
    const asked = typeof requested === "string" ? clock.dayOf(requested) : null;
    return { answerDay, portDay: asked !== null && asked > earliest ? asked : earliest };
  }

  phase(order: Order, day: number = this.options.clock.today()): Phase {
    if (order.placedAs !== undefined) return order.placedAs;
    const { answerDay, portDay } = this.schedule(order);
    if (day < answerDay) return "SUBMITTED";
    if (order.fate.kind === "reject") return "REJECTED";
    return day < portDay ? "CONFIRMED" : "COMPLETED";
  }

  statusJson(order: Order): PortInStatusJson {
    const { clock } = this.options;
    const phase = this.phase(order);
    const form = portFormOf(order.body);
    const requested = form["RequestedPortDate"];
    const text = (value: unknown): string => (typeof value === "string" ? value : "");
    const base: PortInStatusJson = {
      TicketId: order.ticket,
      Status: phase,
      // Before the carrier answers, only the customer's requested date is known.
      PortDate: phase === "SUBMITTED" ? text(requested) : phase === "REJECTED" || phase === "CANCELLED" ? "" : clock.date(this.schedule(order).portDay),
      RejectReason: "",
      RejectSummary: "",
      RejectDetails: [],
      NumbersToPort: order.numbers.map(Number),
      AccountNumber: text(form["CustomerAccountNumber"]),
      EndUserName: text(form["CustomerName"]),
      Reseller: typeof form["CurrentReseller"] === "string" ? form["CurrentReseller"] : null,
      Disputing: false,
      ValidationLSC: null,
    };
    if (phase !== "REJECTED" || order.fate.kind !== "reject") return base;
    const { rejection } = order.fate;
    const provider = typeof form["CurrentProvider"] === "number" ? this.options.providers.get(form["CurrentProvider"]) : undefined;
    const [first = "", last = ""] = [order.numbers[0], order.numbers[order.numbers.length - 1]];
    return {
      ...base,
      RejectReason: rejection.reason,
      RejectSummary: `Rejected by the losing carrier${provider ? ` (${provider})` : ""} on ${clock.date(this.schedule(order).answerDay)}: correct ${rejection.fix} and submit the numbers again`,
      RejectDetails: [
        {
          "RJCT CODE": rejection.code,
          "RJCT REMARKS": rejection.remarks,
          "FLD ABBR": rejection.field,
          FORM: rejection.form,
          "PORTED #": order.numbers.length === 1 ? first : "",
          "PORTED # RANGE": order.numbers.length > 1 ? `${first}-${last}` : "",
          "DISC #": "",
          "DISC # RANGE": "",
          REMARKS: "",
        },
      ],
    };
  }
}
