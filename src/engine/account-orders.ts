/**
 * The journal is a cache of the account, not its truth (docs/contract.md §5): the same
 * numbers reach the service from a renamed sheet, a lost journal or the web portal. Before
 * sending, the account's order list is read once; a number an open order holds is not sent,
 * with that order's ticket learned from PortInStatus (one question per order); a number
 * whose order is Closed is asked too: COMPLETED is already ported, REJECTED or CANCELLED
 * leaves it free. Each question goes through port-in-status.ts (bounded, with a breaker).
 */
import { portInPhase } from "../catalog/account.js";
import type { AccountOrder, PortInStatus } from "../catalog/account.js";
import { AuthError } from "../errors.js";
import type { CommandIO } from "../io.js";
import type { Journal } from "../journal/journal.js";
import { stateOf, unhandled } from "../journal/prior.js";
import type { NumberState, PriorState } from "../journal/prior.js";
import type { ServiceClient } from "../service/client.js";
import type { CheckedRow } from "../validate/types.js";
import { terminalSafe } from "../terminal-text.js";
import { StatusAsker } from "./port-in-status.js";
import type { Asked } from "./port-in-status.js";

/** What the account says of a number the journal does not hold as submitted. */
export type AccountHold =
  /** An open order holds it; `ticket` "" when PortInStatus could not name it (yet): `why` says why. */
  | { readonly kind: "open"; readonly orderId: string; readonly ticket: string; readonly status: string; readonly why: string }
  /** A Closed order ported it in: PortInStatus says COMPLETED. */
  | { readonly kind: "ported"; readonly orderId: string; readonly ticket: string; readonly status: string };

export interface AccountCheck {
  /** By number (10 digits). A number absent is free as far as the account knows. */
  readonly holds: ReadonlyMap<string, AccountHold>;
  /** GETs made: the list, and PortInStatus questions. */
  readonly requests: number;
  /** Why the list could not be had; null when it was read. */
  readonly unavailable: string | null;
  /** Entries of the list written in no way portin reads, with their order: said on stderr, never passed over quietly. */
  readonly unread: readonly { readonly orderId: string; readonly text: string }[];
}

export interface AccountCheckOptions {
  readonly client: Pick<ServiceClient, "portInOrders" | "portInStatus">;
  /**
   * Whether a Closed order's number is worth a PortInStatus: not when the journal already
   * knows its story (sent, rejected, or its order ended), which the Closed order only repeats.
   */
  readonly askClosed?: (number: string) => boolean;
  readonly concurrency: number;
  readonly signal: AbortSignal;
}

/** The message of a row an order on the account holds (docs/contract.md §5). */
export function accountHoldMessage(hold: AccountHold): string {
  if (hold.kind === "ported") return `already ported in ${hold.ticket}; not sent`;
  if (hold.ticket !== "") return `already in open order ${hold.ticket} placed outside this journal; not sent`;
  return `already in open order ${hold.orderId} of the account's order list, placed outside this journal (its ticket is not known yet: ${hold.why}); not sent`;
}

/**
 * Reads the order list and asks PortInStatus once per order holding any of `numbers`.
 * Throws AuthError; any other failure to read the list leaves every number free, with
 * `unavailable` saying why (the pending-port-in answer of §4 still protects them).
 */
