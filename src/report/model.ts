/**
 * What `portin report` shows (docs/contract.md §2 `report`), worked out from the sheet's rows
 * and the journal's records alone, without a service: each row's status as `status` last
 * learned it (the engine's own row outcome, engine/status-source.ts), the nights the journal
 * recorded, the port dates, and the problems grouped by cause. Pure: no I/O.
 */
import { portInPhase } from "../catalog/account.js";
import { sourceOf } from "../engine/status-source.js";
import { fromService } from "../engine/status-words.js";
import { rejectHistoryFold, SILENT_AFTER_BUSINESS_DAYS, waitOf } from "../journal/history.js";
import type { NumberHistory, OrderEvent } from "../journal/history.js";
import { priorStateFold } from "../journal/prior.js";
import type { KnownStatus, PriorState } from "../journal/prior.js";
import type { JournalRecord } from "../journal/records.js";
import * as e911Words from "../messages/e911.js";
import * as reportWords from "../messages/report.js";
import { noOrder } from "../results/order-status.js";
import type { OrderStatus } from "../results/order-status.js";
import { parseNanp } from "../validate/nanp.js";
import { readDate } from "../validate/writings.js";
import { CustomerBook } from "./customers.js";
import type { Customer } from "./customers.js";
import { easternTime } from "./eastern.js";
import { sheetColumnsOf } from "./sheet-columns.js";
import type { SheetColumns, SheetFacts } from "./sheet-columns.js";

/** What the report needs of one sheet row, held column-wise (sheet-columns.ts). */
export type { SheetFacts } from "./sheet-columns.js";

export interface ReportRow {
  readonly line: number;
  /** 10 digits, or the cell as written when it is not a number. */
  readonly number: string;
  /** The customer's label (customers.ts): one per account at the losing carrier. */
  readonly customer: string;
  readonly window: string;
  readonly status: OrderStatus;
  /** Why the row is invalid as far as the sheet alone can tell (its number), or null. */
  readonly invalid: string | null;
  readonly who: Customer;
  /** Its order was placed outside this journal (the web portal, another sheet, a lost journal), adopted from the account. */
  readonly outside: boolean;
  /** The sheet's RequestedPortDate as YYYY-MM-DD, "" when none or not a date. */
  readonly requestedDate: string;
}

/** The four states the progress bars draw (docs/contract.md §2 `report`). */
export const PROGRESS_STATES = ["SUBMITTED", "CONFIRMED", "COMPLETED", "REJECTED"] as const;
export type ProgressState = (typeof PROGRESS_STATES)[number];

export interface NightProgress {
  readonly night: string;
  /** Per customer, numbers in each state as the last check of that night left them. */
  readonly customers: readonly { readonly customer: string; readonly counts: Readonly<Record<ProgressState, number>> }[];
}

export interface PortDay {
  readonly date: string;
  readonly customer: string;
  /** RequestedPortTime, "" for the whole day. */
  readonly window: string;
  readonly status: string;
  readonly numbers: readonly string[];
  /** The customer's account, provider and every name it went by (customers.ts). */
  readonly who: Customer;
  /** Tickets of orders placed outside this journal among the day's. */
  readonly outside: readonly string[];
  /** The sheet's RequestedPortDate of numbers the account holds for another day, each once. */
  readonly sheetDates: readonly string[];
}

export interface ProblemGroup {
  readonly cause: string;
  readonly fix: string;
  readonly rows: readonly { readonly line: number; readonly number: string; readonly detail: string }[];
}

