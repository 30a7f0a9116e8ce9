/**
 * The journal is a cache of the account, not its truth (docs/contract.md §5): the same
 * numbers reach the service from a renamed sheet, a lost journal or the web portal. Before
 * sending, the account's order list is read once; a number an open order holds is not sent,
 * with that order's ticket learned from PortInStatus (one question per order); a number
 * whose order is Closed is asked too: COMPLETED is already ported, REJECTED or CANCELLED
 * leaves it free. Each question goes through port-in-status.ts (bounded, with a breaker).
 */
import * as notices from "../messages/notices.js";
import * as outcomes from "../messages/outcomes.js";
import * as statusWords from "../messages/status.js";
import { formatRejectDetails, portInPhase } from "../catalog/account.js";
import type { AccountOrder, PortInStatus } from "../catalog/account.js";
import { AuthError } from "../errors.js";
import type { CommandIO } from "../io.js";
import type { Journal } from "../journal/journal.js";
import { stateOf } from "../journal/prior.js";
import type { EndedOrder, PriorState } from "../journal/prior.js";
import type { ServiceClient } from "../service/client.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { rowFingerprint } from "../group/fingerprint.js";
import { terminalSafe } from "../terminal-text.js";
import { StatusAsker } from "./port-in-status.js";
import type { Asked } from "./port-in-status.js";
import { portDateApart, rowNowOf, verdictOf } from "./verdict.js";
import type { AccountHold, Verdict } from "./verdict.js";

export interface AccountCheck {
  /** By number (10 digits). A number absent is free as far as the account knows. */
  readonly holds: ReadonlyMap<string, AccountHold>;
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
  /**
   * Whether an open order's number is worth a PortInStatus: an order holding none that is, is
   * not asked (its numbers' own questions will name it); default every one.
   */
  readonly askOpen?: (number: string) => boolean;
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** The run's one breaker for every PortInStatus question (port-in-status.ts); one of its own when absent. */
  readonly asker?: StatusAsker;
}

/**
 * The message of a row an order on the account holds (docs/contract.md §5). `requested`: the
 * row's RequestedPortDate; an open order that will move the numbers on another day says so.
 */
export function accountHoldMessage(hold: AccountHold, requested = ""): string {
  switch (hold.kind) {
    case "ported":
      return outcomes.alreadyPorted(hold.ticket);
    case "rejected":
      return outcomes.outsideOrderRejected(hold.ticket);
    case "open":
      if (hold.ticket !== "") return withHeldDate(outcomes.inOpenOrderOutside(hold.ticket), hold, requested);
      return outcomes.inOpenOrderNoTicket(hold.orderId, hold.why);
  }
}

/**
 * The message of a row this run sent that the service refused because an order placed outside
 * the journal already held it (docs/contract.md §5, "A pending-port-in answer"): the request
 * left, so the row never says "not sent". `requested` as for accountHoldMessage.
 */
export function refusedHoldMessage(hold: AccountHold, requested = ""): string {
  if (hold.kind === "ported") return outcomes.refusedAlreadyPorted(hold.ticket);
  return withHeldDate(outcomes.refusedHeldByOrder(hold.ticket, hold.kind === "open"), hold, requested);
}

/**
 * `message`, followed by the port date an open order placed outside the journal holds when it
 * is not the row's RequestedPortDate (docs/contract.md §5): the numbers move on the account's
 * date, and nothing else the row says would tell the user so.
 */
function withHeldDate(message: string, hold: AccountHold, requested: string): string {
  const held = hold.kind === "open" ? portDateApart(hold.portDate, requested) : null;
  return held === null ? message : `${message}; ${statusWords.otherPortDate(held, requested)}`;
}

/** A valid row's RequestedPortDate as the sheet gives it; "" when it gives none. */
export function requestedPortDate(row: ValidRow): string {
  const requested = row.portForm["RequestedPortDate"];
  return typeof requested === "string" ? requested : "";
}

/**
 * The message of a row this run sent that the service refused because another order holds it,
 * where PortInStatus shows no such order (yet: a service whose PortInStatus lags its orders).
 */
export function refusedUnfoundMessage(said: string): string {
  return outcomes.refusedHeldUnfound(said);
}

/**
 * Reads the order list and asks PortInStatus once per order holding any of `numbers`.
 * Throws AuthError; any other failure to read the list leaves every number free, with
 * `unavailable` saying why (the pending-port-in answer of §4 still protects them).
 */
