/**
 * What the sandbox has accepted: the requests in order, and which ticket holds each number.
 * It decides the service's business refusals (Reply 0), which come after a body is valid.
 */
import type { OperationId } from "../catalog/operations.js";
import type { SandboxAccount } from "./account.js";
import { kept } from "./keep.js";

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

/** The service's PortInStatus answer, in its own spelling. */
export interface PortInStatusJson {
  TicketId: string;
  Status: "SUBMITTED";
  PortDate: string;
  RejectReason: string;
  RejectSummary: string;
}

/** "PI-000123": the shape of the service's ticket masks. */
export function ticketMask(seq: number): string {
  return `PI-${String(seq).padStart(6, "0")}`;
}

export class Ledger {
  private readonly requests: AcceptedRequest[] = [];
  private readonly ticketOf = new Map<string, AcceptedRequest>();
  private readonly unportable: ReadonlyMap<string, string>;

  constructor(account: SandboxAccount) {
    this.unportable = new Map(account.unportable.map((u) => [String(u.number), u.reason]));
  }

  /** Why the service would reject these numbers (Reply 0); empty when it would accept them. */
  refusals(numbers: readonly string[]): string[] {
    return numbers.flatMap((n) => {
      const reason = this.unportable.get(n);
      if (reason !== undefined) return [`${n} is not portable: ${reason}`];
      const earlier = this.ticketOf.get(n);
      if (earlier) return [`${n} already has a pending port-in (ticket ${earlier.ticket})`];
      return [];
    });
  }

  accept(operation: OperationId, path: string, numbers: readonly string[], body: Record<string, unknown>): AcceptedRequest {
    const seq = this.requests.length + 1;
    const request: AcceptedRequest = { seq, ticket: ticketMask(seq), operation, path, numbers: [...numbers], body: kept(body) as Record<string, unknown> };
    this.requests.push(request);
    for (const n of numbers) this.ticketOf.set(n, request);
    return request;
  }

  list(): readonly AcceptedRequest[] {
    return this.requests;
  }

  status(tenDigits: string): PortInStatusJson | undefined {
    const request = this.ticketOf.get(tenDigits);
    if (!request) return undefined;
    const form = request.body["PortForm"] as Record<string, unknown> | undefined;
    const requested = form?.["RequestedPortDate"];
    return {
      TicketId: request.ticket,
      Status: "SUBMITTED",
      // Not scheduled yet unless the customer asked for a date: the losing carrier sets it later.
      PortDate: typeof requested === "string" ? requested : "",
      RejectReason: "",
      RejectSummary: "",
    };
  }
}