export interface ReportModel {
  readonly rows: readonly ReportRow[];
  readonly byStatus: readonly { readonly status: string; readonly rows: number }[];
  readonly ported: number;
  readonly nights: readonly NightProgress[];
  readonly calendar: readonly PortDay[];
  readonly invalid: readonly ProblemGroup[];
  readonly rejects: readonly ProblemGroup[];
  /** The latest check the journal recorded, or null. */
  readonly checkedAt: string | null;
  /** 9-1-1 coverage of the trunk numbers (docs/e911.md), and those not safe to use. */
  readonly e911: E911Coverage;
  /** Every customer, by account at the losing carrier, with the names it went by. */
  readonly customers: readonly Customer[];
  /** Numbers of the sheet any check ever read as rejected (or otherwise ended), fixed and resent or not. */
  readonly rejectedEver: number;
  /** Of those, numbers now in a later order (resent after the reject). */
  readonly resentAfterReject: number;
  /** Each ever-rejected number's history as one line, for the row table. */
  readonly histories: ReadonlyMap<string, string>;
  /** Every open order, with how long it has waited since its last change. */
  readonly waiting: readonly WaitingOrder[];
  /** Tickets of the orders placed outside this journal that hold the sheet's numbers. */
  readonly outsideTickets: ReadonlySet<string>;
  /** Rows of those orders. */
  readonly outsideRows: number;
  /** Rows whose order holds a port date other than the sheet's RequestedPortDate. */
  readonly datesDiffer: readonly DateDiffers[];
}

/** docs/contract.md §2 "9-1-1 addresses": per customer, the trunk numbers and how many have their 9-1-1 record. */
export interface E911Coverage {
  readonly customers: readonly { readonly customer: string; readonly trunkNumbers: number; readonly registered: number }[];
  /** Completed numbers off their trunk or without 9-1-1, as `status` last found them or the journal holds them: shown in red. */
  readonly unsafe: readonly { readonly line: number; readonly number: string; readonly customer: string; readonly why: string }[];
}

/** A row the account holds for another day than the sheet asked (docs/contract.md §2 `report`). */
export interface DateDiffers {
  readonly line: number;
  readonly number: string;
  readonly customer: string;
  readonly ticket: string;
  readonly outside: boolean;
  readonly sheetDate: string;
  readonly portDate: string;
}

/** An open order and its wait (journal/history.ts waitOf). */
export interface WaitingOrder {
  readonly ticket: string;
  readonly status: string;
  readonly portDate: string;
  readonly customers: readonly string[];
  readonly numbers: number;
  /** When it was first read as it stands (Status and port date). */
  readonly since: string;
  readonly businessDays: number;
  readonly waitingFor: "port date" | "answer";
  readonly silent: boolean;
}

export interface ReportOptions {
  /** When the report is made: waits are counted to it. */
  readonly now: Date;
  /** `--silent-after`: business days with no change after which an open order is silent. */
  readonly silentAfter: number;
}

export function buildReport(
  sheetRows: readonly SheetFacts[],
  records: Iterable<JournalRecord>,
  noJournal: string | null,
  options: ReportOptions = { now: new Date(), silentAfter: SILENT_AFTER_BUSINESS_DAYS },
): ReportModel {
  const fold = reportFold(sheetColumnsOf(sheetRows), options);
  for (const record of records) fold.take(record);
  return fold.model(noJournal);
}

/**
 * buildReport one journal record at a time, as the journal is read (read.ts scanJournalFile):
 * no record is held, and what the night-by-night progress and the orders' waits need is kept
 * by row and by ticket, not by reading. A 1,000,000-row migration's journal holds a million
 * numbers a check (docs/architecture.md, Memory).
 */
export interface ReportFold {
  readonly take: (record: JournalRecord) => void;
  readonly model: (noJournal: string | null) => ReportModel;
}

/** An order as the waits need it: its latest Status and port date, since when, how many numbers, whose. */
interface OrderWait {
  status: string;
  portDate: string;
  since: string;
  count: number;
  customers: Set<number>;
}

const STATE_CODE: Readonly<Record<ProgressState, number>> = { SUBMITTED: 1, CONFIRMED: 2, COMPLETED: 3, REJECTED: 4 };

