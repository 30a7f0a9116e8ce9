/**
 * What the sandbox has accepted: the requests in order, and which order (ticket) holds each
 * number. It decides the service's business refusals (Reply 0), which come after a body is
 * valid, and, with the carrier (carrier.ts), where each order stands.
 */
import type { OperationId } from "../catalog/operations.js";
import type { SandboxAccount } from "./account.js";
import { kept } from "./keep.js";
import type { Carrier, Order, Phase, PortInStatusJson } from "./carrier.js";
import type { SandboxClock } from "./clock.js";
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

  private hold(order: Omit<HeldOrder, "orderId" | "placedAt">): HeldOrder {
    const held: HeldOrder = { ...order, orderId: ORDER_ID_BASE + this.orders.size + 1, placedAt: this.now() };
    this.orders.set(held.ticket, held);
    for (const n of held.numbers) this.ordersOf.set(n, [...(this.ordersOf.get(n) ?? []), held]);
    return held;
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
      const earlier = this.latest(n);
      // A rejected or cancelled order frees its numbers for a new one; a live or completed one holds them.
      const phase = earlier ? this.life.carrier.phase(earlier) : "REJECTED";
      if (earlier && phase === "COMPLETED") return [`${n} was already ported in (ticket ${earlier.ticket})`];
      if (earlier && phase !== "REJECTED" && phase !== "CANCELLED") return [`${n} already has a pending port-in (ticket ${earlier.ticket})`];
      return [];
    });
  }

  accept(operation: OperationId, path: string, numbers: readonly string[], body: Record<string, unknown>): AcceptedRequest {
    const seq = this.requests.length + 1;
    const request: AcceptedRequest = { seq, ticket: ticketMask(seq), operation, path, numbers: [...numbers], body: kept(body) as Record<string, unknown> };
    this.requests.push(request);
    const fate = this.life.carrier.fate(numbers, body, (n) => this.latest(n));
    this.hold({ ticket: request.ticket, numbers: request.numbers, body, acceptedDay: this.life.clock.today(), fate, service: operation, parent: parentOf(body) });
    return request;
  }

  list(): readonly AcceptedRequest[] {
    return this.requests;
  }

  /** Whether PortInStatus shows the order yet (LedgerLife.statusLagMs). */
  private visible(order: HeldOrder): boolean {
    return this.now() - order.placedAt >= (this.life.statusLagMs ?? 0);
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
