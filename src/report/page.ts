/**
 * The report as one self-contained HTML page (docs/contract.md §2 `report`): styles and the
 * script inline, allowed by their hashes in a Content-Security-Policy that forbids anything
 * else, so the page opens from an e-mail attachment and never reaches out. The charts are
 * SVG drawn here (a few rectangles each: smaller than any chart library to inline), each
 * with a table saying the same. Every value from the sheet or the service goes through
 * `escape`, or into the JSON data block with `<` written as `\u003c`.
 */
import { createHash } from "node:crypto";
import type { Customer } from "./customers.js";
import { easternDate, easternTime, SERVICE_TIME_ZONE } from "./eastern.js";
import { PROGRESS_STATES } from "./model.js";
import type { DateDiffers, NightProgress, PortDay, ProblemGroup, ReportModel, ReportRow, WaitingOrder } from "./model.js";
import { PAGE_SCRIPT } from "./page-script.js";

export interface PageOptions {
  /** The sheet's name, as the title says it. */
  readonly title: string;
  /** When the page was made: "next port dates" start on its day. */
  readonly now: Date;
  /** `--silent-after`, as the waiting orders were judged. */
  readonly silentAfter: number;
  /** The status report `portin status` writes for the sheet, which holds every row: named where the page shows a bounded part. */
  readonly rowsFile: string;
}

/**
 * Rows the page's table carries at most (docs/contract.md §2 `report`): some 6 MB of page, which
 * a browser opens in a second or two; a 1,000,000-row sheet's whole table was 119 MiB, which
 * none opens. Past it, the rows needing a person come first, and the status report has them all.
 */
export const TABLE_ROWS_AT_MOST = 50_000;

/** Numbers or rows a list or a group's table names at most; the rest are counted. */
const LISTED_AT_MOST = 200;

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --card: #f6f8fa;
  --submitted: #8c959f; --confirmed: #0969da; --completed: #1a7f37; --rejected: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --card: #161b22;
  --submitted: #6e7681; --confirmed: #4493f8; --completed: #3fb950; --rejected: #f85149; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 0; } h2 { font-size: 1.2rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.muted { color: var(--muted); }
.unsafe td { color: var(--rejected); font-weight: 600; }
.cards { display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 1rem 0; padding: 0; list-style: none; }
.cards li { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.9rem; min-width: 8rem; }
.cards .figure { display: block; font-size: 1.6rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
details { margin: 0.4rem 0; } summary { cursor: pointer; }
svg { display: block; max-width: 100%; height: auto; }
svg text { fill: var(--fg); font-size: 12px; }
.bar-SUBMITTED, .key-SUBMITTED { fill: var(--submitted); } .bar-CONFIRMED, .key-CONFIRMED { fill: var(--confirmed); }
.bar-COMPLETED, .key-COMPLETED { fill: var(--completed); } .bar-REJECTED, .key-REJECTED { fill: var(--rejected); }
.bar-day { fill: var(--confirmed); }
.status-completed { color: var(--completed); } .status-ended, .status-not-found, .status-unchecked { color: var(--rejected); }
.controls { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin: 0.5rem 0; }
.controls label { display: flex; flex-direction: column; font-size: 0.85rem; }
select, input, button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 4px; padding: 0.2rem 0.4rem; }
.fix { margin: 0.2rem 0 0.4rem; } .who { margin: 0; font-size: 0.85rem; } tr.silent td { color: var(--rejected); } .outside { font-size: 0.85rem; font-weight: 600; }
#rows-body td:nth-child(2), #rows-body td:nth-child(5), #rows-body td:nth-child(6), #calendar td:first-child { white-space: nowrap; }
@media print { body { max-width: none; padding: 0; font-size: 11px; } .controls, .pager { display: none; }
  h2 { break-after: avoid; } tr, svg, .cards li { break-inside: avoid; } details > * { display: block; } }
`;

export function renderPage(model: ReportModel, options: PageOptions): string {
  const table = tableRows(model.rows);
  const data = jsonBlock(tableData(model, table));
  const script = PAGE_SCRIPT;
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(script)}'`,
    `style-src '${sha256(STYLE)}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const title = `portin report: ${options.title}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escape(title)}</h1>