/** `sheet` is the fold's own: each row's number cell is replaced by its 10 digits once read. */
export function reportFold(sheet: SheetColumns, options: ReportOptions): ReportFold {
  const rowCount = sheet.length;
  const cellsOf = (i: number): { name: string; account: string; provider: string } => ({ name: sheet.customer(i), account: sheet.account(i), provider: sheet.provider(i) });
  const book = new CustomerBook();
  for (let i = 0; i < rowCount; i++) book.add(cellsOf(i));
  // Each row's customer as an index into `labels`, and each number's first row: what a reading's numbers are counted by.
  const labels: string[] = [];
  const labelIndex = new Map<string, number>();
  const whoAt: Customer[] = [];
  const customerAt = new Uint32Array(rowCount);
  for (let i = 0; i < rowCount; i++) {
    const who = book.customerOf(cellsOf(i));
    let k = labelIndex.get(who.label);
    if (k === undefined) {
      labelIndex.set(who.label, (k = labels.push(who.label) - 1));
      whoAt.push(who);
    }
    customerAt[i] = k;
  }
  // Each row's number: its 10 digits in place of the cell once they parse, else the cell as
  // written with `unparsed` saying why; one string a row, not a cell and its digits (docs/architecture.md, Memory).
  const numberAt = sheet.numberCells;
  const unparsed = new Map<number, string>();
  const firstIndex = new Map<string, number>();
  for (let i = 0; i < rowCount; i++) {
    const result = parseNanp(numberAt[i] as string);
    if (!result.ok) {
      unparsed.set(i, result.reason);
      continue;
    }
    numberAt[i] = result.digits;
    if (!firstIndex.has(result.digits)) firstIndex.set(result.digits, i);
  }
  // What `status` last found of each completed trunk number (records.ts `trunk-check`).
  const trunkChecks = new Map<string, { readonly onTrunk: boolean; readonly e911: boolean }>();
  const shownSet = new Set<number>();
  for (let i = 0; i < rowCount; i++) if (!unparsed.has(i)) shownSet.add(customerAt[i] as number);
  const shown = [...shownSet].sort((a, b) => (labels[a] as string).localeCompare(labels[b] as string));

  const priorFold = priorStateFold();
  const history = rejectHistoryFold();
  // Orders placed outside this journal, as `status` and `submit` recorded them when the account showed them (records.ts `confirmed`).
  const outsideTickets = new Set<string>();
  const waits = new Map<string, OrderWait>();
  const stateAt = new Uint8Array(rowCount);
  const counts = labels.map(() => [0, 0, 0, 0, 0]);
  const nights: NightProgress[] = [];
  let night: string | null = null;
  let checkedAt: string | null = null;

  const snapshot = (): void => {
    if (night === null) return;
    nights.push({
      night,
      customers: shown.map((k) => {
        const c = counts[k] as number[];
        return { customer: labels[k] as string, counts: { SUBMITTED: c[1] as number, CONFIRMED: c[2] as number, COMPLETED: c[3] as number, REJECTED: c[4] as number } };
      }),
    });
  };

  const take = (record: JournalRecord): void => {
    priorFold.take(record);
    if (record.type === "confirmed" && record.outside === true) outsideTickets.add(record.ticket);
    if (record.type === "trunk-check") trunkChecks.set(record.number, { onTrunk: record.onTrunk, e911: record.e911 });
    if (record.type !== "status") return;
    history.take(record);
    if (checkedAt === null || record.at > checkedAt) checkedAt = record.at;
    // Each night the journal recorded: every order's latest reading by the end of it (readings come in the order checks wrote them).
    const day = record.at.slice(0, 10);
    if (night === null) night = day;
    else if (day > night) {
      snapshot();
      night = day;
    }
    const code = STATE_CODE[progressState(record.status)];
    const portDate = record.portDate ?? "";
    const before = waits.get(record.ticket);
    const wait: OrderWait =
      before === undefined || before.status.toUpperCase() !== record.status.toUpperCase() || before.portDate !== portDate
        ? { status: record.status, portDate, since: record.at, count: 0, customers: new Set() }
        : before;
    wait.status = record.status;
    wait.count = record.numbers.length;
    wait.customers.clear();
    for (const number of record.numbers) {
      const i = firstIndex.get(number);
      if (i === undefined) continue;
      const k = customerAt[i] as number;
      wait.customers.add(k);
      const old = stateAt[i] as number;
      if (old === code) continue;
      const c = counts[k] as number[];
      if (old !== 0) c[old] = (c[old] as number) - 1;
      c[code] = (c[code] as number) + 1;
      stateAt[i] = code;
    }
    waits.set(record.ticket, wait);
  };

  const model = (noJournal: string | null): ReportModel => {
    snapshot();
    const prior = noJournal === null ? priorFold.state() : null;
    // One status per reading, shared by its order's rows: a 1,000,000-row sheet's rows would
    // otherwise each hold a copy of their order's words (docs/architecture.md, Memory).
    const ofReading = new Map<KnownStatus, OrderStatus>();
    const shared = (known: KnownStatus): OrderStatus => {
      let status = ofReading.get(known);
      if (status === undefined) ofReading.set(known, (status = fromReading(known)));
      return status;
    };
    const statusOf = (number: string): OrderStatus => {
      const source = sourceOf(number, prior, undefined, noJournal ?? "");
      const known = prior?.lastStatus.get(number);
      switch (source.kind) {
        case "none":
          return noOrder("not-submitted", "", "", source.why);
        case "ticket":
          return known !== undefined && known.ticket === source.ticket ? shared(known) : unchecked(source.ticket, reportWords.notCheckedYet(source.ticket));
        case "number":
          return known !== undefined ? shared(known) : unchecked("", reportWords.OUTCOME_NOT_KNOWN);
        case "ended": {
          const { order } = source;
          return known !== undefined && known.ticket === order.ticket ? shared(known) : fromReading({ ticket: order.ticket, status: order.status, portDate: "", reason: order.reason, summary: order.summary, details: order.details, at: order.at });
        }
      }
    };

    const rows: ReportRow[] = [];
    for (let i = 0; i < rowCount; i++) rows.push(rowAt(i));
    function rowAt(i: number): ReportRow {
      const number = numberAt[i] as string;
      const why = unparsed.get(i);
      if (why !== undefined) return reportRow(i, number, why, neverSent(reportWords.rowInvalid(why)));
      // As `status` reports it: a number the journal holds has its order's status, on every row
      // that names it; a later row of a number the journal does not hold is a duplicate.
      const first = firstIndex.get(number) as number;
      const status = statusOf(number);
      if (first === i || status.state !== "not-submitted") return reportRow(i, number, null, status);
      const reason = reportWords.duplicateOfLine(sheet.line(first), number);
      return reportRow(i, number, reason, neverSent(reportWords.rowInvalid(reason)));
    }

    const byStatus = new Map<string, number>();
    for (const row of rows) byStatus.set(row.status.status, (byStatus.get(row.status.status) ?? 0) + 1);
    const everRejected = history.histories();
    const rejectedNumbers = new Set(everRejected.map((h) => h.number));
    const lineOf = new Map<string, ReportRow[]>();
    for (const row of rows) if (row.invalid === null && rejectedNumbers.has(row.number)) lineOf.set(row.number, [...(lineOf.get(row.number) ?? []), row]);
    const histories = everRejected.filter((h) => lineOf.has(h.number));
    return {
      rows,
      byStatus: [...byStatus].map(([status, n]) => ({ status, rows: n })).sort((a, b) => b.rows - a.rows || a.status.localeCompare(b.status)),
      ported: rows.filter((row) => row.status.state === "completed").length,
      nights,
      calendar: calendarOf(rows),
      invalid: invalidGroups(rows),
      rejects: rejectGroups(histories, lineOf),
      checkedAt,
      customers: book.customers(),
      e911: e911Coverage(sheet, rows, trunkChecks, prior),
      rejectedEver: histories.length,
      resentAfterReject: histories.filter((h) => new Set(h.events.map((e) => e.ticket)).size > 1).length,
      histories: new Map(histories.map((h) => [h.number, historyLine(h.events)])),
      waiting: waitingOrders(waits, labels, options),
      outsideTickets,
      outsideRows: rows.filter((row) => row.outside).length,
      datesDiffer: rows.flatMap((row): DateDiffers[] => {
        const held = row.status.portDate.slice(0, 10);
        if (row.requestedDate === "" || !/^\d{4}-\d{2}-\d{2}$/.test(held) || held === row.requestedDate || (row.status.state !== "open" && row.status.state !== "completed")) return [];
        return [{ line: row.line, number: row.number, customer: row.customer, ticket: row.status.ticket, outside: row.outside, sheetDate: row.requestedDate, portDate: held }];
      }),
    };
  };

  // Each RequestedPortDate as written read once, not once a row: the rows share its YYYY-MM-DD (docs/architecture.md, Memory).
  const requestedDates = new Map<string, string>([["", ""]]);
  const requestedDateOf = (written: string): string => {
    let date = requestedDates.get(written);
    if (date === undefined) {
      const reading = readDate(written);
      requestedDates.set(written, (date = reading.ok ? reading.value : ""));
    }
    return date;
  };

  /**
   * A report row holds its number, its status and why it is invalid; the rest it reads from the
   * sheet's columns when asked, so a 1,000,000-row sheet's rows are four fields each, not nine
   * (docs/architecture.md, Memory).
   */
  class ColumnRow implements ReportRow {
    constructor(
      private readonly at: number,
      readonly number: string,
      readonly status: OrderStatus,
      readonly invalid: string | null,
    ) {}
    get line(): number {
      return sheet.line(this.at);
    }
    get who(): Customer {
      return whoAt[customerAt[this.at] as number] as Customer;
    }
    get customer(): string {
      return this.who.label;
    }
    get window(): string {
      return sheet.window(this.at);
    }
    get outside(): boolean {
      return this.status.ticket !== "" && outsideTickets.has(this.status.ticket);
    }
    get requestedDate(): string {
      return requestedDateOf(sheet.requestedDate(this.at));
    }
  }
  function reportRow(i: number, number: string, invalid: string | null, status: OrderStatus): ReportRow {
    return new ColumnRow(i, number, status, invalid);
  }

  return { take, model };
}

