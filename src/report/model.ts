/**
 * What `portin report` shows (docs/contract.md §2 `report`), worked out from the sheet's rows
 * and the journal's records alone, without a service: each row's status as `status` last
 * learned it (the engine's own row outcome, engine/status-source.ts), the nights the journal
 * recorded, the port dates, and the problems grouped by cause. Pure: no I/O.
 */
import * as e911Words from "../messages/e911.js";
import { portInPhase } from "../catalog/account.js";
import { sourceOf } from "../engine/status-source.js";
import { fromService } from "../engine/status-words.js";
import { latestByTicket, nightsOf, statusReadings } from "../journal/history.js";
import { derivePriorState } from "../journal/prior.js";
import type { PriorState } from "../journal/prior.js";
import type { JournalRecord, StatusRecord, TrunkCheckRecord } from "../journal/records.js";
import { noOrder } from "../results/order-status.js";
import type { OrderStatus } from "../results/order-status.js";
import { parseNanp } from "../validate/nanp.js";
import * as reportWords from "../messages/report.js";

/** What the report needs of one sheet row. */
export interface SheetFacts {
  /** 1-based line of the file. */
  readonly line: number;
  /** The number cell as written. */
  readonly numberCell: string;
  /** PortForm CustomerName, else `group`, else the target (pilot number or offering). */
  readonly customer: string;
  /** PortForm RequestedPortTime as written, "" when none: the port's time window. */
  readonly window: string;
  /** Whether the row names a SIP trunk (pilot_number): a regular number there takes a 9-1-1 record. */
  readonly onTrunk?: boolean;
}

export interface ReportRow {
  readonly line: number;
  /** 10 digits, or the cell as written when it is not a number. */
  readonly number: string;
  readonly customer: string;
  readonly window: string;
  readonly status: OrderStatus;
  /** Why the row is invalid as far as the sheet alone can tell (its number), or null. */
  readonly invalid: string | null;
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
}

/** docs/contract.md §2 "9-1-1 addresses": per customer, the trunk numbers and how many have their 9-1-1 record. */
export interface E911Coverage {
  readonly customers: readonly { readonly customer: string; readonly trunkNumbers: number; readonly registered: number }[];
  /** Completed numbers off their trunk or without 9-1-1, as `status` last found them or the journal holds them: shown in red. */
  readonly unsafe: readonly { readonly line: number; readonly number: string; readonly customer: string; readonly why: string }[];
}

export function buildReport(sheetRows: readonly SheetFacts[], records: readonly JournalRecord[], noJournal: string | null): ReportModel {
  const prior = noJournal === null ? derivePriorState(records) : null;
  const readings = statusReadings(records);
  const latest = latestByTicket(readings);
  const latestOfNumber = new Map<string, StatusRecord>();
  for (const reading of readings) for (const number of reading.numbers) latestOfNumber.set(number, reading);

  const firstLine = new Map<string, number>();
  const rows = sheetRows.map((facts): ReportRow => {
    const parsed = parseNanp(facts.numberCell);
    if (!parsed.ok) return reportRow(facts, facts.numberCell, parsed.reason, neverSent(reportWords.rowInvalid(parsed.reason)));
    // As `status` reports it: a number the journal holds has its order's status, on every row
    // that names it; a later row of a number the journal does not hold is a duplicate.
    const earlier = firstLine.get(parsed.digits);
    if (earlier === undefined) firstLine.set(parsed.digits, facts.line);
    const status = statusOf(parsed.digits);
    if (earlier === undefined || status.state !== "not-submitted") return reportRow(facts, parsed.digits, null, status);
    const reason = reportWords.duplicateOfLine(earlier, parsed.digits);
    return reportRow(facts, parsed.digits, reason, neverSent(reportWords.rowInvalid(reason)));
  });

  function statusOf(number: string): OrderStatus {
    const source = sourceOf(number, prior, undefined, noJournal ?? "");
    switch (source.kind) {
      case "none":
        return noOrder("not-submitted", "", "", source.why);
      case "ticket":
        return fromReading(latest.get(source.ticket)) ?? unchecked(source.ticket, reportWords.notCheckedYet(source.ticket));
      case "number":
        return fromReading(latestOfNumber.get(number)) ?? unchecked("", reportWords.OUTCOME_NOT_KNOWN);
      case "ended": {
        const { order } = source;
        const reading = latest.get(order.ticket);
        return fromReading(reading) ?? fromReading({ type: "status", ticket: order.ticket, status: order.status, portDate: null, reason: order.reason, summary: order.summary, details: order.details, numbers: [], at: order.at }) as OrderStatus;
      }
    }
  }

  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.status.status, (counts.get(row.status.status) ?? 0) + 1);
  return {
    rows,
    byStatus: [...counts].map(([status, n]) => ({ status, rows: n })).sort((a, b) => b.rows - a.rows || a.status.localeCompare(b.status)),
    ported: rows.filter((row) => row.status.state === "completed").length,
    nights: progress(rows, readings),
    calendar: calendarOf(rows),
    invalid: invalidGroups(rows),
    rejects: rejectGroups(rows),
    checkedAt: readings.reduce<string | null>((last, r) => (last === null || r.at > last ? r.at : last), null),
    e911: e911Coverage(sheetRows, rows, records, prior),
  };
}

/**
 * Each customer's trunk numbers and how many have a 9-1-1 record (registered by portin, or
 * found by `status`), and the completed ones that are off their trunk or have none, from the
 * latest `trunk-check` `status` recorded of each, else from the journal's registrations.
 */