export async function checkAccountOrders(numbers: Iterable<string>, options: AccountCheckOptions): Promise<AccountCheck> {
  const asker = options.asker ?? new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  let orders: AccountOrder[];
  try {
    // Under the run's breaker: a service failing the list is likely failing PortInStatus too, and
    // the list's retries wait no longer than a question's.
    orders = await asker.watched((watch) => options.client.portInOrders(watch));
  } catch (error) {
    if (error instanceof AuthError) throw error;
    return { holds: new Map(), unavailable: error instanceof Error ? error.message : String(error), unread: [] };
  }
  const { open, closed } = ordersHolding(numbers, orders, options.askClosed);
  // Watched, as every question is: each failed attempt counts toward the breaker, and no retry waits longer than its limit.
  const ask = (byOrder: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Asked>> =>
    asker.run(byOrder.keys(), (orderId, watch) => options.client.portInStatus((byOrder.get(orderId) as readonly string[])[0] as string, watch));
  // Open orders first: they are what keeps a number from being sent twice.
  const askOpen = options.askOpen ?? (() => true);
  const openAsked = new Map([...open].filter(([, held]) => held.some(askOpen)));
  const openAnswers = await ask(openAsked);
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
      portDate: live ? status.portDate : "",
      why: openAsked.has(orderId) ? whyNoTicket(answer, status) : outcomes.NOT_ASKED_BY_ORDER,
    };
    for (const number of held) holds.set(number, hold);
  }
  // A Closed order is asked about through one of its numbers: the answer is that number's order,
  // and settles only the numbers its NumbersToPort lists (docs/contract.md §5). Each other
  // number is asked about by itself.
  /** Numbers of a Closed order its answer did not list, by number: their order. */
  const unlisted = new Map<string, string>();
  const settle = (orderId: string, held: readonly string[], answer: Asked | undefined): void => {
    if (answer?.kind !== "found") return;
    const listed = new Set(answer.status.numbersToPort);
    const hold = closedHold(orderId, answer.status, answer.at);
    for (const number of held) {
      if (!listed.has(number)) unlisted.set(number, orderId);
      else if (hold !== null) holds.set(number, hold);
    }
  };
  for (const [orderId, held] of closed) settle(orderId, held, closedAnswers.get(orderId));
  const own = new Map(unlisted);
  const ownAnswers = await ask(new Map([...own.keys()].map((number) => [number, [number]])));
  for (const [number, orderId] of own) settle(orderId, [number], ownAnswers.get(number));
  const unread = orders.flatMap((order) => order.unread.map((text) => ({ orderId: order.orderId, text })));
  return { holds, unavailable: null, unread };
}

/**
 * What a Closed order says of its numbers: ported when COMPLETED; rejected when the losing
 * carrier rejected it, which a journal rebuilt from the account must not forget (docs/contract.md
 * §5); nothing after any other end (CANCELLED, …): its numbers are free.
 */
function closedHold(orderId: string, status: PortInStatus, at: string): AccountHold | null {
  const { ticketId: ticket, status: word } = status;
  const phase = portInPhase(word);
  if (phase === "completed") return { kind: "ported", orderId, ticket, status: word };
  if (phase !== "ended" || ticket === "" || !/^rejected$/i.test(word.trim())) return null;
  const order = { ticket, status: word, reason: status.rejectReason, summary: status.rejectSummary, details: formatRejectDetails(status.rejectDetails), at };
  return { kind: "rejected", orderId, ticket, status: word, order, sentWith: { accountNumber: status.accountNumber, endUserName: status.endUserName } };
}

function whyNoTicket(answer: Asked | undefined, status: PortInStatus | null): string {
  if (answer === undefined || answer.kind === "failed") return outcomes.portInStatusFailed(answer?.reason ?? outcomes.NOT_CHECKED);
  if (answer.kind === "missing") return outcomes.NOT_SHOWN_YET;
  return outcomes.onlyAnEarlierOrder(status?.ticketId ?? "", status?.status ?? "");
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
  link: { readonly client: AccountCheckOptions["client"] },
  io: Pick<CommandIO, "stderr" | "signal">,
  concurrency: number,
  /**
   * Whether an order holding only numbers sent without a learned outcome is asked about: not
   * by `status`, which asks PortInStatus about them by number anyway. Such numbers are looked
   * up in the list either way, so that both commands name the order that holds them.
   */
  askAboutUnsure = true,
  /** The run's one breaker for every PortInStatus question. */
  asker?: StatusAsker,
): Promise<ReadonlyMap<string, AccountHold>> {
  // What the journal alone says of each number (verdict.ts): a submitted one needs no look-up.
  const journalVerdict = (number: string) => verdictOf({ state: stateOf(prior, number) });
  const numbers = function* (): Generator<string> {
    for (const row of rows) if (row.valid && !inOrder(journalVerdict(row.number))) yield row.number;
  };
  // Closed orders are asked about only for numbers the journal says nothing of: it knows of a
  // rejection, and an unsure number's PortInStatus answers for it.
  const untold = (number: string): boolean => {
    const verdict = journalVerdict(number);
    return inOrder(verdict) || (verdict.kind === "send" && verdict.rejection === null);
  };
  const askOpen = askAboutUnsure ? undefined : (number: string): boolean => journalVerdict(number).kind !== "unsure";
  const checked = await checkAccountOrders(numbers(), {
    client: link.client,
    concurrency,
    signal: io.signal,
    askClosed: untold,
    ...(askOpen === undefined ? {} : { askOpen }),
    ...(asker === undefined ? {} : { asker }),
  });
  if (checked.unavailable !== null) {
    io.stderr.write(notices.orderListUnavailable(checked.unavailable));
  }
  if (checked.unread.length > 0) io.stderr.write(unreadNotice(checked.unread));
  return checked.holds;
}