/**
 * Each customer's trunk numbers and how many have a 9-1-1 record (registered by portin, or
 * found by `status`), and the completed ones that are off their trunk or have none, from the
 * latest `trunk-check` `status` recorded of each, else from the journal's registrations.
 */
function e911Coverage(sheet: SheetColumns, rows: readonly ReportRow[], checked: ReadonlyMap<string, { readonly onTrunk: boolean; readonly e911: boolean }>, prior: PriorState | null): E911Coverage {
  const customers = new Map<string, { customer: string; trunkNumbers: number; registered: number }>();
  const unsafe: { line: number; number: string; customer: string; why: string }[] = [];
  rows.forEach((row, i) => {
    if (!sheet.onTrunk(i) || row.invalid !== null) return;
    const parsed = parseNanp(row.number);
    if (!parsed.ok || parsed.kind !== "regular") return;
    const check = checked.get(row.number);
    const registered = check?.e911 ?? prior?.e911.get(row.number)?.kind === "registered";
    const entry = customers.get(row.customer) ?? { customer: row.customer, trunkNumbers: 0, registered: 0 };
    entry.trunkNumbers++;
    if (registered) entry.registered++;
    customers.set(row.customer, entry);
    if (row.status.state !== "completed") return;
    const why = [check?.onTrunk === false ? e911Words.REPORT_OFF_TRUNK : "", registered ? "" : e911Words.REPORT_WITHOUT_RECORD].filter((w) => w !== "").join("; ");
    if (why !== "") unsafe.push({ line: row.line, number: row.number, customer: row.customer, why });
  });
  return { customers: [...customers.values()].sort((a, b) => a.customer.localeCompare(b.customer)), unsafe };
}