function e911Coverage(sheetRows: readonly SheetFacts[], rows: readonly ReportRow[], records: readonly JournalRecord[], prior: PriorState | null): E911Coverage {
  const checked = new Map<string, TrunkCheckRecord>();
  for (const record of records) if (record.type === "trunk-check") checked.set(record.number, record);
  const customers = new Map<string, { customer: string; trunkNumbers: number; registered: number }>();
  const unsafe: { line: number; number: string; customer: string; why: string }[] = [];
  rows.forEach((row, i) => {
    const parsed = parseNanp(row.number);
    if (sheetRows[i]?.onTrunk !== true || row.invalid !== null || !parsed.ok || parsed.kind !== "regular") return;
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


/** One literal, no spread: one hidden class for every row (results/row-outcome.ts rowOutcome). */
function reportRow(facts: SheetFacts, number: string, invalid: string | null, status: OrderStatus): ReportRow {
  return { line: facts.line, number, customer: facts.customer, window: facts.window, status, invalid };
}

function neverSent(why: string): OrderStatus {
  return noOrder("not-submitted", "", "", `never submitted: ${why}`);
}

function unchecked(ticket: string, message: string): OrderStatus {
  return noOrder("unchecked", ticket, "", message);
}

/** A recorded reading, read as `status` reads the service's answer. */
function fromReading(reading: StatusRecord | undefined): OrderStatus | null {
  if (reading === undefined) return null;
  const answer = { ticketId: reading.ticket, status: reading.status, portDate: reading.portDate ?? "", rejectReason: reading.reason, rejectSummary: reading.summary, rejectDetails: [], numbersToPort: [], accountNumber: "", endUserName: "" };
  // The record keeps RejectDetails as the status report writes them.
  return { ...fromService(answer, reading.at, false), rejectDetails: reading.details };
}

function progressState(status: string): ProgressState {
  const phase = portInPhase(status);
  if (phase === "completed") return "COMPLETED";
  if (phase === "ended") return "REJECTED";
  return /^confirmed$/i.test(status.trim()) ? "CONFIRMED" : "SUBMITTED";
}

/** Each night the journal recorded: every order's latest reading by the end of it, counted per customer. */
function progress(rows: readonly ReportRow[], readings: readonly StatusRecord[]): NightProgress[] {
  const customerOf = new Map<string, string>();
  for (const row of rows) if (row.invalid === null) customerOf.set(row.number, row.customer);
  const customers = [...new Set(rows.filter((row) => row.invalid === null).map((row) => row.customer))].sort();
  const stateOf = new Map<string, ProgressState>();
  const nights: NightProgress[] = [];
  let next = 0;
  for (const night of nightsOf(readings)) {
    for (; next < readings.length && (readings[next] as StatusRecord).at.slice(0, 10) <= night; next++) {
      const reading = readings[next] as StatusRecord;
      const state = progressState(reading.status);
      for (const number of reading.numbers) if (customerOf.has(number)) stateOf.set(number, state);
    }
    const table = new Map(customers.map((customer) => [customer, { SUBMITTED: 0, CONFIRMED: 0, COMPLETED: 0, REJECTED: 0 }]));
    for (const [number, state] of stateOf) {
      const counts = table.get(customerOf.get(number) as string);
      if (counts) counts[state]++;
    }
    nights.push({ night, customers: [...table].map(([customer, counts]) => ({ customer, counts })) });
  }
  return nights;
}

/** Numbers with a port date, confirmed or ported, by day, customer and time window. */
function calendarOf(rows: readonly ReportRow[]): PortDay[] {
  const days = new Map<string, { date: string; customer: string; window: string; status: string; numbers: string[] }>();
  for (const row of rows) {
    const { status } = row;
    const date = status.portDate.slice(0, 10);
    // A date the service wrote some other way cannot be placed on a calendar; the row table still shows it.
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || (status.state !== "open" && status.state !== "completed")) continue;
    const key = JSON.stringify([date, row.customer, row.window, status.state]);
    const day = days.get(key) ?? { date, customer: row.customer, window: row.window, status: status.state === "completed" ? "COMPLETED" : status.status, numbers: [] };
    day.numbers.push(row.number);
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

/** Carrier rejects grouped by reject code and field (`6P NAME: …`), each with its remarks as the fix. */
function rejectGroups(rows: readonly ReportRow[]): ProblemGroup[] {
  const groups = new Map<string, { cause: string; fix: string; rows: { line: number; number: string; detail: string }[] }>();
  for (const row of rows) {
    if (row.status.state !== "ended") continue;
    const entries = row.status.rejectDetails === "" ? [row.status.rejectReason || row.status.status] : row.status.rejectDetails.split("; ");
    for (const entry of entries) {
      const colon = entry.indexOf(": ");
      const cause = colon === -1 ? entry : entry.slice(0, colon);
      const remarks = colon === -1 ? "" : entry.slice(colon + 2);
      const group = groups.get(cause) ?? { cause, fix: remarks === "" ? reportWords.CORRECT_THE_DISPUTE : reportWords.carrierSays(remarks), rows: [] };

      group.rows.push({ line: row.line, number: row.number, detail: `${row.status.ticket} ${row.status.rejectSummary || row.status.rejectReason}`.trim() });
      groups.set(cause, group);
    }
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length || a.cause.localeCompare(b.cause));
}
