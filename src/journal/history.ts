/**
 * The journal's status history (records.ts `status`, docs/contract.md §5, §6): what each
 * order's latest reading is, how the readings of one night stand, and what changed between
 * one check and the one before. Pure: no I/O, nothing of the sheet.
 */
import { portInPhase } from "../catalog/account.js";
import type { KnownStatus } from "./prior.js";
import type { JournalRecord, StatusRecord } from "./records.js";

/** The `status` records, in file order. */
export function statusReadings(records: Iterable<JournalRecord>): StatusRecord[] {
  const readings: StatusRecord[] = [];
  for (const record of records) if (record.type === "status") readings.push(record);
  return readings;
}

/** Each ticket's latest reading (file order: a later record is a later check). */
export function latestByTicket(readings: Iterable<StatusRecord>): Map<string, StatusRecord> {
  const latest = new Map<string, StatusRecord>();
  for (const reading of readings) latest.set(reading.ticket, reading);
  return latest;
}

/** The UTC dates (YYYY-MM-DD) on which a check recorded readings, oldest first. */
export function nightsOf(readings: readonly StatusRecord[]): string[] {
  return [...new Set(readings.map((reading) => reading.at.slice(0, 10)))].sort();
}

/** One number whose order moved since the check before. */
export interface NumberChange {
  readonly number: string;
  readonly ticket: string;
  readonly portDate: string;
  readonly reason: string;
}

/** An order whose status has not moved for `businessDays` business days. */
export interface SilentOrder {
  readonly ticket: string;
  readonly status: string;
  /** When it was first read with that status. */
  readonly since: string;
  readonly businessDays: number;
  readonly numbers: number;
}

/** What changed since the last check (docs/contract.md §6): the `changes` of `status --json`. */
export interface StatusChanges {
  /** When the previous check read these orders, or null when this is the first check of them. */
  readonly previousCheck: string | null;
  readonly confirmed: readonly NumberChange[];
  readonly completed: readonly NumberChange[];
  readonly rejected: readonly NumberChange[];
  readonly silent: readonly SilentOrder[];
}

/**
 * An open order whose Status and port date have not changed for more than this many business
 * days is "silent" (docs/contract.md §6): carriers answer within a day or two, and a week of
 * nothing is worth a question. `status --silent-after` and `report --silent-after` change it.
 */
export const SILENT_AFTER_BUSINESS_DAYS = 5;

/** How long an open order has waited since its last change, and whether that is silence. */
export interface Wait {
  readonly businessDays: number;
  /** What it waits for: its confirmed port date, or the losing carrier's (or the service's) answer. */
  readonly waitingFor: "port date" | "answer";
  readonly silent: boolean;
}

/**
 * The wait of an open order read with `status` and `portDate` since `steady` (docs/contract.md
 * §6): a CONFIRMED order before its port date waits for that date, which is no silence however
 * far off it is; any other open order (or a CONFIRMED one whose date has passed without a
 * completion) is silent after `silentAfter` business days with no change.
 */
export function waitOf(status: string, portDate: string, steady: string, now: Date, silentAfter: number): Wait {
  const businessDays = businessDaysBetween(new Date(steady), now);
  const date = portDate.slice(0, 10);
  if (status.trim().toUpperCase() === "CONFIRMED" && /^\d{4}-\d{2}-\d{2}$/.test(date) && date >= now.toISOString().slice(0, 10)) {
    return { businessDays, waitingFor: "port date", silent: false };
  }
  return { businessDays, waitingFor: "answer", silent: businessDays > silentAfter };
}

/**
 * Compares each order's readings of this check (those at or after `since`) with its reading
 * before; an order first read in this check counts as moved from nothing, so a first check
 * lists what it found. Only a move into CONFIRMED, COMPLETED or an ended status is a change.
 */
export function changesSince(readings: Iterable<StatusRecord>, since: string, now: Date = new Date(), silentAfter = SILENT_AFTER_BUSINESS_DAYS): StatusChanges {
  const fold = changesFold(since, silentAfter);
  for (const reading of readings) fold.take(reading);
  return fold.changes(now);
}

/** changesSince one reading at a time, as the journal is read (read.ts scanJournalFile). */
export interface ChangesFold {
  readonly take: (reading: StatusRecord) => void;
  readonly changes: (now?: Date) => StatusChanges;
}

/** What a reading leaves for the changes: its numbers only where they may be listed as a change. */
interface Kept {
  readonly status: string;
  readonly portDate: string;
  readonly reason: string;
  readonly at: string;
  readonly numbers: readonly string[];
  readonly count: number;
}

/**
 * Holds each ticket's reading before `since` and its latest since, and no reading's numbers
 * but those a change may list: a journal of many nights holds a million numbers a night
 * (docs/architecture.md, Memory).
 */