/** `PI-000001 REJECTED 2026-12-01 01:30 EST (6P NAME); PI-000120 SUBMITTED …; CONFIRMED … for 2026-12-04`. */
function historyLine(events: readonly OrderEvent[]): string {
  return events
    .map((e, i) => {
      const ticket = i === 0 || events[i - 1]?.ticket !== e.ticket ? `${e.ticket} ` : "";
      const detail = portInPhase(e.status) === "ended" ? ` (${codesOf(e) || e.reason || "no reason given"})` : e.portDate === "" ? "" : ` for ${e.portDate.slice(0, 10)}`;
      return `${ticket}${e.status} ${easternTime(e.at)}${detail}`;
    })
    .join("; ");
}

/** `6P NAME, 1P AN`: the reject codes and fields of a reading's RejectDetails. */
function codesOf(event: OrderEvent): string {
  if (event.details === "") return "";
  return event.details
    .split("; ")
    .map((entry) => (entry.indexOf(": ") === -1 ? entry : entry.slice(0, entry.indexOf(": "))))
    .join(", ");
}

/** Every order whose latest reading is open, with its wait; the silent ones first, the longest first. */
function waitingOrders(waits: ReadonlyMap<string, OrderWait>, labels: readonly string[], options: ReportOptions): WaitingOrder[] {
  const waiting: WaitingOrder[] = [];
  for (const [ticket, order] of waits) {
    if (portInPhase(order.status) !== "open") continue;
    const wait = waitOf(order.status, order.portDate, order.since, options.now, options.silentAfter);
    const customers = [...order.customers].map((k) => labels[k] as string).sort();
    waiting.push({ ticket, status: order.status, portDate: order.portDate, customers, numbers: order.count, since: order.since, ...wait });
  }
  return waiting.sort((a, b) => Number(b.silent) - Number(a.silent) || b.businessDays - a.businessDays || a.ticket.localeCompare(b.ticket));
}

