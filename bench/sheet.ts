/**
 * The benchmark's sheets: generated, not shipped, and written once under bench/.cache/.
 * Every row is valid against fixtures/sandbox-account.json, so `plan` and `submit` do all
 * of their work on every row: half trunk rows, half offering rows spread over the account's
 * offerings of Types 1..7 (each with the members its operation requires), 10% toll-free
 * numbers (on a trunk or the Permanent Call Forward offering), a few PortForm variations.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync } from "node:fs";
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
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  const out = createWriteStream(temporary);
  const write = async (line: string): Promise<void> => {
    if (!out.write(line)) await once(out, "drain");
  };
  await write(HEADER.join(",") + "\n");
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    chunk += rowCells(i, first).map(quoteCell).join(",") + "\n";
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