export async function checkAccountOrders(numbers: Iterable<string>, options: AccountCheckOptions): Promise<AccountCheck> {
  let orders: AccountOrder[];
  try {
    orders = await options.client.portInOrders();
  } catch (error) {
    if (error instanceof AuthError) throw error;
    return { holds: new Map(), requests: 1, unavailable: error instanceof Error ? error.message : String(error), unread: [] };
  }
  const { open, closed } = ordersHolding(numbers, orders, options.askClosed);
  const asker = new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  const ask = (byOrder: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Asked>> =>
    asker.run(byOrder.keys(), (orderId) => options.client.portInStatus((byOrder.get(orderId) as readonly string[])[0] as string));
  // Open orders first: they are what keeps a number from being sent twice.
  const openAnswers = await ask(open);
  const closedAnswers = await ask(closed);

  const holds = new Map<string, AccountHold>();
  for (const [orderId, held] of open) {
    const answer = openAnswers.get(orderId);
    const status = answer?.kind === "found" ? answer.status : null;
    // An answer about an ended order is about an older port-in of the number, not this one.
    const live = status !== null && portInPhase(status.status) !== "ended";
    const hold: AccountHold = {
      kind: "open",
      orderId,
      ticket: live ? status.ticketId : "",
      status: live ? status.status : "",
      why: whyNoTicket(answer, status),
    };
    for (const number of held) holds.set(number, hold);
  }
  for (const [orderId, held] of closed) {
    const answer = closedAnswers.get(orderId);
    if (answer?.kind !== "found" || portInPhase(answer.status.status) !== "completed") continue;
    const hold: AccountHold = { kind: "ported", orderId, ticket: answer.status.ticketId, status: answer.status.status };
    for (const number of held) holds.set(number, hold);
  }
  const unread = orders.flatMap((order) => order.unread.map((text) => ({ orderId: order.orderId, text })));
  return { holds, requests: 1 + asker.asked, unavailable: null, unread };
}

function whyNoTicket(answer: Asked | undefined, status: PortInStatus | null): string {
  if (answer === undefined || answer.kind === "failed") return `PortInStatus failed: ${answer?.reason ?? "not checked"}`;
  if (answer.kind === "missing") return "PortInStatus does not show it yet";
  return `PortInStatus shows only an earlier order, ${status?.ticketId ?? ""} ${status?.status ?? ""}`.trimEnd();
}

/**
 * Which of `numbers` each order holds: by open order, and by Closed order for numbers no open
 * order holds. Ranges are matched by NPA-NXX, so a range is never expanded. An entry the list
 * wrote in no way portin reads holds every number whose ten digits stand in its digits: a
 * number is kept from being sent twice rather than trusted to a reading portin could not make.
 */
export function ordersHolding(
  numbers: Iterable<string>,
  orders: readonly AccountOrder[],
  askClosed: (number: string) => boolean = () => true,
): { open: Map<string, string[]>; closed: Map<string, string[]> } {
  const byPrefix = new Map<string, { order: AccountOrder; first: number; last: number }[]>();
  const remember = (prefix: string, entry: { order: AccountOrder; first: number; last: number }): void => {
    const list = byPrefix.get(prefix);
    if (list) list.push(entry);
    else byPrefix.set(prefix, [entry]);
  };
  for (const order of orders) {
    for (const range of order.ranges) remember(range.first.slice(0, 6), { order, first: Number(range.first.slice(6)), last: Number(range.last.slice(6)) });
    for (const text of order.unread) {
      const digits = text.replace(/\D/g, "");
      for (let at = 0; at + 10 <= digits.length; at++) {
        const line = Number(digits.slice(at + 6, at + 10));
        remember(digits.slice(at, at + 6), { order, first: line, last: line });
      }
    }
  }
  const open = new Map<string, string[]>();
  const closed = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, orderId: string, number: string): void => {
    const list = map.get(orderId);
    if (list) list.push(number);
    else map.set(orderId, [number]);
  };
  // No order lists a number: none of `numbers` is held, and none needs looking at.
  if (byPrefix.size === 0) return { open, closed };
  const seen = new Set<string>();
  for (const number of numbers) {
    // Most numbers share no NPA-NXX with any order: passed over before being remembered as seen.
    const candidates = byPrefix.get(number.slice(0, 6));
    if (candidates === undefined || seen.has(number)) continue;
    seen.add(number);
    const line = Number(number.slice(6));
    let openOrder: AccountOrder | null = null;
    let closedOrder: AccountOrder | null = null;
    for (const { order, first, last } of candidates) {
      if (line < first || line > last) continue;
      if (order.open) openOrder ??= order;
      // The latest Closed order listed: the list runs oldest first.
      else closedOrder = order;
    }
    if (openOrder !== null) add(open, openOrder.orderId, number);
    else if (closedOrder !== null && askClosed(number)) add(closed, closedOrder.orderId, number);
  }
  return { open, closed };
}