function neverSent(why: string): OrderStatus {
  return noOrder("not-submitted", "", "", `never submitted: ${why}`);
}

function unchecked(ticket: string, message: string): OrderStatus {
  return noOrder("unchecked", ticket, "", message);
}

/** A recorded reading, read as `status` reads the service's answer. */
function fromReading(reading: KnownStatus): OrderStatus {
  const answer = { ticketId: reading.ticket, status: reading.status, portDate: reading.portDate, rejectReason: reading.reason, rejectSummary: reading.summary, rejectDetails: [], numbersToPort: [], accountNumber: "", endUserName: "" };
  // The record keeps RejectDetails as the status report writes them.
  return { ...fromService(answer, reading.at, false), rejectDetails: reading.details };
}

function progressState(status: string): ProgressState {
  const phase = portInPhase(status);
  if (phase === "completed") return "COMPLETED";
  if (phase === "ended") return "REJECTED";
  return /^confirmed$/i.test(status.trim()) ? "CONFIRMED" : "SUBMITTED";
}

/** Numbers with a port date, confirmed or ported, by day, customer and time window. */
function calendarOf(rows: readonly ReportRow[]): PortDay[] {
  const days = new Map<string, { date: string; customer: string; window: string; status: string; numbers: string[]; who: Customer; outside: string[]; sheetDates: string[] }>();
  for (const row of rows) {
    const { status } = row;
    const date = status.portDate.slice(0, 10);
    // A date the service wrote some other way cannot be placed on a calendar; the row table still shows it.
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || (status.state !== "open" && status.state !== "completed")) continue;
    const key = JSON.stringify([date, row.customer, row.window, status.state]);
    const day = days.get(key) ?? { date, customer: row.customer, window: row.window, status: status.state === "completed" ? "COMPLETED" : status.status, numbers: [], who: row.who, outside: [], sheetDates: [] };
    day.numbers.push(row.number);
    if (row.outside && !day.outside.includes(status.ticket)) day.outside.push(status.ticket);
    if (row.requestedDate !== "" && row.requestedDate !== date && !day.sheetDates.includes(row.requestedDate)) day.sheetDates.push(row.requestedDate);
    days.set(key, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date) || a.customer.localeCompare(b.customer) || a.window.localeCompare(b.window));
}

