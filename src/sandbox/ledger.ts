/**
 * What the sandbox has accepted: the requests in order, and which order (ticket) holds each
 * number. It decides the service's business refusals (Reply 0), which come after a body is
 * valid, and, with the carrier (carrier.ts), where each order stands.
 */
import type { OperationId } from "../catalog/operations.js";
import type { SandboxAccount } from "./account.js";
import { kept } from "./keep.js";
import type { Carrier, Order, PortInStatusJson } from "./carrier.js";
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
}

export class Ledger {
  readonly portability: Portability;
  private readonly requests: AcceptedRequest[] = [];
  /** By ticket. */
  private readonly orders = new Map<string, Order>();
  /** Each number's latest order. */
  private readonly orderOf = new Map<string, Order>();
  private readonly unportable: ReadonlyMap<string, string>;

  constructor(
    account: SandboxAccount,
    private readonly life: LedgerLife,
  ) {
    this.unportable = new Map(account.unportable.map((u) => [String(u.number), u.reason]));
    this.portability = new Portability(account);
  }

  /** Why the service would reject these numbers (Reply 0); empty when it would accept them. */
  refusals(numbers: readonly string[]): string[] {
    return numbers.flatMap((n) => {
      const reason = this.unportable.get(n);
      if (reason !== undefined) return [`${n} is not portable: ${reason}`];
      if (!this.portability.isPortable(n)) return [`${n} is not portable: the service does not port in NPA-NXX ${npaNxxText(n)}`];
      const earlier = this.orderOf.get(n);
      // A rejected order frees its numbers for a new one; a live or completed one holds them.
      const phase = earlier ? this.life.carrier.phase(earlier) : "REJECTED";
      if (earlier && phase === "COMPLETED") return [`${n} was already ported in (ticket ${earlier.ticket})`];
      if (earlier && phase !== "REJECTED") return [`${n} already has a pending port-in (ticket ${earlier.ticket})`];
      return [];
    });
  }

  accept(operation: OperationId, path: string, numbers: readonly string[], body: Record<string, unknown>): AcceptedRequest {
    const seq = this.requests.length + 1;
    const request: AcceptedRequest = { seq, ticket: ticketMask(seq), operation, path, numbers: [...numbers], body: kept(body) as Record<string, unknown> };
    this.requests.push(request);
    const fate = this.life.carrier.fate(numbers, body, (n) => this.orderOf.get(n));
    const order: Order = { ticket: request.ticket, numbers: request.numbers, body, acceptedDay: this.life.clock.today(), fate };
    this.orders.set(order.ticket, order);
    for (const n of numbers) this.orderOf.set(n, order);
    return request;
  }

  list(): readonly AcceptedRequest[] {
    return this.requests;
  }

  /** The latest port-in of a number. */
  status(tenDigits: string): PortInStatusJson | undefined {
    const order = this.orderOf.get(tenDigits);
    return order && this.life.carrier.statusJson(order);
  }

  /** One port-in order, by its ticket. */
  ticketStatus(ticket: string): PortInStatusJson | undefined {
    const order = this.orders.get(ticket);
    return order && this.life.carrier.statusJson(order);
  }
}
