/**
 * The benchmark's sheets: generated, not shipped, and written once under bench/.cache/.
 * Every row is valid against fixtures/sandbox-account.json, so `plan` and `submit` do all
 * of their work on every row: half trunk rows, half offering rows spread over the account's
 * offerings of Types 1..7 (each with the members its operation requires), 10% toll-free
 * numbers (on a trunk or the Permanent Call Forward offering), a few PortForm variations.
 * Two shapes: the wide sheet (27 columns, every member in a cell) and the narrow one (five
 * columns, the members from a --defaults file beside it).
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bench", ".cache");

const HEADER = [
  "number",
  "pilot_number",
  "offering_id",
  "portform.CustomerAccountNumber",
  "portform.CustomerName",
  "portform.CustomerStreetNumber",
  "portform.CustomerStreetName",
  "portform.CustomerCity",
  "portform.CustomerProvince",
  "portform.CustomerPostalCode",
  "portform.CustomerCountry",
  "portform.EmailAddress",
  "portform.CurrentProvider",
  "portform.RequestedPortDate",
  "request.ParentSubscriptionID",
  "request.BusinessGroupSubscriptionID",
  "request.FaxEmail",
  "item.Label",
  "item.Account",
  "item.Enabled",
  "item.Locale",
  "item.SecondLocale",
  "item.BusinessGroupID",
  "item.CallForwardingNumber",
  "item.PCFProvisioningInstructions",
  "item.ForwardingTN",
  "site",
];

/** A few customers: rows of one customer share a PortForm, so they group together. */
const FORMS = [
  ["7741-220-118", "Maple Leaf Dental Clinics Inc.", "120", "King St W", "Toronto", "ON", "M5H 1J9", "CA", "it@mapleleafdental.ca", "17", "2026-12-08"],
  ["ACME-1", "Acme Plumbing", "12", "Front St", "Toronto", "ON", "M5J 2N1", "CA", "it@acme.ca", "Bell Canada", "2026-12-15"],
  ["QC-2044", "Boulangerie Saint-Denis", "4455", "Rue Saint-Denis", "Montréal", "QC", "H2J 2L1", "CA", "admin@stdenis.ca", "42", ""],
  ["BC-77", "West Coast Logistics Ltd.", "1055", "W Georgia St", "Vancouver", "BC", "V6E 3P3", "CA", "ops@wcl.ca", "TELUS Communications", "2027-01-11"],
  ["ON-512", "Lakeshore Accounting", "2200", "Lakeshore Blvd W", "Etobicoke", "ON", "M8V 1A4", "CA", "office@lakeshore.ca", "23", "2026-12-08"],
];

const TRUNKS = ["4165550100", "5145550100", "6045550100"];

type Cells = Record<string, string>;

/** Offering targets with the request and item members their operations require. */
const OFFERINGS: readonly { id: string; tollFree: boolean; cells: Cells }[] = [
  { id: "OFF-GEN-001", tollFree: false, cells: {} },
  { id: "OFF-GCH-001", tollFree: false, cells: { "request.ParentSubscriptionID": "SUB-100" } },
  { id: "OFF-RES-001", tollFree: false, cells: { "item.Account": "300451", "item.Enabled": "yes", "item.Locale": "EnglishCA", "item.SecondLocale": "None" } },
  { id: "OFF-RES-002", tollFree: false, cells: { "item.Account": "300452", "item.Enabled": "true", "item.Locale": "2", "item.SecondLocale": "5" } },
  { id: "OFF-BUS-001", tollFree: false, cells: { "item.Account": "300451", "item.BusinessGroupID": "BG-01", "item.Locale": "2", "item.SecondLocale": "9" } },
  { id: "OFF-BUS-002", tollFree: false, cells: { "item.Account": "300453", "item.BusinessGroupID": "BG-02", "item.Locale": "FrenchCA", "item.SecondLocale": "EnglishCA" } },
  {
    id: "OFF-PCF-001",
    tollFree: true,
    cells: { "item.Account": "300451", "item.CallForwardingNumber": "416-555-0199", "item.Enabled": "1", "item.PCFProvisioningInstructions": "forward all" },
  },
  { id: "OFF-BPCF-001", tollFree: false, cells: { "request.BusinessGroupSubscriptionID": "BGS-7", "item.ForwardingTN": "4165550198" } },
  { id: "OFF-FAX-001", tollFree: false, cells: { "request.FaxEmail": "fax@example.ca" } },
];

/** Common writings of one number (docs/contract.md §3), so the parser sees each. */
function written(digits: string, i: number): string {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  switch (i % 4) {
    case 0:
      return digits;
    case 1:
      return `${a}-${b}-${c}`;
    case 2:
      return `(${a}) ${b}-${c}`;
    default:
      return `+1 ${a} ${b} ${c}`;
  }
}