export function changesFold(since: string, silentAfter = SILENT_AFTER_BUSINESS_DAYS): ChangesFold {
  const before = new Map<string, Kept>();
  const current = new Map<string, Kept>();
  /** When each ticket was first read with the status it has in its latest reading. */
  const steadySince = new Map<string, string>();
  let previousCheck: string | null = null;

  const take = (reading: StatusRecord): void => {
    const earlier = current.get(reading.ticket) ?? before.get(reading.ticket);
    if (earlier === undefined || movedFrom(earlier, reading)) steadySince.set(reading.ticket, reading.at);
    const listed = reading.at >= since && mayBeListed(reading.status);
    const kept: Kept = {
      status: reading.status,
      portDate: reading.portDate ?? "",
      reason: reading.reason,
      at: reading.at,
      numbers: listed ? reading.numbers : [],
      count: reading.numbers.length,
    };
    if (reading.at < since) {
      before.set(reading.ticket, kept);
      if (previousCheck === null || reading.at > previousCheck) previousCheck = reading.at;
    } else current.set(reading.ticket, kept);
  };

  const changes = (now: Date = new Date()): StatusChanges => {
    const confirmed: NumberChange[] = [];
    const completed: NumberChange[] = [];
    const rejected: NumberChange[] = [];
    const silent: SilentOrder[] = [];
    for (const [ticket, reading] of current) {
      const word = reading.status.toUpperCase();
      const phase = portInPhase(reading.status);
      const was = before.get(ticket)?.status.toUpperCase() ?? "";
      const list = (into: NumberChange[]): void => {
        for (const number of reading.numbers) into.push({ number, ticket, portDate: reading.portDate, reason: reading.reason });
      };
      if (word !== was) {
        if (word === "CONFIRMED") list(confirmed);
        else if (phase === "completed") list(completed);
        else if (phase === "ended") list(rejected);
      }
      if (phase !== "open") continue;
      const steady = steadySince.get(ticket) ?? reading.at;
      const wait = waitOf(reading.status, reading.portDate, steady, now, silentAfter);
      if (wait.silent) silent.push({ ticket, status: reading.status, since: steady, businessDays: wait.businessDays, numbers: reading.count });
    }
    const byNumber = (a: NumberChange, b: NumberChange): number => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0);
    return {
      previousCheck,
      confirmed: confirmed.sort(byNumber),
      completed: completed.sort(byNumber),
      rejected: rejected.sort(byNumber),
      silent: silent.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0)),
    };
  };
  return { take, changes };
}

/** A change of an order: its Status word, or the port date it holds. */
function movedFrom(earlier: { readonly status: string; readonly portDate: string }, reading: StatusRecord): boolean {
  return earlier.status.toUpperCase() !== reading.status.toUpperCase() || earlier.portDate !== (reading.portDate ?? "");
}

/** A status whose reading may list its numbers as a change: CONFIRMED, completed or ended. */
function mayBeListed(status: string): boolean {
  return status.toUpperCase() === "CONFIRMED" || portInPhase(status) !== "open";
}

/** Whole weekdays (Monday to Friday, UTC) from `from` to `to`; holidays are not known. */
export function businessDaysBetween(from: Date, to: Date): number {
  const DAY = 86_400_000;
  const start = Math.floor(from.getTime() / DAY);
  const end = Math.floor(to.getTime() / DAY);
  let days = 0;
  for (let day = start + 1; day <= end; day++) {
    // 1970-01-01 was a Thursday: day 0 is 4 in getUTCDay's numbering.
    const weekday = (day + 4) % 7;
    if (weekday !== 0 && weekday !== 6) days++;
  }
  return days;
}

/** One change of one order, as a number's history shows it: the order's status as a check learned it. */
export type OrderEvent = KnownStatus;

/** Every order a number was in since its first reject, each change read (docs/contract.md §6). */
export interface NumberHistory {
  readonly number: string;
  readonly events: readonly OrderEvent[];
}

/**
 * The history of every number any check ever read as rejected (or otherwise ended): each of
 * its orders' changes, the rejected one and the ones it was sent again in, so a reject that
 * was fixed and resent stays on the record (docs/contract.md §6). Holds each ticket's changes
 * (a few per order) and the numbers of ended orders only, not every reading's numbers: a
 * journal of many nights holds a million numbers a night (docs/architecture.md, Memory).
 */
export function rejectHistoryFold(): { readonly take: (reading: StatusRecord) => void; readonly histories: () => NumberHistory[] } {
  const changesOf = new Map<string, OrderEvent[]>();
  /** Each ever-rejected number's tickets, in the order they were read. */
  const ticketsOf = new Map<string, string[]>();
  const take = (reading: StatusRecord): void => {
    const events = changesOf.get(reading.ticket) ?? [];
    const last = events[events.length - 1];
    if (last === undefined || movedFrom(last, reading)) {
      events.push({ ticket: reading.ticket, status: reading.status, portDate: reading.portDate ?? "", reason: reading.reason, summary: reading.summary, details: reading.details, at: reading.at });
      changesOf.set(reading.ticket, events);
    }
    const ended = portInPhase(reading.status) === "ended";
    for (const number of reading.numbers) {
      const tickets = ticketsOf.get(number);
      if (tickets === undefined) {
        if (ended) ticketsOf.set(number, [reading.ticket]);
      } else if (!tickets.includes(reading.ticket)) tickets.push(reading.ticket);
    }
  };
  const histories = (): NumberHistory[] =>
    [...ticketsOf]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([number, tickets]) => ({ number, events: tickets.flatMap((ticket) => changesOf.get(ticket) ?? []) }));
  return { take, histories };
}
