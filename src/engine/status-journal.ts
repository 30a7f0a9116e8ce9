/**
 * What a `status` check writes to the run journal (docs/contract.md §5, §6): the numbers
 * PortInStatus showed in a live order (`confirmed`), the orders found ended (`ended`), and one
 * `status` record per order learned, with every number the answer or the journal puts in it.
 */
import { formatRejectDetails, portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import type { EndedEntry, StatusEntry } from "../journal/journal.js";
import { sentOf, stateOf } from "../journal/prior.js";
import type { PriorState } from "../journal/prior.js";
import { rowFingerprint } from "../group/fingerprint.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import type { Asked } from "./port-in-status.js";

/** The part of the run journal `status` writes to. */
export interface StatusJournal {
  /** PortInStatus showed an unsure number (or one submitted without a ticket) under `ticket`. */
  confirmed(number: string, ticket: string, status: string): Promise<void>;
  /** An order ended without porting: its numbers are sent again once their rows change (docs/contract.md §5). */
  ended(order: EndedEntry): Promise<void>;
  /** What this check learned of one order: the journal's status history (docs/contract.md §6). */
  status(order: StatusEntry): Promise<void>;
}

/** What one check learned: each ticket's answer, and each number's asked about by number. */
export interface Answers {
  readonly byTicket: ReadonlyMap<string, Asked>;
  readonly byNumber: ReadonlyMap<string, Asked>;
}

/** Every record the check's answers make, appended together. */
export async function recordAnswers(answers: Answers, prior: PriorState, rows: readonly CheckedRow[], journal: StatusJournal): Promise<void> {
  await Promise.all([
    recordConfirmations(answers.byNumber, journal),
    recordEnded(answers.byTicket, answers.byNumber, prior, rows, journal),
    recordStatuses(answers.byTicket, answers.byNumber, prior, journal),
  ]);
}

/**
 * A ticket's answer keeps, of its NumbersToPort, only the numbers the journal does not hold
 * under that ticket: recordStatuses reads those from the journal, and a million numbers'
 * strings need not be held from the answer until the results are written.
 */
export function beyondJournal(status: PortInStatus | null, ticket: string, prior: PriorState | null): PortInStatus | null {
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
