/**
 * A number the service refuses because it already has a pending port-in is not a row to fix
 * (docs/contract.md §4): PortInStatus is asked for it, and when an open order holds it the
 * row is `skipped` with that order's ticket, saying it was sent and refused, and recorded in the
 * journal as held by that order (`refused`), so that `status` follows it and no later run sends
 * it, --retry-rejected included. Only a number no open order can be found for stays
 * `rejected`, with the service's words.
 *
 * A service may name one such number a refusal. So the first answer is asked about while the
 * run is still sending: the order PortInStatus shows lists, in NumbersToPort, which of the
 * request's other numbers it holds too, and those are settled with it rather than sent again,
 * one refusal a round.
 */
import * as outcomes from "../messages/outcomes.js";
import { portInPhase } from "../catalog/account.js";
import type { Journal } from "../journal/journal.js";
import type { DispatchReport } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import { askByNumber, StatusAsker } from "./port-in-status.js";
import type { AccountHold } from "./verdict.js";

/** The service's words for a number another order already holds. */
const PENDING = /pending port[- ]?in|already (?:has|in) an? (?:open|pending) (?:port[- ]?in|order)/i;

/** Whether the service refused a number because another order already holds it. */
export function saysPending(message: string): boolean {
  return PENDING.test(message);
}

export interface PendingOptions {
  readonly client: Pick<ServiceClient, "portInStatus">;
  readonly journal: Pick<Journal, "confirmed"> | null;
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** The run's one breaker for every PortInStatus question (port-in-status.ts); one of its own when absent. */
  readonly asker?: StatusAsker;
}

/** The orders PortInStatus found holding the numbers the service refused as pending, gathered over one run. */
export class PendingAnswers {
  readonly #options: PendingOptions;
  readonly #asker: StatusAsker;
  /** By number: the order holding it, for each number refused as pending or sharing such a number's order. */
  readonly #holds = new Map<string, AccountHold>();
  /** Numbers refused as pending that PortInStatus was already asked about. */
  readonly #asked = new Set<string>();

  constructor(options: PendingOptions) {
    this.#options = options;
    this.#asker = options.asker ?? new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  }

  /** What was found so far, by number. */
  get holds(): ReadonlyMap<string, AccountHold> {
    return this.#holds;
  }

  /**
   * While sending: of a rejected request's `others` (the numbers its rejection did not name),
   * those the order of a number it `named` as pending holds too, each with the words its row's
   * result carries until the order is found (outcomes.ts then makes it `skipped`). Never
   * throws: a question that fails leaves the others to be sent again.
   */
  async othersHeld(named: ReadonlyMap<string, string>, others: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const pending = [...named].flatMap(([number, message]) => (PENDING.test(message) ? [number] : []));
    if (pending.length === 0) return new Map();
    await this.#ask(pending, new Set(others)).catch(() => undefined);
    const held = new Map<string, string>();
    for (const number of others) {
      const hold = this.#holds.get(number);
      if (hold !== undefined) held.set(number, outcomes.inSamePortIn(number, hold.kind === "ported", hold.ticket));

    }
    return held;
  }

  /** After sending: the order holding each number the service refused as pending, where PortInStatus found one. */
  async resolve(report: DispatchReport): Promise<ReadonlyMap<string, AccountHold>> {
    const pending: string[] = [];
    for (const result of report.results.values()) {
      if (result.status !== "rejected" || result.named === null) continue;
      for (const [number, message] of result.named) if (PENDING.test(message)) pending.push(number);
    }
    await this.#ask(pending, new Set());
    return this.#holds;
  }

  /** Asks about the pending numbers not asked about yet; an order found holds them, and those of `others` its NumbersToPort lists. */
  async #ask(pending: readonly string[], others: ReadonlySet<string>): Promise<void> {
    const fresh = pending.filter((number) => !this.#asked.has(number) && !this.#holds.has(number));
    if (fresh.length === 0) return;
    for (const number of fresh) this.#asked.add(number);
    // One group: an answer's NumbersToPort settles the other numbers of its order.
    const answers = await askByNumber([fresh], this.#asker, (number, watch) => this.#options.client.portInStatus(number, watch));
    const records: Promise<void>[] = [];
    const hold = (number: string, found: AccountHold): void => {
      if (this.#holds.has(number)) return;
      this.#holds.set(number, found);
      // Its request left and was refused: sent, and the order is not this journal's (records.ts `confirmed`).
      if (this.#options.journal !== null) records.push(this.#options.journal.confirmed(number, found.ticket, found.status, true, true));
    };
    for (const [number, answer] of answers) {
      if (answer.kind !== "found") continue;
      const { ticketId, status, numbersToPort, portDate } = answer.status;
      const phase = portInPhase(status);
      if (phase === "ended" || ticketId === "") continue;
      const found: AccountHold = phase === "completed" ? { kind: "ported", orderId: "", ticket: ticketId, status } : { kind: "open", orderId: "", ticket: ticketId, status, why: "", portDate };
      hold(number, found);
      for (const other of numbersToPort) if (others.has(other)) hold(other, found);
    }
    await Promise.all(records);
  }
}