<p class="muted">Made ${escape(easternTime(options.now.toISOString()))} from the sheet and its journal; ${model.checkedAt === null ? "no status check recorded yet (run portin status)" : `latest status check ${escape(easternTime(model.checkedAt))}`}. Times are Eastern (${SERVICE_TIME_ZONE}), the zone the service schedules ports in.</p>
</header>
<main>
${headline(model, options)}
${datesSection(model.datesDiffer)}
${waitingSection(model.waiting, options.silentAfter, model.outsideTickets)}
${progressSection(model.nights, model.customers)}
${calendarSection(model.calendar)}
${e911Section(model.e911)}
${problemSection("invalid", "Invalid rows, by cause", "No row is invalid.", model.invalid, "row", options.rowsFile)}
${problemSection("rejects", "Carrier rejects, every one any check read, by reject code and field", "No order was rejected by the carrier.", model.rejects, "number", options.rowsFile)}
${rowsSection(table.length, model.rows.length, options.rowsFile)}
</main>
<script type="application/json" id="report-data">${data}</script>
<script>${script}</script>
</body>
</html>
`;
}

function headline(model: ReportModel, options: PageOptions): string {
  const today = easternDate(options.now);
  const silent = model.waiting.filter((order) => order.silent).length;
  const upcoming = new Map<string, number>();
  for (const day of model.calendar) if (day.date >= today && day.status !== "COMPLETED") upcoming.set(day.date, (upcoming.get(day.date) ?? 0) + day.numbers.length);
  const next = [...upcoming].sort(([a], [b]) => a.localeCompare(b)).slice(0, 5);
  return `<section id="headline" aria-labelledby="headline-title">
<h2 id="headline-title">Where the migration stands</h2>
<ul class="cards">
<li><span class="figure" data-figure="rows">${model.rows.length}</span> rows in the sheet</li>
<li><span class="figure" data-figure="ported">${model.ported}</span> numbers ported so far</li>
<li><span class="figure" data-figure="rejected-ever">${model.rejectedEver}</span> numbers the carrier rejected, ever (<span data-figure="resent">${model.resentAfterReject}</span> sent again since)</li>
<li><span class="figure" data-figure="outside">${model.outsideRows}</span> rows in orders placed outside this journal (web portal, another sheet)</li>
<li><span class="figure" data-figure="dates-differ">${model.datesDiffer.length}</span> rows the account holds for another day than the sheet's RequestedPortDate</li>
<li><span class="figure" data-figure="silent">${silent}</span> open order${silent === 1 ? "" : "s"} with no change for more than ${options.silentAfter} business days</li>
${model.byStatus.map((s) => `<li><span class="figure" data-status="${escape(s.status)}">${s.rows}</span> ${escape(s.status)}</li>`).join("\n")}
</ul>
<h3>Next port dates</h3>
${next.length === 0 ? `<p class="muted">No confirmed port date to come.</p>` : `<ul id="next-dates">${next.map(([date, n]) => `<li>${escape(date)}: ${n} number${n === 1 ? "" : "s"}</li>`).join("")}</ul>`}
</section>`;
}

/** One stacked bar per night for each customer, the four states in a row, and the same as a table. */
function progressSection(nights: readonly NightProgress[], known: readonly Customer[]): string {
  const byLabel = new Map(known.map((c) => [c.label, c]));
  if (nights.length === 0) return `<section id="progress"><h2>Progress per customer</h2><p class="muted">No status check recorded yet: portin status records one each time it runs.</p></section>`;
  const customers = nights[nights.length - 1]?.customers.map((c) => c.customer) ?? [];
  const key = PROGRESS_STATES.map((state, i) => `<rect x="${i * 120}" y="2" width="10" height="10" class="key-${state}"/><text x="${i * 120 + 14}" y="11">${state}</text>`).join("");
  const charts = customers.map((customer, c) => {
    const rows = nights.map((night) => ({ night: night.night, counts: night.customers[c]?.counts ?? { SUBMITTED: 0, CONFIRMED: 0, COMPLETED: 0, REJECTED: 0 } }));
    const most = Math.max(1, ...rows.map((row) => PROGRESS_STATES.reduce((sum, state) => sum + row.counts[state], 0)));
    const width = 640;
    const left = 90;
    const bars = rows
      .map((row, i) => {
        let x = left;
        const y = i * 22;
        const parts = PROGRESS_STATES.map((state) => {
          const w = (row.counts[state] / most) * (width - left - 60);
          const rect = w > 0 ? `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="16" class="bar-${state}"><title>${escape(row.night)} ${state}: ${row.counts[state]}</title></rect>` : "";
          x += w;
          return rect;
        }).join("");
        const total = PROGRESS_STATES.reduce((sum, state) => sum + row.counts[state], 0);
        return `<text x="0" y="${y + 12}">${escape(row.night)}</text>${parts}<text x="${(x + 4).toFixed(1)}" y="${y + 12}">${total}</text>`;
      })
      .join("");
    const table = `<details><summary>Table</summary><table><thead><tr><th>night</th>${PROGRESS_STATES.map((s) => `<th class="n">${s}</th>`).join("")}</tr></thead><tbody>${rows
      .map((row) => `<tr><td>${escape(row.night)}</td>${PROGRESS_STATES.map((s) => `<td class="n">${row.counts[s]}</td>`).join("")}</tr>`)
      .join("")}</tbody></table></details>`;
    return `<h3>${escape(customer)}</h3>${whoLine(byLabel.get(customer))}<svg role="img" aria-label="${escape(`numbers of ${customer} by state, one bar per night`)}" viewBox="0 0 ${width} ${rows.length * 22}" width="${width}">${bars}</svg>${table}`;
  });
  return `<section id="progress" aria-labelledby="progress-title">
