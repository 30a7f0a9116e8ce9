/**
 * What the sandbox has accepted: the requests in order, and which order (ticket) holds each
 * number. It decides the service's business refusals (Reply 0), which come after a body is
 * valid, and, with the carrier (carrier.ts), where each order stands.
 */
import type { OperationId } from "../catalog/operations.js";
import type { SandboxAccount } from "./account.js";
import { kept } from "./keep.js";
import { carrierView, CLOSED_PHASES } from "./carrier.js";
import type { Carrier, Order, Phase, PortInStatusJson } from "./carrier.js";
import type { SandboxClock } from "./clock.js";
import type { PortalOrder } from "./portal.js";
import { Portability, npaNxxText } from "./portability.js";

export type { PortInStatusJson } from "./carrier.js";

export interface AcceptedRequest {
  /** 1 for the first request accepted, in order of acceptance. */
  seq: number;
  ticket: string;
  operation: OperationId;
  path: string;
  /** 10-digit strings, as in PortForm.NumbersToPort. */
  numbers: string[];
  /** The body as accepted, each attachment kept as its size and SHA-256 (keep.ts). */
  body: Record<string, unknown>;
}

/** "PI-000123": the shape of the service's ticket masks. */
export function ticketMask(seq: number): string {
  return `PI-${String(seq).padStart(6, "0")}`;
}

/** The life an accepted order goes on to live. */
export interface LedgerLife {
  readonly clock: SandboxClock;
  readonly carrier: Carrier;
  /**
   * Real milliseconds an order stays out of PortInStatus after it is accepted, while the
   * order list shows it at once (`--status-lag`, docs/contract.md §1.4). Default 0.
   */
  readonly statusLagMs?: number;
  /** Real time in ms; tests pass their own. */
  readonly now?: () => number;
}

/** An order as the account holds it: the carrier's order, and what the order list says of it. */
export interface HeldOrder extends Order {
  /** The order list's OrderID: 1 + ORDER_ID_BASE for the first order the account holds. */
  readonly orderId: number;
  /** Real time (ms) it was accepted or placed, for the status lag. */
  readonly placedAt: number;
  /** The operation, or "portal" for an order placed in the web portal. */
  readonly service: string;
  /** The target: a pilot number or an offering; "" when the order names none. */
  readonly parent: string;
}

/** A ledger's orders and requests, as kept between runs. */
export interface LedgerSnapshot {
  readonly orders: readonly Omit<HeldOrder, "orderId" | "placedAt">[];
  readonly portalCount: number;
  /** Requests accepted over every run so far. */
  readonly acceptedCount: number;
}

/** Order IDs in the order list look like the service's (51234), and are not the tickets' numbers. */
export const ORDER_ID_BASE = 50_000;

export class Ledger {
  readonly portability: Portability;
  private readonly requests: AcceptedRequest[] = [];
  /** By ticket, in the order the account came to hold them. */
  private readonly orders = new Map<string, HeldOrder>();
  /** Each number's orders, oldest first. */
  private readonly ordersOf = new Map<string, HeldOrder[]>();
  private readonly unportable: ReadonlyMap<string, string>;
  private readonly now: () => number;
  private portalCount = 0;
  /** Requests an earlier run accepted (restore()): this run's tickets follow theirs. */
  private earlierRequests = 0;

  constructor(
    account: SandboxAccount,
    private readonly life: LedgerLife,
  ) {
    this.unportable = new Map(account.unportable.map((u) => [String(u.number), u.reason]));
    this.portability = new Portability(account);
    this.now = life.now ?? Date.now;
  }

  private latest(number: string): HeldOrder | undefined {
    return this.ordersOf.get(number)?.at(-1);
  }

  private hold(order: Omit<HeldOrder, "orderId" | "placedAt">, placedAt = this.now()): HeldOrder {
    const held: HeldOrder = { ...order, orderId: ORDER_ID_BASE + this.orders.size + 1, placedAt };
    this.orders.set(held.ticket, held);
    for (const n of held.numbers) this.ordersOf.set(n, [...(this.ordersOf.get(n) ?? []), held]);
    return held;
  }

  /**
   * What the ledger holds, to be kept between runs (saved-orders.ts): each order with only
   * what its carrier reads of its body, and how many requests were accepted, so that the
   * tickets go on where they were; not the requests' bodies, which hold items' passwords.
   */
  snapshot(): LedgerSnapshot {
    const orders = [...this.orders.values()].map((order) => ({
      ticket: order.ticket,
      numbers: order.numbers,
      body: carrierView(order.body),
      acceptedDay: order.acceptedDay,
      fate: order.fate,
      ...(order.placedAs === undefined ? {} : { placedAs: order.placedAs }),
      service: order.service,
      parent: order.parent,
    }));
    return { orders, portalCount: this.portalCount, acceptedCount: this.earlierRequests + this.requests.length };
  }

  /** Takes back what an earlier run's ledger held; only into a ledger that holds nothing yet. */
  restore(snapshot: LedgerSnapshot): void {
    if (this.orders.size > 0 || this.requests.length > 0) throw new Error("a ledger is restored before it holds anything");
    // Accepted in an earlier run: long enough ago for any status lag.
    for (const order of snapshot.orders) this.hold(order, 0);
    this.portalCount = snapshot.portalCount;
    this.earlierRequests = snapshot.acceptedCount;
  }