/** Whether the journal alone holds the number in an order with a ticket: its own, or one that refused its request. */
function inOrder(verdict: Verdict): boolean {
  return verdict.kind === "submitted" || verdict.kind === "refused";
}

/** How many unread entries the notice names; the rest are counted. */
const UNREAD_NAMED = 10;

/** The run says what it could not read of the list, and what it did about it (docs/contract.md §5). */
function unreadNotice(unread: AccountCheck["unread"]): string {
  const named = unread.slice(0, UNREAD_NAMED).map(({ orderId, text }) => `order ${terminalSafe(orderId)}: ${terminalSafe(JSON.stringify(text))}`);
  const more = unread.length > UNREAD_NAMED ? `, and ${unread.length - UNREAD_NAMED} more` : "";
  return notices.orderListUnread(unread.length, `${named.join("; ")}${more}`);

}

/**
 * Each number an order holds under a known ticket, recorded as submitted, so later runs and
 * `status` follow it: `outside` this journal unless an earlier run of it sent the number. A
 * number the journal already holds as submitted is not recorded again. A number the journal
 * knew nothing of, whose order the losing carrier rejected, is recorded submitted and then
 * `ended` (docs/contract.md §5), with its row's fingerprint when the row is what the order was
 * sent with, "" when not: the next run then keeps it `rejected` until the row changes.
 */
export async function recordHolds(holds: ReadonlyMap<string, AccountHold>, journal: Pick<Journal, "confirmed" | "ended" | "prior">, rows: readonly CheckedRow[]): Promise<void> {
  const records: Promise<void>[] = [];
  const rejected = new Map<string, { readonly order: EndedOrder; readonly numbers: { number: string; fingerprint: string }[] }>();
  let rowOf: Map<string, ValidRow> | null = null;
  for (const [number, hold] of holds) {
    const verdict = verdictOf({ state: stateOf(journal.prior, number), hold });
    if (hold.kind === "rejected") {
      if ((verdict.kind !== "rejected" && verdict.kind !== "send") || verdict.rejection?.order !== hold.order) continue;
      rowOf ??= validRowsByNumber(rows);
      const row = rowOf.get(number);
      const asSent = row !== undefined && !rowNowOf(row).differsFrom(hold.sentWith);
      const entry = rejected.get(hold.ticket) ?? { order: hold.order, numbers: [] };
      entry.numbers.push({ number, fingerprint: asSent ? rowFingerprint(row) : "" });
      rejected.set(hold.ticket, entry);
      records.push(journal.confirmed(number, hold.ticket, hold.status, true));
      continue;
    }
    // A number the journal holds as submitted keeps its own ticket (verdict.ts).
    if (verdict.kind !== "held" || hold.ticket === "") continue;
    // An order holding a number an earlier run of this journal sent without learning the outcome is that run's own.
    records.push(journal.confirmed(number, hold.ticket, hold.status, verdict.earlierRun === null));
  }
  // After the numbers' `confirmed` records: an `ended` record ends only an order the journal holds them in.
  for (const { order, numbers } of rejected.values()) {
    records.push(journal.ended({ ticket: order.ticket, status: order.status, reason: order.reason, summary: order.summary, details: order.details, numbers }));
  }
  await Promise.all(records);
}

function validRowsByNumber(rows: readonly CheckedRow[]): Map<string, ValidRow> {
  const byNumber = new Map<string, ValidRow>();
  for (const row of rows) if (row.valid && !byNumber.has(row.number)) byNumber.set(row.number, row);
  return byNumber;
}