<h2 id="progress-title">Progress per customer, night by night</h2>
<svg aria-hidden="true" viewBox="0 0 480 14" width="480">${key}</svg>
${charts.join("\n")}
</section>`;
}

/** Numbers porting per day (a column each), then each day's customers and windows with their numbers. */
function calendarSection(days: readonly PortDay[]): string {
  if (days.length === 0) return `<section id="calendar"><h2>Port dates</h2><p class="muted">No port date confirmed yet.</p></section>`;
  const perDate = new Map<string, number>();
  for (const day of days) perDate.set(day.date, (perDate.get(day.date) ?? 0) + day.numbers.length);
  const dates = [...perDate];
  const most = Math.max(1, ...dates.map(([, n]) => n));
  const step = Math.max(24, Math.min(60, Math.floor(640 / dates.length)));
  const chart = dates
    .map(([date, n], i) => {
      const h = (n / most) * 120;
      return `<rect x="${i * step + 4}" y="${(140 - h).toFixed(1)}" width="${step - 8}" height="${h.toFixed(1)}" class="bar-day"><title>${escape(date)}: ${n}</title></rect><text x="${i * step + 4}" y="${(136 - h).toFixed(1)}">${n}</text><text x="${i * step + 4}" y="156">${escape(date.slice(5))}</text>`;
    })
    .join("");
  const rows = days
    .map(
      (day) =>
        `<tr><td>${escape(day.date)}</td><td>${escape(day.customer)}${whoLine(day.who)}</td><td>${day.window === "" ? "all day" : escape(day.window)}</td><td>${escape(day.status)}${day.outside.length === 0 ? "" : `<br><span class="outside">${escape(day.outside.join(", "))} placed outside this journal</span>`}${day.sheetDates.length === 0 ? "" : `<br><span class="outside">the sheet asked for ${escape(day.sheetDates.join(", "))}</span>`}</td><td class="n">${day.numbers.length}</td><td>${numberList(day.numbers)}</td></tr>`,
    )
    .join("\n");
  return `<section id="calendar" aria-labelledby="calendar-title">
<h2 id="calendar-title">Port dates</h2>
<svg role="img" aria-label="numbers porting per day; the table below lists them" viewBox="0 0 ${dates.length * step + 8} 160" width="${dates.length * step + 8}">${chart}</svg>
<table><thead><tr><th>date</th><th>customer</th><th>time window</th><th>status</th><th class="n">numbers</th><th>which</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}

/** A customer's account at the losing carrier and the other names its rows went by. */
function whoLine(who: Customer | undefined): string {
  if (who === undefined || (who.account === "" && who.names.length < 2)) return "";
  const account = who.account === "" ? "" : `account ${who.account}${who.provider === "" ? "" : ` at ${who.provider}`}`;
  const others = who.names.filter((name) => name !== who.names[0] || who.label !== name);
  const also = others.length === 0 ? "" : `also written ${others.map((name) => `“${name}”`).join(", ")}`;
  return `<p class="muted who">${escape([account, also].filter((part) => part !== "").join("; "))}</p>`;
}