  /** Grows with every order the ledger comes to hold, restored ones included. */
  get size(): number {
    return this.orders.size;
  }

  /** Where an order stands today. */
  phase(order: Order): Phase {
    return this.life.carrier.phase(order);
  }

  /** Every order the account holds, whoever placed it, in the order it came to hold them. */
  held(): Iterable<HeldOrder> {
    return this.orders.values();
  }

  /** Why the service would reject these numbers (Reply 0); empty when it would accept them. */
  refusals(numbers: readonly string[]): string[] {
    return numbers.flatMap((n) => {
      const reason = this.unportable.get(n);
      if (reason !== undefined) return [`${n} is not portable: ${reason}`];
      if (!this.portability.isPortable(n)) return [`${n} is not portable: the service does not port in NPA-NXX ${npaNxxText(n)}`];
      return this.holding(n);
    });
  }

  /** Why an order already holds this number; empty when none does. */
  private holding(n: string): string[] {
    const earlier = this.latest(n);
    if (!earlier) return [];
    // A rejected or cancelled order frees its numbers for a new one; a live or completed one holds them.
    const phase = this.life.carrier.phase(earlier);
    if (phase === "COMPLETED") return [`${n} was already ported in (ticket ${earlier.ticket})`];
    if (CLOSED_PHASES.has(phase)) return [];
    return [`${n} already has a pending port-in (ticket ${earlier.ticket})`];
  }

  accept(operation: OperationId, path: string, numbers: readonly string[], body: Record<string, unknown>): AcceptedRequest {
    const seq = this.earlierRequests + this.requests.length + 1;
    const request: AcceptedRequest = { seq, ticket: ticketMask(seq), operation, path, numbers: [...numbers], body: kept(body) as Record<string, unknown> };
    this.requests.push(request);
    const fate = this.life.carrier.fate(numbers, body, (n) => this.latest(n));
    this.hold({ ticket: request.ticket, numbers: request.numbers, body, acceptedDay: this.life.clock.today(), fate, service: operation, parent: parentOf(body) });
    return request;
  }

  /**
   * Places an order as the web portal would (`before`: one the account held when the sandbox started): refused, as a POST would be, for numbers an
   * order already holds; its ticket given or `PI-P00001`, …. Portability is the carriers'
   * to judge later: a portal order may hold a number a POST could not.
   */
  place(order: PortalOrder, { before = false } = {}): { ticket: string } | { refusals: string[] } {
    if (order.ticket !== undefined && this.orders.has(order.ticket)) return { refusals: [`ticket ${order.ticket} is already an order's`] };
    const refusals = order.numbers.flatMap((n) => this.holding(n));
    if (refusals.length > 0) return { refusals };
    let ticket = order.ticket;
    for (let n = this.portalCount + 1; ticket === undefined || this.orders.has(ticket); n++) ticket = `PI-P${String(n).padStart(5, "0")}`;
    this.portalCount += 1;
    this.hold(
      {
        ticket,
        numbers: order.numbers,
        body: {},
        acceptedDay: this.life.clock.today(),
        fate: { kind: "port" },
        placedAs: order.status,
        ...(order.listedAs === undefined ? {} : { listedAs: order.listedAs }),
        service: "portal",
        parent: "",
      },
      // Placed before the sandbox started: long enough ago for any status lag.
      before ? 0 : this.now(),
    );
    return { ticket };
  }

  list(): readonly AcceptedRequest[] {
    return this.requests;
  }

  /** Whether PortInStatus shows the order yet (LedgerLife.statusLagMs). */
  private visible(order: HeldOrder): boolean {
    return this.now() - order.placedAt >= (this.life.statusLagMs ?? 0);
  }

  /** Where the number's latest port-in stands, or null when it has none (docs/contract.md §1.5: a 9-1-1 record needs one). */
  portPhase(tenDigits: string): Phase | null {
    const order = this.latest(tenDigits);
    return order === undefined ? null : this.life.carrier.phase(order);
  }

  /** The trunk a completed port put the number on (a regular number's DIDs order), or null. */
  trunkOf(tenDigits: string): string | null {
    const order = this.latest(tenDigits);
    if (order === undefined || order.service !== "dids" || this.life.carrier.phase(order) !== "COMPLETED") return null;
    return order.parent;
  }

  /** The latest port-in of a number that PortInStatus shows. */
  status(tenDigits: string): PortInStatusJson | undefined {
    const order = this.ordersOf.get(tenDigits)?.findLast((o) => this.visible(o));
    return order && this.life.carrier.statusJson(order);
  }

  /** One port-in order, by its ticket. */
  ticketStatus(ticket: string): PortInStatusJson | undefined {
    const order = this.orders.get(ticket);
    return order && this.visible(order) ? this.life.carrier.statusJson(order) : undefined;
  }
}

/** The order list's ParentService: the request's pilot number or offering, or its items' plan. */
function parentOf(body: Record<string, unknown>): string {
  const items = [body["Lines"], body["Forwards"]].find(Array.isArray) as unknown[] | undefined;
  const plan = (items?.[0] as { PlanID?: unknown } | undefined)?.PlanID;
  const parent = body["PilotNumber"] ?? body["OfferingID"] ?? plan;
  return typeof parent === "string" || typeof parent === "number" ? String(parent) : "";
}