/**
 * Invalid rows grouped by what is wrong, whatever the cell: the cell's own text (the first
 * quoted value) and a duplicate's line and digits are left out of the cause.
 */
function invalidGroups(rows: readonly ReportRow[]): ProblemGroup[] {
  const groups = new Map<string, { cause: string; fix: string; rows: { line: number; number: string; detail: string }[] }>();
  for (const row of rows) {
    if (row.invalid === null) continue;
    const { cause, fix } = causeOf(row.invalid);
    const group = groups.get(cause) ?? { cause, fix, rows: [] };
    group.rows.push({ line: row.line, number: row.number, detail: row.invalid });
    groups.set(cause, group);
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length || a.cause.localeCompare(b.cause));
}

function causeOf(reason: string): { cause: string; fix: string } {
  const letter = /unexpected "([OoIl])"/.exec(reason)?.[1];
  if (letter !== undefined) {
    const zero = letter === "O" || letter === "o";
    return zero ? reportWords.LETTER_O : reportWords.LETTER_I;
  }
  if (reason.startsWith("duplicate of line")) return reportWords.DUPLICATE_NUMBER;
  // The number as written is quoted first: the cause is what follows it.
  const cause = reason.replace(/^"(?:[^"\\]|\\.)*"\s*/, "").replace(/\b\d{3}\b/g, "NXX");
  const semicolon = reason.indexOf("; ");
  return { cause, fix: semicolon === -1 ? reportWords.CORRECT_THE_NUMBER : reason.slice(semicolon + 2) };
}

/**
 * Every carrier reject any check ever read, grouped by reject code and field (`6P NAME: …`),
 * each with its remarks as the fix and what became of the number since: a reject fixed and
 * resent stays counted (docs/contract.md §2 `report`).
 */
function rejectGroups(histories: readonly NumberHistory[], rowsOf: ReadonlyMap<string, readonly ReportRow[]>): ProblemGroup[] {
  const groups = new Map<string, { cause: string; fix: string; rows: { line: number; number: string; detail: string }[] }>();
  for (const { number, events } of histories) {
    const rows = rowsOf.get(number) ?? [];
    const row = rows[0] as ReportRow;
    const now = row.status.state === "ended" ? "not sent again yet" : `now ${row.status.ticket} ${row.status.status}${row.status.portDate === "" ? "" : ` for ${row.status.portDate.slice(0, 10)}`}`.replace(/\s+/g, " ");
    const rejected = events.filter((e, i) => portInPhase(e.status) === "ended" && events.findIndex((o) => o.ticket === e.ticket && portInPhase(o.status) === "ended") === i);
    for (const event of rejected) {
      const entries = event.details === "" ? [event.reason || event.status] : event.details.split("; ");
      for (const entry of entries) {
        const colon = entry.indexOf(": ");
        const cause = colon === -1 ? entry : entry.slice(0, colon);
        const remarks = colon === -1 ? "" : entry.slice(colon + 2);
        const group = groups.get(cause) ?? { cause, fix: remarks === "" ? reportWords.CORRECT_THE_DISPUTE : reportWords.carrierSays(remarks), rows: [] };
        for (const { line } of rows) group.rows.push({ line, number, detail: `${event.ticket} ${event.status} ${easternTime(event.at)}: ${event.summary || event.reason}; ${now}` });
        groups.set(cause, group);
      }
    }
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length || a.cause.localeCompare(b.cause));
}