/** Each row whose order holds a port date other than the sheet's RequestedPortDate: a number that moves on another day than planned. */
function datesSection(rows: readonly DateDiffers[]): string {
  if (rows.length === 0) return "";
  const body = rows
    .map(
      (row) =>
        `<tr><td class="n">${row.line}</td><td>${escape(row.number)}</td><td>${escape(row.customer)}</td><td>${escape(row.ticket)}${row.outside ? `<br><span class="outside">placed outside this journal</span>` : ""}</td><td>${escape(row.sheetDate)}</td><td><strong>${escape(row.portDate)}</strong></td></tr>`,
    )
    .join("\n");
  return `<section id="dates-differ" aria-labelledby="dates-differ-title">
<h2 id="dates-differ-title">Port dates that differ from the sheet</h2>
<p>The account's orders port these numbers on another day than the sheet's RequestedPortDate: the numbers move on the account's date.</p>
<table><thead><tr><th class="n">line</th><th>number</th><th>customer</th><th>ticket</th><th>sheet's date</th><th>account's date</th></tr></thead><tbody>
${body}
</tbody></table>
</section>`;
}

/** Every open order with how long it has waited since its last change; the silent ones first. */
function waitingSection(orders: readonly WaitingOrder[], silentAfter: number, outside: ReadonlySet<string>): string {
  const heading = `<h2 id="waiting-title">Open orders: how long each has waited</h2>`;
  if (orders.length === 0) return `<section id="waiting" aria-labelledby="waiting-title">${heading}<p class="muted">No open order.</p></section>`;
  const rows = orders
    .map((order) => {
      const what = order.waitingFor === "port date" ? `waiting for its port date ${order.portDate.slice(0, 10)}` : order.silent ? `silent: no change for more than ${silentAfter} business days; ask the service or the losing carrier` : "waiting for the losing carrier's answer";
      return `<tr${order.silent ? ' class="silent"' : ""}><td>${escape(order.ticket)}${outside.has(order.ticket) ? `<br><span class="outside">placed outside this journal</span>` : ""}</td><td>${escape(order.status)}</td><td>${escape(order.customers.join(", "))}</td><td class="n">${order.numbers}</td><td>${escape(easternTime(order.since))}</td><td class="n">${order.businessDays}</td><td>${escape(what)}</td></tr>`;
    })
    .join("\n");
  return `<section id="waiting" aria-labelledby="waiting-title">${heading}
<p class="muted">A CONFIRMED order before its port date waits for that date; any other open order with no change (Status or port date) for more than ${silentAfter} business days (--silent-after) is silent.</p>
<table><thead><tr><th>ticket</th><th>status</th><th>customer</th><th class="n">numbers</th><th>as it stands since</th><th class="n">business days</th><th>what it waits for</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}

function numberList(numbers: readonly string[]): string {
  const shown = numbers.slice(0, 5).map(escape).join(", ");
  if (numbers.length <= 5) return shown;
  const listed = numbers.slice(5, LISTED_AT_MOST).map(escape).join(", ");
  const rest = numbers.length > LISTED_AT_MOST ? `, and ${numbers.length - LISTED_AT_MOST} more` : "";
  return `<details><summary>${shown}, and ${numbers.length - 5} more</summary>${listed}${rest}</details>`;
}

function problemSection(id: string, heading: string, none: string, groups: readonly ProblemGroup[], unit: string, rowsFile: string): string {
  const body =
    groups.length === 0
      ? `<p class="muted">${none}</p>`
      : groups
          .map(
            (group) =>
              `<details><summary><strong>${group.rows.length}</strong> ${unit}${group.rows.length === 1 ? "" : "s"}: ${escape(group.cause)}</summary><p class="fix">Fix: ${escape(group.fix)}</p><table><thead><tr><th class="n">line</th><th>number</th><th>detail</th></tr></thead><tbody>${group.rows
                .slice(0, LISTED_AT_MOST)
                .map((row) => `<tr><td class="n">${row.line}</td><td>${escape(row.number)}</td><td>${escape(row.detail)}</td></tr>`)
                .join("")}</tbody></table>${group.rows.length > LISTED_AT_MOST ? `<p class="muted">and ${group.rows.length - LISTED_AT_MOST} more: every row is in ${escape(rowsFile)}</p>` : ""}</details>`,
          )
          .join("\n");
  return `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${heading}</h2>${body}</section>`;
}

/** docs/e911.md: 9-1-1 coverage per customer, and in red the completed numbers off their trunk or without 9-1-1. */
function e911Section(coverage: ReportModel["e911"]): string {
  if (coverage.customers.length === 0) return `<section id="e911"><h2>9-1-1 and trunks</h2><p class="muted">No number in the sheet is ported to a SIP trunk.</p></section>`;
  const unsafe =
    coverage.unsafe.length === 0
      ? `<p class="muted">No completed number is off its trunk or without a 9-1-1 record.</p>`
      : `<table class="unsafe"><thead><tr><th class="n">line</th><th>number</th><th>customer</th><th>what is wrong</th></tr></thead><tbody>${coverage.unsafe
          .map((u) => `<tr><td class="n">${u.line}</td><td>${escape(u.number)}</td><td>${escape(u.customer)}</td><td>${escape(u.why)}</td></tr>`)
          .join("")}</tbody></table>`;
  return `<section id="e911" aria-labelledby="e911-title"><h2 id="e911-title">9-1-1 and trunks</h2>
${unsafe}
<table><thead><tr><th>customer</th><th class="n">trunk numbers</th><th class="n">with a 9-1-1 record</th></tr></thead><tbody>${coverage.customers
    .map((c) => `<tr><td>${escape(c.customer)}</td><td class="n">${c.trunkNumbers}</td><td class="n">${c.registered}</td></tr>`)
    .join("")}</tbody></table></section>`;
}

function rowsSection(shown: number, rows: number, rowsFile: string): string {
  const bounded =
    shown === rows
      ? ""
      : `<p id="rows-bounded">The table holds ${shown} of the sheet's ${rows} rows: every row that needs a person (invalid, rejected, not found, not checked) first, then the others in the sheet's order. Every row is in ${escape(rowsFile)}, the status report portin status writes beside the sheet.</p>`;
  return `<section id="rows" aria-labelledby="rows-title">
<h2 id="rows-title">${shown === rows ? "Every row" : "Rows"}</h2>
${bounded}
<div class="controls">
<label>Status <select id="filter-status"><option value="">all</option></select></label>
<label>Customer <select id="filter-customer"><option value="">all</option></select></label>
<label>Number <input id="filter-number" type="search" placeholder="digits" autocomplete="off"></label>
</div>
<p id="rows-shown" aria-live="polite" class="muted"></p>
<table><thead><tr><th class="n">line</th><th>number</th><th>customer</th><th>status</th><th>ticket</th><th>port date</th><th>message</th><th>history</th></tr></thead><tbody id="rows-body"></tbody></table>
<p class="pager"><button id="rows-prev" type="button">previous</button> <button id="rows-next" type="button">next</button></p>
</section>`;
}

/** The rows the table carries, in the sheet's order: all of them, or TABLE_ROWS_AT_MOST with the ones needing a person first. */
function tableRows(rows: readonly ReportRow[]): readonly ReportRow[] {
  if (rows.length <= TABLE_ROWS_AT_MOST) return rows;
  const needsPerson = (row: ReportRow): boolean => row.invalid !== null || row.status.state === "ended" || row.status.state === "not-found" || row.status.state === "unchecked";
  const chosen = rows.filter(needsPerson).slice(0, TABLE_ROWS_AT_MOST);
  for (const row of rows) {
    if (chosen.length >= TABLE_ROWS_AT_MOST) break;
    if (!needsPerson(row)) chosen.push(row);
  }
  return chosen.sort((a, b) => a.line - b.line);
}

/** The rows as compact arrays for the script: [line, number, customer index, status, ticket, port date, message, history]. */
function tableData(model: ReportModel, table: readonly ReportRow[]): unknown {
  const customers: string[] = [];
  const customerIndex = new Map<string, number>();
  const kinds: Record<string, string> = {};
  const rows = table.map((row) => {
    let index = customerIndex.get(row.customer);
    if (index === undefined) {
      index = customers.push(row.customer) - 1;
      customerIndex.set(row.customer, index);
    }
    kinds[row.status.status] = row.status.state;
    return [row.line, row.number, index, row.status.status, row.outside ? `${row.status.ticket} (placed outside this journal)` : row.status.ticket, row.status.portDate, row.status.message, model.histories.get(row.number) ?? ""];
  });
  return { rows, customers, statuses: model.byStatus.map((s) => s.status), kinds, sheetRows: model.rows.length };
}

/** JSON inside a script element: `<` escaped so no value can close the element or open a comment. */
function jsonBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function sha256(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or an attribute value, with HTML's five special characters escaped. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}
