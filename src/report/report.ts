/**
 * The run behind `portin report` (docs/contract.md §2 `report`): the sheet read as `submit`
 * read it, the journal read (never written, never locked: the report only looks), and the
 * page, and with `--calendar` the port dates, written beside it. No service is asked.
 */
import { basename } from "node:path";
import type { Column } from "../input/types.js";
import type { Sheet } from "../input/reader.js";
import { scanJournalAt } from "../journal/open.js";
import { journalLabel } from "../journal/place.js";
import type { JournalPlace } from "../journal/place.js";
import { VERSION } from "../version.js";
import { refuseNonRegular, writeWholeFile } from "../results/sink.js";
import type { DefaultsFile } from "../validate/defaults.js";
import { renderCalendar } from "./calendar.js";
import { reportFold } from "./model.js";
import type { ReportModel } from "./model.js";
import { renderPage } from "./page.js";
import { SheetColumns } from "./sheet-columns.js";
import * as statusWords from "../messages/status.js";

export interface ReportOptions {
  readonly sheet: Sheet;
  readonly defaults: DefaultsFile | null;
  /** The journal; null for none (standard input without --state). */
  readonly state: JournalPlace | null;
  readonly output: string;
  readonly calendar: string | null;
  readonly now: Date;
  /** `--silent-after`: business days with no change after which an open order is silent. */
  readonly silentAfter: number;
  /** The status report's name beside the sheet, which a bounded page points to for every row. */
  readonly rowsFile: string;
}

export interface ReportResult {
  readonly model: ReportModel;
  /** Bytes of the page written. */
  readonly bytes: number;
  /** Events in the calendar written, or null without --calendar. */
  readonly events: number | null;
}

export async function runReport(options: ReportOptions): Promise<ReportResult> {
  const model = await modelOf(options);
  const title = options.sheet.layout.source === "<stdin>" ? "standard input" : basename(options.sheet.layout.source);
  const page = renderPage(model, { title, now: options.now, silentAfter: options.silentAfter, rowsFile: options.rowsFile });
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

/**
 * The sheet's facts and the journal, folded into the model; the facts and the journal's state
 * go with this function's frame, before the page is made (docs/architecture.md, Memory).
 */
async function modelOf(options: ReportOptions): Promise<ReportModel> {
  const facts = await readFacts(options.sheet, options.defaults);
  // The journal read one record at a time into the report (model.ts reportFold), holding none.
  const fold = reportFold(facts, { now: options.now, silentAfter: options.silentAfter });
  const journal = options.state === null ? null : await scanJournalAt(options.state, VERSION, fold.take);
  const noJournal =
    options.state === null
      ? statusWords.NO_JOURNAL_TO_READ
      : journal?.header === null
        ? statusWords.noJournalYet(journalLabel(options.state))
        : null;
  return fold.model(noJournal);
}

/** Each row's number cell, customer (with its account and provider) and time window: CustomerName, else `group`, else the target; the --defaults file fills a column the sheet lacks. */
async function readFacts(sheet: Sheet, defaults: DefaultsFile | null): Promise<SheetColumns> {
  const columns = sheet.layout.columns;
  const at = (test: (column: Column) => boolean): number => columns.find(test)?.index ?? -1;
  const member = (name: string) => (column: Column) => column.role.kind === "member" && column.role.member.scope === "portform" && column.role.member.name === name;
  const numberAt = at((c) => c.role.kind === "number");
  const customerAt = at(member("CustomerName"));
  const windowAt = at(member("RequestedPortTime"));
  const accountAt = at(member("CustomerAccountNumber"));
  const providerAt = at(member("CurrentProvider"));
  const requestedAt = at(member("RequestedPortDate"));
  const groupAt = at((c) => c.role.kind === "group");
  const pilotAt = at((c) => c.role.kind === "pilot");
  const offeringAt = at((c) => c.role.kind === "offering");
  const defaultCustomer = portFormDefault(defaults, "customername");
  const defaultWindow = portFormDefault(defaults, "requestedporttime");
  const defaultAccount = portFormDefault(defaults, "customeraccountnumber");
  const defaultProvider = portFormDefault(defaults, "currentprovider");
  const defaultDate = portFormDefault(defaults, "requestedportdate");
  // Held column-wise (sheet-columns.ts): an object a row would be most of the report's memory.
  const facts = new SheetColumns();
  // Customers, windows, accounts and providers repeat down a sheet: the columns keep each once, not once a row.
  const cell = (cells: readonly string[], index: number): string => (index === -1 ? "" : (cells[index] ?? "").trim());
  for await (const row of sheet.rows) {
    const customer = cell(row.cells, customerAt) || defaultCustomer || cell(row.cells, groupAt) || cell(row.cells, pilotAt) || cell(row.cells, offeringAt) || "(no customer)";
    facts.push({
      line: row.line,
      numberCell: numberAt === -1 ? "" : (row.cells[numberAt] ?? "").trim(),
      customer,
      window: cell(row.cells, windowAt) || defaultWindow,
      account: cell(row.cells, accountAt) || defaultAccount,
      provider: cell(row.cells, providerAt) || defaultProvider,
      requestedDate: cell(row.cells, requestedAt) || defaultDate,
      onTrunk: cell(row.cells, pilotAt) !== "",
    });
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
