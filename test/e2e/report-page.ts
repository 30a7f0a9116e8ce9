/**
 * What the report tests share: a page's outside references as its text shows them, its
 * headline figures, and a journal of many rows written by hand (records.ts is a documented
 * format) for the 20,000-row page.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FORM_CELLS, FORM_HEADER, writeSheet } from "./harness.js";
import { numbers } from "./ledger.js";

/**
 * Every attribute of a tag or rule of a style that could make a browser fetch something: src,
 * href, action, srcset, poster, xlink:href, CSS url() and @import, except fragments and data:
 * URLs. Text (escaped) and the script's own code are not tags; the browser test watches what
 * the script does.
 */
export function outsideReferences(html: string): string[] {
  const found: string[] = [];
  const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, "$1$2");
  const fetching = /^(src|href|action|srcset|poster|data|xlink:href|formaction|background|ping|manifest)$/i;
  for (const tag of markup.matchAll(/<[a-zA-Z][^\s/>]*((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g)) {
    for (const attribute of (tag[1] ?? "").matchAll(/([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const [whole, name = "", quoted = ""] = attribute;
      const value = quoted.replace(/^["']|["']$/g, "").trim();
      if (!fetching.test(name) || value.startsWith("#") || /^data:/i.test(value)) continue;
      found.push(whole);
    }
  }
  const styles = [...markup.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>|\sstyle\s*=\s*("[^"]*"|'[^']*')/gi)].map((m) => m[1] ?? m[2] ?? "");
  for (const style of styles) {
    for (const match of style.matchAll(/url\(\s*(["']?)([^)"']*)\1\s*\)|@import[^;]*/gi)) {
      if (match[2] !== undefined && (/^data:/i.test(match[2]) || match[2].startsWith("#"))) continue;
      found.push(match[0]);
    }
  }
  return found;
}

/** The headline's rows by status, as the page shows them. */
export function pageFigures(html: string): Record<string, number> {
  return Object.fromEntries([...html.matchAll(/data-status="([^"]*)">(\d+)</g)].map((m) => [m[1] as string, Number(m[2])]));
}

/** Counts of a status report's `status` column. */
export function statusCounts(rows: readonly Record<string, string>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status ?? ""] = (counts[row.status ?? ""] ?? 0) + 1;
  return counts;
}

const CUSTOMERS = ["Maple Leaf Dental", "Cabinet Dubois", "Pacific Coast Realty", "Prairie Grain Co-op", "Harbour Freight Ltd"];

/**
 * A sheet of `rows` rows for five customers and its journal: orders of 100 numbers read on
 * three nights, moving from SUBMITTED to CONFIRMED and COMPLETED, a few REJECTED.
 */
export async function bigMigration(dir: string, rows: number): Promise<{ sheet: string; state: string }> {
  const lines = ["number,pilot_number,portform.CustomerName,portform.RequestedPortTime"];
  const numbers: string[] = [];
  for (let i = 0; i < rows; i++) {
    const number = `${["416", "514"][Math.floor(i / 10000) % 2]}555${String(i % 10000).padStart(4, "0")}`;
    numbers.push(number);
    lines.push(`${number},4165550100,${CUSTOMERS[Math.floor(i / 100) % CUSTOMERS.length]},${i % 200 < 100 ? "09:00" : ""}`);
  }
  const records: object[] = [{ type: "header", version: 1, tool: "portin/test", baseUrl: "https://ports.example.test", user: "ops", createdAt: "2026-03-02T20:00:00.000Z" }];
  const orders: { ticket: string; numbers: string[] }[] = [];
  for (let at = 0, n = 0; at < numbers.length; at += 100, n++) {
    const ticket = `PI-${String(n + 1).padStart(6, "0")}`;
    const batch = numbers.slice(at, at + 100);
    orders.push({ ticket, numbers: batch });
    records.push({ type: "intent", requestId: `r${n}`, operation: "dids", numbers: batch, at: "2026-03-02T20:00:00.000Z" });
    records.push({ type: "outcome", requestId: `r${n}`, status: "submitted", ticket, httpStatus: 200, message: "Accepted", at: "2026-03-02T20:00:01.000Z" });
  }
  const reading = (ticket: string, batch: string[], status: string, at: string, portDate: string | null, reason = "", details = "") =>
    ({ type: "status", ticket, status, portDate, reason, summary: reason, details, numbers: batch, at });
  for (const [n, order] of orders.entries()) {
    records.push(reading(order.ticket, order.numbers, "SUBMITTED", "2026-03-03T06:00:00.000Z", null));
    const day = `2026-03-${String(5 + (n % 10)).padStart(2, "0")}`;
    if (n % 20 === 7) records.push(reading(order.ticket, order.numbers, "REJECTED", "2026-03-04T06:00:00.000Z", null, "name mismatch", "6P NAME: END USER NAME ON LSR DOES NOT MATCH CSR"));
    else records.push(reading(order.ticket, order.numbers, "CONFIRMED", "2026-03-04T06:00:00.000Z", day));
    if (n % 3 === 0 && n % 20 !== 7) records.push(reading(order.ticket, order.numbers, "COMPLETED", "2026-03-05T06:00:00.000Z", day));
  }
  const sheet = join(dir, "big.csv");
  const state = join(dir, "big.state.jsonl");
  await writeFile(sheet, lines.join("\n") + "\n");
  await writeFile(state, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { sheet, state };
}

/** Two customers (one named to break HTML), an invalid row, and a time window for the first. */
export async function migrationSheet(dir: string): Promise<string> {
  const list = numbers(6);
  const header = `number,pilot_number,portform.RequestedPortTime,${FORM_HEADER}`;
  // Another customer: another account at the losing carrier.
  const hostile = FORM_CELLS.replace("ACME-1,Acme Plumbing", 'SONS-2,"<img src=x onerror=alert(1)> & Sons"');
  const rows = [
    ...list.slice(0, 3).map((n) => `${n},4165550100,09:30,${FORM_CELLS}`),
    ...list.slice(3).map((n) => `${n},4165550100,,${hostile}`),
    `416-555-2O99,4165550100,,${FORM_CELLS}`,
  ];
  return writeSheet(dir, "wave.csv", `${header}\n${rows.join("\n")}\n`);
}

/** The first Monday after today (UTC), as YYYY-MM-DD: a sandbox calendar whose port dates lie ahead of the machine's. */
export function nextMonday(from: Date = new Date()): string {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() !== 1);
  return day.toISOString().slice(0, 10);
}

const WAVE_HEADER = `number,pilot_number,portform.RequestedPortTime,portform.RequestedPortDate,${FORM_HEADER}`;

/** A row of the rejects wave: one customer's account, name and provider, the rest of the form as FORM_CELLS. */
function waveRow(number: string, window: string, account: string, name: string, date = ""): string {
  const rest = FORM_CELLS.split(",").slice(2).join(",");
  return `${number},4165550100,${window},${date},${account},"${name}",${rest}`;
}

/**
 * The rejects wave's sheet: Credit Valley's three numbers on one account, two of them with
 * the name corrected after the carrier's 6P NAME (`corrected`), and Harbourfront's three,
 * held by portal orders, written under two names of one account, the CONFIRMED one's row asking
 * for `portalDate`.
 */
export function rejectsWaveSheet(corrected: boolean, portalDate: string): string {
  const fixed = corrected ? "Credit Valley Accounting L.L.P." : "Credit Valley Accounting LLP";
  return [
    WAVE_HEADER,
    waveRow("416-555-2000", "09:30", "CV-77", fixed),
    waveRow("416-555-2001", "09:30", "CV-77", fixed),
    waveRow("416-555-2002", "09:30", "CV-77", "Credit Valley Accounting LLP"),
    waveRow("416-555-3000", "", "HL-9", "Harbourfront Logistics Inc."),
    waveRow("416-555-3001", "", "HL-9", "Harbourfront Logistics Inc."),
    waveRow("416-555-3002", "", "HL-9", "Harbourfront Logistics Incorporated", portalDate),
  ].join("\n") + "\n";
}

/** The two portal orders of the rejects wave: one waiting on the carrier, one CONFIRMED. */
export const WAVE_PORTAL_ORDERS = [
  { ticket: "PI-P00001", numbers: ["4165553000", "4165553001"], status: "SUBMITTED" },
  { ticket: "PI-P00002", numbers: ["4165553002"], status: "CONFIRMED" },
] as const;

/** A `status` record as a check some days ago wrote it (records.ts), for a wait longer than a test can spend. */
export function earlierReading(ticket: string, numbers: readonly string[], status: string, at: Date, portDate: string | null = null): string {
  return JSON.stringify({ type: "status", ticket, status, portDate, reason: "", summary: "", details: "", numbers, at: at.toISOString() }) + "\n";
}