/**
 * The account's order list for the valid rows' numbers the journal does not hold as
 * submitted, saying on stderr when it cannot be had. Numbers sent without a learned outcome
 * are asked too: a PortInStatus that lags behind the list must not let --retry-unknown send
 * them again.
 */
export async function readAccount(
  rows: readonly CheckedRow[],
  prior: PriorState | null,
  service: { readonly client: AccountCheckOptions["client"] },
  io: Pick<CommandIO, "stderr" | "signal">,
  concurrency: number,
  /** Whether numbers sent without a learned outcome are looked up too: `status` asks PortInStatus about them by number anyway. */
  unsure = true,
): Promise<ReadonlyMap<string, AccountHold>> {
  const skip = (number: string): boolean => {
    const state = stateOf(prior, number);
    switch (state.kind) {
      case "submitted":
        return true;
      case "pending":
      case "unknown":
        return !unsure;
      case "rejected":
      case "none":
        return false;
      default:
        return unhandled(state);
    }
  };
  const numbers = function* (): Generator<string> {
    for (const row of rows) if (row.valid && !skip(row.number)) yield row.number;
  };
  // Closed orders are asked about only for numbers the journal says nothing of: it knows of a
  // rejection, and an unsure number's PortInStatus answers for it.
  const untold = (number: string): boolean => {
    const state = stateOf(prior, number);
    switch (state.kind) {
      case "submitted":
      case "none":
        return true;
      case "pending":
      case "unknown":
      case "rejected":
        return false;
      default:
        return unhandled(state);
    }
  };
  const checked = await checkAccountOrders(numbers(), { client: service.client, concurrency, signal: io.signal, askClosed: untold });
  if (checked.unavailable !== null) {
    io.stderr.write(
      `portin: could not read the account's order list (${checked.unavailable}); going on without it: a number the service refuses as already pending is asked about, never sent twice\n`,
    );
  }
  if (checked.unread.length > 0) io.stderr.write(unreadNotice(checked.unread));
  return checked.holds;
}

/** How many unread entries the notice names; the rest are counted. */
const UNREAD_NAMED = 10;

/** The run says what it could not read of the list, and what it did about it (docs/contract.md §5). */
function unreadNotice(unread: AccountCheck["unread"]): string {
  const named = unread.slice(0, UNREAD_NAMED).map(({ orderId, text }) => `order ${terminalSafe(orderId)}: ${terminalSafe(JSON.stringify(text))}`);
  const more = unread.length > UNREAD_NAMED ? `, and ${unread.length - UNREAD_NAMED} more` : "";
  return (
    `portin: the account's order list writes ${unread.length === 1 ? "1 entry" : `${unread.length} entries`} in no way portin reads (${named.join("; ")}${more}); ` +
    `a number of the sheet whose digits stand in one is taken as held by that order and not sent\n`
  );
}

/**
 * Each number an order holds under a known ticket, recorded as submitted, so later runs and
 * `status` follow it: `outside` this journal unless an earlier run of it sent the number.
 */
export async function recordHolds(holds: ReadonlyMap<string, AccountHold>, journal: Pick<Journal, "confirmed" | "prior">): Promise<void> {
  const records: Promise<void>[] = [];
  for (const [number, hold] of holds) {
    if (hold.ticket !== "") records.push(journal.confirmed(number, hold.ticket, hold.status, !sentByThisJournal(stateOf(journal.prior, number))));
  }
  await Promise.all(records);
}

/** Whether an earlier run of this journal sent the number without learning the outcome: an order holding it is that run's own. */
function sentByThisJournal(state: NumberState): boolean {
  switch (state.kind) {
    case "pending":
    case "unknown":
      return true;
    case "submitted":
    case "rejected":
    case "none":
      return false;
    default:
      return unhandled(state);
  }
}
