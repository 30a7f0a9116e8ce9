/**
 * The run behind `portin report` (docs/contract.md §2 `report`): the sheet read as `submit`
 * read it, the journal read (never written, never locked: the report only looks), and the
 * page, and with `--calendar` the port dates, written beside it. No service is asked.
 */
import { basename } from "node:path";
import type { Column } from "../input/types.js";
import type { Sheet } from "../input/reader.js";
import { readJournalFile } from "../journal/read.js";
import { refuseNonRegular, writeWholeFile } from "../results/sink.js";
import type { DefaultsFile } from "../validate/defaults.js";
import { renderCalendar } from "./calendar.js";
import { buildReport } from "./model.js";
import type { ReportModel, SheetFacts } from "./model.js";
import { renderPage } from "./page.js";

export interface ReportOptions {
  readonly sheet: Sheet;
  readonly defaults: DefaultsFile | null;
  /** The journal; null for none (standard input without --state). */
  readonly state: string | null;
  readonly output: string;
  readonly calendar: string | null;
  readonly now: Date;
}

export interface ReportResult {
  readonly model: ReportModel;
  /** Bytes of the page written. */
  readonly bytes: number;
  /** Events in the calendar written, or null without --calendar. */
  readonly events: number | null;
}

export async function runReport(options: ReportOptions): Promise<ReportResult> {
  const facts = await readFacts(options.sheet, options.defaults);
  const journal = options.state === null ? null : await readJournalFile(options.state);
  const noJournal =
    options.state === null
      ? "no journal to read: give --state, the journal portin submit wrote for this sheet"
      : journal?.header === null
        ? `not submitted: there is no journal at ${options.state} yet; portin submit writes it`
        : null;
  const model = buildReport(facts, journal?.records ?? [], noJournal);
  const title = options.sheet.layout.source === "<stdin>" ? "standard input" : basename(options.sheet.layout.source);
  const page = renderPage(model, { title, now: options.now });
  // Both destinations are checked before either is written: a refused calendar leaves no page behind.
  if (options.calendar !== null) await refuseNonRegular(options.calendar, "--calendar PATH");
  await writeWholeFile(options.output, page, "--output PATH");
  let events: number | null = null;
  if (options.calendar !== null) {
    await writeWholeFile(options.calendar, renderCalendar(model.calendar, { title, now: options.now }), "--calendar PATH");
    events = model.calendar.length;
  }
  return { model, bytes: Buffer.byteLength(page), events };
}

/** Each row's number cell, customer and time window: CustomerName, else `group`, else the target; the --defaults file fills a column the sheet lacks. */
async function readFacts(sheet: Sheet, defaults: DefaultsFile | null): Promise<SheetFacts[]> {
  const columns = sheet.layout.columns;
  const at = (test: (column: Column) => boolean): number => columns.find(test)?.index ?? -1;
  const member = (name: string) => (column: Column) => column.role.kind === "member" && column.role.member.scope === "portform" && column.role.member.name === name;
  const numberAt = at((c) => c.role.kind === "number");
  const customerAt = at(member("CustomerName"));
  const windowAt = at(member("RequestedPortTime"));
  const groupAt = at((c) => c.role.kind === "group");
  const pilotAt = at((c) => c.role.kind === "pilot");
  const offeringAt = at((c) => c.role.kind === "offering");
  const defaultCustomer = portFormDefault(defaults, "customername");
  const defaultWindow = portFormDefault(defaults, "requestedporttime");
  const facts: SheetFacts[] = [];
  const cell = (cells: readonly string[], index: number): string => (index === -1 ? "" : (cells[index] ?? "").trim());
  for await (const row of sheet.rows) {
    const customer = cell(row.cells, customerAt) || defaultCustomer || cell(row.cells, groupAt) || cell(row.cells, pilotAt) || cell(row.cells, offeringAt) || "(no customer)";
    facts.push({ line: row.line, numberCell: cell(row.cells, numberAt), customer, window: cell(row.cells, windowAt) || defaultWindow });
  }
  return facts;
}

/** A PortForm member of the --defaults file, by any casing, as text; "" when absent. */
function portFormDefault(defaults: DefaultsFile | null, lowerName: string): string {
  if (defaults === null) return "";
  const form = Object.entries(defaults.json).find(([key]) => key.toLowerCase() === "portform")?.[1];
  if (typeof form !== "object" || form === null) return "";
  const value: unknown = Object.entries(form as Record<string, unknown>).find(([key]) => key.toLowerCase() === lowerName)?.[1];
  return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
}