function quoteCell(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * Row `i` of a sheet whose numbers start at `first` (an offset into the number space, so
 * that sheets sent to one sandbox never repeat a number). Regular numbers run through
 * 416-200-0000 upward, toll-free ones through 800-200-0000 upward.
 */
export function rowCells(i: number, first: number): string[] {
  const n = first + i;
  const tollFree = n % 10 === 9;
  const serial = tollFree ? Math.floor(n / 10) : n - Math.floor(n / 10);
  const exchange = 200 + Math.floor(serial / 10_000);
  const digits = `${tollFree ? "800" : "416"}${exchange}${String(serial % 10_000).padStart(4, "0")}`;
  const cells: Cells = {};
  cells["number"] = written(digits, n);
  const onTrunk = Math.floor(n / 2) % 2 === 0;
  if (onTrunk) {
    cells["pilot_number"] = TRUNKS[n % TRUNKS.length] ?? "";
    cells["item.Label"] = `ext ${n % 1000}`;
  } else {
    const choices = tollFree ? OFFERINGS.filter((o) => o.tollFree) : OFFERINGS;
    const offering = choices[Math.floor(n / 4) % choices.length] ?? OFFERINGS[0];
    if (offering) {
      cells["offering_id"] = offering.id;
      Object.assign(cells, offering.cells);
    }
  }
  const form = FORMS[Math.floor(n / 1000) % FORMS.length] ?? [];
  for (let f = 0; f < form.length; f++) cells[HEADER[3 + f] ?? ""] = form[f] ?? "";
  cells["site"] = `site ${n % 97}`;
  return HEADER.map((name) => cells[name] ?? "");
}

export function sheetHeader(): readonly string[] {
  return HEADER;
}

/** Writes `rows` rows numbered from `first` to `path`, unless it is already there. */
export async function ensureSheet(path: string, rows: number, first = 0): Promise<string> {
  return writeSheet(path, HEADER, rows, (i) => rowCells(i, first));
}

/*
 * The narrow sheet (bench/README.md, `narrow`): the shape of a sheet whose customer details all
 * sit in a --defaults file, so each row is little more than a number and a target. A wide sheet
 * spreads portin's per-row cost over 27 cells of parsing; this one shows it.
 */
const NARROW_HEADER = ["number", "pilot_number", "offering_id", "portform.CustomerReferenceNumber", "note"];

/** Rows per customer reference: a reference names one order of numbers, as FORMS name one customer. */
const ROWS_PER_REFERENCE = 1000;

/**
 * What the narrow sheet's rows need and do not carry. Every value here is one some operation
 * requires (members.ts ITEM_MEMBERS, operations.ts requiredRequestMembers), and loadDefaults
 * applies each only to the operations that take it (validate/rules.ts defaultsFor):
 * request.ParentSubscriptionID reaches Type 2 alone, BusinessGroupSubscriptionID Type 6,
 * FaxEmail Type 7; item Account goes to Types 3, 4 and 5, Enabled to 3 and 5, Locale and
 * SecondLocale to 3 and 4, BusinessGroupID to 4, PCFProvisioningInstructions to 5 and
 * ForwardingTN to 6. CallForwardingNumber, required by Type 5, is an optional member of every
 * item kind, so a defaults file cannot confine it: DIDs, lines and forwarding instructions
 * carry it too. A real sheet would give it a column; here it costs nothing to plan.
 */
export const NARROW_DEFAULTS = {
  portForm: {
    CustomerAccountNumber: "7741-220-118",
    CustomerName: "Maple Leaf Dental Clinics Inc.",
    CustomerStreetNumber: "120",
    CustomerStreetName: "King St W",
    CustomerCity: "Toronto",
    CustomerProvince: "ON",
    CustomerPostalCode: "M5H 1J9",
    CustomerCountry: "CA",
    EmailAddress: "it@mapleleafdental.ca",
    CurrentProvider: "Bell Canada",
    RequestedPortDate: "2026-12-08",
  },
  request: { ParentSubscriptionID: "SUB-100", BusinessGroupSubscriptionID: "BGS-7", FaxEmail: "fax@example.ca" },
  item: {
    Account: 300451,
    Enabled: true,
    Locale: "EnglishCA",
    SecondLocale: "None",
    BusinessGroupID: "BG-01",
    CallForwardingNumber: "416-555-0199",
    PCFProvisioningInstructions: "forward all",
    ForwardingTN: "4165550198",
  },
} as const;

/** Row `i` of the narrow sheet: the same numbers and targets as rowCells, the rest from NARROW_DEFAULTS. */
export function narrowRowCells(i: number): string[] {
  const [number = "", pilot = "", offering = ""] = rowCells(i, 0);
  const reference = `PO-${String(Math.floor(i / ROWS_PER_REFERENCE)).padStart(5, "0")}`;
  // One note in five holds a comma, so the sheet has quoted cells as typed notes do.
  const note = i % 5 === 0 ? `moved from Bell, ticket ${i % 1000}` : `desk ${i % 97}`;
  return [number, pilot, offering, reference, note];
}

/** Writes the narrow sheet to `path` and its defaults to `defaultsPath`, unless they are there. */
export async function ensureNarrowSheet(path: string, defaultsPath: string, rows: number): Promise<string> {
  if (!existsSync(defaultsPath)) {
    mkdirSync(dirname(defaultsPath), { recursive: true });
    writeFileSync(defaultsPath, JSON.stringify(NARROW_DEFAULTS, null, 2) + "\n");
  }
  return writeSheet(path, NARROW_HEADER, rows, narrowRowCells);
}

export async function writeSheet(path: string, header: readonly string[], rows: number, row: (i: number) => string[]): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  const out = createWriteStream(temporary);
  const write = async (line: string): Promise<void> => {
    if (!out.write(line)) await once(out, "drain");
  };
  await write(header.join(",") + "\n");
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    chunk += row(i).map(quoteCell).join(",") + "\n";
    if (chunk.length > 64 * 1024) {
      await write(chunk);
      chunk = "";
    }
  }
  await write(chunk);
  out.end();
  await once(out, "finish");
  renameSync(temporary, path);
  return path;
}
