/**
 * Where each row's port-in order stands (docs/contract.md §6, `portin status`): the journal
 * says which order (ticket) holds each number; the service is asked once per ticket, and by
 * number only where no ticket is known (port-in-status.ts), and each row gets its order's
 * status, or why it has none.
 */
import { formatRejectDetails, portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import type { EndedEntry, StatusEntry } from "../journal/journal.js";
import { sentOf, stateOf } from "../journal/prior.js";
import type { EndedOrder, KnownStatus, PriorState } from "../journal/prior.js";
import { rowFingerprint } from "../group/fingerprint.js";
import { noOrder, orderStatus } from "../results/order-status.js";
import type { OrderFacts, OrderStatus } from "../results/order-status.js";
import { NOT_PORTABLE_ADVICE, saysNotPortable } from "../results/row-outcome.js";
import type { ServiceClient } from "../service/client.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { absentText } from "./earlier-runs.js";
import { askByNumber, StatusAsker } from "./port-in-status.js";
import type { Asked } from "./port-in-status.js";
import { AS_SENT, verdictOf } from "./verdict.js";
import type { AccountHold, RowNow } from "./verdict.js";

/** The part of the run journal `status` writes to. */
export interface StatusJournal {
  /** PortInStatus showed an unsure number (or one submitted without a ticket) under `ticket`. */
  confirmed(number: string, ticket: string, status: string): Promise<void>;
  /** An order ended without porting: its numbers are sent again once their rows change (docs/contract.md §5). */
  ended(order: EndedEntry): Promise<void>;
  /** What this check learned of one order: the journal's status history (docs/contract.md §6). */
  status(order: StatusEntry): Promise<void>;
}

export interface LearnOptions {
  readonly client: Pick<ServiceClient, "ticketStatus" | "portInStatus">;
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** Null for no journal (none given, or none written yet): `noJournal` says which. */
  readonly journal: StatusJournal | null;
  readonly noJournal: string;
  /** What the account's order list said of numbers the journal does not hold as submitted (account-orders.ts). */
  readonly account?: ReadonlyMap<string, AccountHold>;
}

export interface Learned {
  readonly statusOf: (index: number) => OrderStatus;
  /** PortInStatus questions sent. */
  readonly requests: number;
}

/** Why a number has nothing to ask about, or how to ask: the number's verdict (verdict.ts) as `status` acts on it. */
export type Source =
  | { readonly kind: "ticket"; readonly ticket: string }
  /**
   * Asked by number: submitted without a ticket, or unsure (an intent without outcome, or
   * `unknown`). `request`: the request that last carried it, "" for none: one question a request.
   */
  | { readonly kind: "number"; readonly unsure: boolean; readonly request: string; readonly after?: string }
  /** An order an earlier `status` learned had ended: over for good, so not asked again. `changed`: the row differs from the one it held. */
  | { readonly kind: "ended"; readonly order: EndedOrder; readonly changed: boolean }
  | { readonly kind: "none"; readonly why: string };

export async function learnStatuses(rows: readonly CheckedRow[], prior: PriorState | null, options: LearnOptions): Promise<Learned> {
  // Worked out again for each row's status rather than held: a million rows (docs/architecture.md, Memory).
  const sourceFor = (number: string, row: RowNow = AS_SENT): Source => sourceOf(number, prior, options.account?.get(number), options.noJournal, row);
  const tickets = new Set<string>();
  const groups = new Map<string, string[]>();
  const asked = new Set<string>();
  for (const row of rows) {
    if (row.number === "") continue;
    const source = sourceFor(row.number);
    if (source.kind === "ticket") tickets.add(source.ticket);
    if (source.kind === "number" && !asked.has(row.number)) {
      asked.add(row.number);
      // One question per request: its answer's NumbersToPort settles the request's other numbers.
      const group = groups.get(source.request);
      if (group) group.push(row.number);
      else groups.set(source.request, [row.number]);
    }
  }

  // The last status an earlier check learned of the number's order ("" ticket: any order).
  const knownFor = (number: string, ticket: string): KnownStatus | null => {
    const known = prior?.lastStatus.get(number);
    return known !== undefined && (ticket === "" || known.ticket === ticket) ? known : null;
  };
  const asker = new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  const byTicket = await asker.run(tickets, async (ticket, watch) => beyondJournal(await options.client.ticketStatus(ticket, watch), ticket, prior));
  const byNumber = await askByNumber(groups.values(), asker, (number, watch) => options.client.portInStatus(number, watch));
  if (options.journal !== null && prior !== null) {
    await Promise.all([
      recordConfirmations(byNumber, options.journal),
      recordEnded(byTicket, byNumber, prior, rows, options.journal),
      recordStatuses(byTicket, byNumber, prior, options.journal),
    ]);
  }

  const statusOf = (index: number): OrderStatus => {
    const row = rows[index] as CheckedRow;
    if (row.number === "") return noOrder("not-submitted", "", "", `never submitted: the row is invalid: ${row.valid ? "" : row.reason}`);
    // An invalid row is taken as sent: the row as it stands changes nothing the order holds.
    const source = sourceFor(row.number, row.valid ? { changedSince: (fingerprint) => rowFingerprint(row) !== fingerprint } : AS_SENT);
    switch (source.kind) {
      case "none":
        return noOrder("not-submitted", "", "", row.valid ? source.why : `never submitted: the row is invalid: ${row.reason}`);
      case "ended":
        return fromEnded(source.order, source.changed);
      case "ticket":
        return fromAnswer(byTicket.get(source.ticket), { ticket: source.ticket, unsure: false, known: knownFor(row.number, source.ticket) });
      case "number":
        return resentAfterEnd(byNumber.get(row.number), source.after) ?? fromAnswer(byNumber.get(row.number), { ticket: "", unsure: source.unsure, known: knownFor(row.number, "") });
    }
  };
  return { statusOf, requests: asker.asked };
}

/** The number's verdict (verdict.ts) as `status` and `report` act on it: which order to ask about, or why none. */
export function sourceOf(number: string, prior: PriorState | null, hold: AccountHold | undefined, noJournal: string, row: RowNow = AS_SENT): Source {
  const verdict = verdictOf({ state: stateOf(prior, number), hold, row });
  switch (verdict.kind) {
    case "submitted":
      return verdict.submitted.ticket === "" ? { kind: "number", unsure: false, request: verdict.submitted.requestId } : { kind: "ticket", ticket: verdict.submitted.ticket };
    case "held":
      // An order on the account holds it, whoever placed it (docs/contract.md §5).
      return verdict.hold.ticket === "" ? { kind: "number", unsure: false, request: "" } : { kind: "ticket", ticket: verdict.hold.ticket };
    case "unsure": {
      // Sent by an earlier run without a learned outcome: asked by number, as submit asks (confirm.ts).
      const { requestId, after } = verdict.state;
      return { kind: "number", unsure: true, request: requestId, ...(after === undefined ? {} : { after }) };
    }
    case "rejected":
    case "send": {
      const { rejection } = verdict;
      if (rejection === null) return { kind: "none", why: prior === null ? noJournal : "not submitted yet: portin submit sends it" };
      if (rejection.order) return { kind: "ended", order: rejection.order, changed: verdict.kind === "send" };
      // No edit makes a number portable (docs/contract.md §6); a row changed since is the user's fix, which submit sends.
      const next =
        verdict.kind === "send" ? "the row has changed since: portin submit sends it again" : saysNotPortable(rejection.message) ? NOT_PORTABLE_ADVICE : "fix the row and run portin submit";
      return { kind: "none", why: `never submitted: the service rejected it (${rejection.message}); ${next}` };
    }
  }
}

/**
 * A ticket's answer keeps, of its NumbersToPort, only the numbers the journal does not hold
 * under that ticket: recordStatuses reads those from the journal, and a million numbers'
 * strings need not be held from the answer until the results are written.
 */
function beyondJournal(status: PortInStatus | null, ticket: string, prior: PriorState | null): PortInStatus | null {
  if (status === null || prior === null) return status;
  const numbersToPort = status.numbersToPort.filter((number) => !heldUnder(prior, number, ticket));
  return Object.assign({}, status, { numbersToPort });
}

/** Whether the journal holds `number` as submitted under `ticket`. */
function heldUnder(prior: PriorState, number: string, ticket: string): boolean {
  const state = stateOf(prior, number);
  return state.kind === "submitted" && state.ticket === ticket;
}

/** Orders whose `status` records are made and appended together: their JSON is never all in memory at once. */
const RECORD_BATCH = 256;

/**
 * One `status` record per order this check learned (docs/contract.md §6), with every number
 * the answer or the journal puts in it: the answer's NumbersToPort, the numbers asked about by
 * number that it answered, and the numbers the journal holds as submitted under its ticket
 * (read in one pass for every order, whichever way it was asked about).
 */
async function recordStatuses(byTicket: ReadonlyMap<string, Asked>, byNumber: ReadonlyMap<string, Asked>, prior: PriorState, journal: StatusJournal): Promise<void> {
  /** Per order, the numbers besides those the journal holds under its ticket. */
  const orders = new Map<string, { status: PortInStatus; at: string; beyond: Set<string> }>();
  const add = (status: PortInStatus, at: string, beyond: Iterable<string>): void => {
    const order = orders.get(status.ticketId) ?? { status, at, beyond: new Set<string>() };
    for (const number of beyond) order.beyond.add(number);
    orders.set(status.ticketId, order);
  };
  // A ticket's answer already holds only what the journal lacks (beyondJournal).
  for (const [ticket, answer] of byTicket) if (answer.kind === "found") add(Object.assign({}, answer.status, { ticketId: ticket }), answer.at, answer.status.numbersToPort);
  for (const [number, answer] of byNumber) {
    if (answer.kind !== "found" || answer.status.ticketId === "") continue;
    const { ticketId } = answer.status;
    add(answer.status, answer.at, [...answer.status.numbersToPort, number].filter((other) => !heldUnder(prior, other, ticketId)));
  }
  const held = prior.submittedUnder(new Set(orders.keys()));
  const record = ({ status, at, beyond }: { status: PortInStatus; at: string; beyond: Set<string> }): Promise<void> => {
    const numbers = [...(held.get(status.ticketId) ?? []), ...beyond];
    held.delete(status.ticketId);
    return journal.status({
      ticket: status.ticketId,
      status: status.status,
      portDate: status.portDate,
      reason: status.rejectReason,
      summary: status.rejectSummary,
      details: formatRejectDetails(status.rejectDetails),
      numbers,
      at,
    });
  };
  const all = [...orders.values()];
  for (let i = 0; i < all.length; i += RECORD_BATCH) await Promise.all(all.slice(i, i + RECORD_BATCH).map(record));
}

/** A number PortInStatus shows in a live or completed order is as good as submitted: later runs need not ask. */
async function recordConfirmations(answers: ReadonlyMap<string, Asked>, journal: StatusJournal): Promise<void> {
  const records: Promise<void>[] = [];
  for (const [number, answer] of answers) {
    if (answer.kind !== "found" || portInPhase(answer.status.status) === "ended") continue;
    // Appended in one turn, they share one write and one fsync (journal/group-commit.ts).
    records.push(journal.confirmed(number, answer.status.ticketId, answer.status.status));
  }
  await Promise.all(records);
}

/**
 * Records each order found ended, with every number the journal holds in it: the ticket's
 * submitted numbers, or the unsure numbers asked by number whose answer it was. Each carries
 * its row's fingerprint as sent, or, from an intent an older portin wrote, the row as this
 * sheet has it now.
 */
async function recordEnded(
  byTicket: ReadonlyMap<string, Asked>,
  byNumber: ReadonlyMap<string, Asked>,
  prior: PriorState,
  rows: readonly CheckedRow[],
  journal: StatusJournal,
): Promise<void> {
  const orders = new Map<string, { status: PortInStatus; numbers: string[] }>();
  const add = (status: PortInStatus, numbers: readonly string[]): void => {
    const order = orders.get(status.ticketId) ?? { status, numbers: [] };
    order.numbers.push(...numbers);
    orders.set(status.ticketId, order);
  };
  const endedTickets = new Map<string, PortInStatus>();
  for (const [ticket, answer] of byTicket) {
    if (answer.kind === "found" && portInPhase(answer.status.status) === "ended") endedTickets.set(ticket, answer.status);
  }
  if (endedTickets.size > 0) {
    for (const [ticket, numbers] of prior.submittedUnder(new Set(endedTickets.keys()))) {
      add(Object.assign({}, endedTickets.get(ticket), { ticketId: ticket }), numbers);
    }
  }
  for (const [number, answer] of byNumber) {
    if (answer.kind !== "found" || portInPhase(answer.status.status) !== "ended" || answer.status.ticketId === "") continue;
    // The order a number was sent again after is old news: recording it again would undo the resend.
    const after = sentOf(stateOf(prior, number))?.after;
    if (answer.status.ticketId !== after) add(answer.status, [number]);
  }
  if (orders.size === 0) return;

  // The row's digest now, only for a number the journal holds none for (journals written
  // before fingerprints): a digest a row costs ~2 us, seconds over a million rows.
  let current: Map<string, ValidRow> | null = null;
  const currentFingerprint = (number: string): string => {
    if (current === null) {
      current = new Map();
      for (const row of rows) if (row.valid && !current.has(row.number)) current.set(row.number, row);
    }
    const row = current.get(number);
    return row === undefined ? "" : rowFingerprint(row);
  };
  const sentFingerprint = (number: string): string => sentOf(stateOf(prior, number))?.fingerprint ?? currentFingerprint(number);
  await Promise.all(
    [...orders.values()].map(({ status, numbers }) =>
      journal.ended({
        ticket: status.ticketId,
        status: status.status,
        reason: status.rejectReason,
        summary: status.rejectSummary,
        details: formatRejectDetails(status.rejectDetails),
        numbers: numbers.map((number) => ({ number, fingerprint: sentFingerprint(number) })),
      }),
    ),
  );
}

/** An order an earlier `status` recorded as ended: what submit will do with the row. */
function fromEnded(order: EndedOrder, changed: boolean): OrderStatus {
  const next = changed
    ? "the row has changed since: portin submit sends it again"
    : "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)";
  return {
    status: order.status,
    state: "ended",
    ticket: order.ticket,
    portDate: "",
    rejectReason: order.reason,
    rejectSummary: order.summary,
    rejectDetails: order.details,
    checkedAt: order.at,
    message: `ticket ${order.ticket} ended as ${order.status} without porting${order.reason ? `: ${order.reason}` : ""}; ${next}`,
  };
}

/**
 * A number sent again after its order ended, the outcome never learned, for which the service
 * still shows only that ended order: the resend never took. Said as submit says it
 * (earlier-runs.ts absentText), never as news of the old order.
 */
function resentAfterEnd(answer: Asked | undefined, after: string | undefined): OrderStatus | null {
  if (after === undefined || answer?.kind !== "found" || answer.status.ticketId !== after || portInPhase(answer.status.status) !== "ended") return null;
  const what = absentText({ status: answer.status.status, ticket: answer.status.ticketId }, after);
  return noOrder("not-found", "", answer.at, `an earlier run sent this number again without learning the outcome; ${what}: portin submit --retry-unknown sends it again`);
}

function fromAnswer(answer: Asked | undefined, asked: { readonly ticket: string; readonly unsure: boolean; readonly known: KnownStatus | null }): OrderStatus {
  if (answer === undefined || answer.kind === "failed") {
    const reason = answer?.reason ?? "not checked";
    if (asked.known !== null) return fromKnown(asked.known, reason);
    return noOrder("unchecked", asked.ticket, answer?.at ?? "", `${reason}: run portin status again later`);
  }
  if (answer.kind === "missing") {
    const message =
      asked.ticket !== ""
        ? `the service has no port-in ticket ${asked.ticket} (404): ask the service about it before sending these numbers again`
        : asked.unsure
          ? "an earlier run sent this number without learning the outcome, and the service has no port-in for it: portin submit --retry-unknown sends it again"
          : "submitted by an earlier run without a ticket, and the service has no port-in for it: ask the service about it before sending it again";
    return noOrder("not-found", asked.ticket, answer.at, message);
  }
  return fromService(answer.status, answer.at, asked.unsure);
}

/**
 * A number whose status this check could not learn keeps the last one an earlier check
 * learned, with when (docs/contract.md §6): never a blank. A completed or ended order stays
 * so; an open one is reported `unchecked` (exit 1), its Status word and port date kept.
 */
function fromKnown(known: KnownStatus, reason: string): OrderStatus {
  const phase = portInPhase(known.status);
  return {
    status: known.status,
    state: phase === "open" ? "unchecked" : phase,
    ticket: known.ticket,
    portDate: known.portDate,
    rejectReason: known.reason,
    rejectSummary: known.summary,
    rejectDetails: known.details,
    checkedAt: known.at,
    message: `${known.status}${known.portDate === "" ? "" : ` (port date ${known.portDate})`} as last learned at ${known.at}; ${reason}: run portin status again later`,
  };
}

export function fromService(status: PortInStatus, at: string, unsure: boolean): OrderStatus {
  const phase = portInPhase(status.status);
  const ticket = status.ticketId;
  const base: OrderFacts = {
    status: status.status,
    state: phase,
    ticket,
    portDate: status.portDate,
    rejectReason: status.rejectReason,
    rejectSummary: status.rejectSummary,
    rejectDetails: formatRejectDetails(status.rejectDetails),
    checkedAt: at,
  };
  const found = unsure ? " (an earlier run had not learned that the service accepted it)" : "";
  switch (phase) {
    case "completed":
      return orderStatus(base, `ported${status.portDate ? ` on ${status.portDate}` : ""}${found}; nothing to do`);
    case "ended":
      return orderStatus(
        base,
        `ticket ${ticket} ended as ${status.status} without porting${status.rejectReason ? `: ${status.rejectReason}` : ""}${found}; ` +
          "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)",
      );
    case "open":
      if (/^submitted$/i.test(status.status)) return orderStatus(base, `waiting for the losing carrier to confirm a port date${found}`);
      if (/^confirmed$/i.test(status.status)) {
        return orderStatus(base, `the losing carrier confirmed the port${status.portDate ? ` for ${status.portDate}` : ""}${found}`);
      }
      return orderStatus(base, `still open: the service says ${status.status}${found}`);
  }
}
