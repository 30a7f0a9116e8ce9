/**
 * The end-of-run summary (docs/contract.md §6): counts by status, what to do next, requests
 * per operation, elapsed time; as text for stderr, or one JSON document for stdout with --json.
 */
import { describeOperation } from "../catalog/operations.js";
import type { Operation } from "../catalog/operations.js";
import { serviceLabel } from "../service/service.js";
import type { Service } from "../service/service.js";
import { ROW_STATUSES, USUAL_NEXT_STEP } from "./row-outcome.js";
import type { NextStep, RowOutcome, RowStatus } from "./row-outcome.js";
import { printedPath } from "../terminal-text.js";

export interface RunSummary {
  readonly command: "submit" | "plan";
  /** All seven statuses, zeros included. */
  readonly counts: Readonly<Record<RowStatus, number>>;
  /** Rows per next step, in NEXT_STEPS order: one "next:" line each. */
  readonly next: readonly { readonly step: NextStep; readonly status: RowStatus; readonly rows: number }[];
  /** "POST /v2/NumberPorts/Inbound/DIDs" -> requests, keys sorted. */
  readonly requestsByOperation: Readonly<Record<string, number>>;
  /** Rows per operation and status, keys sorted; NO_OPERATION for rows that never got one. Statuses with no rows are left out. */
  readonly rowsByOperation: Readonly<Record<string, Readonly<Partial<Record<RowStatus, number>>>>>;
  readonly requests: number;
  readonly elapsedMs: number;
  /** The results path, or "-" for standard output. */
  readonly results: string;
  /** A sandbox run must never read as a real one (serviceLine). */
  readonly service: Service;
}

export interface SummaryInput {
  readonly command: "submit" | "plan";
  /** Every row's outcome; only `status`, `next` and `operation` are read. */
  readonly outcomes: Iterable<Pick<RowOutcome, "status" | "next"> & { readonly operation?: string }>;
  /** For submit, the requests sent; for plan, the requests a submit would send. */
  readonly requests: Iterable<{ readonly operation: Operation }>;
  readonly elapsedMs: number;
  readonly results: string;
  readonly service: Service;
}

/** How the summary names the rows that never got as far as an operation (most invalid rows). */
export const NO_OPERATION = "(no operation)";

export function summarize(input: SummaryInput): RunSummary {
  const counts = Object.fromEntries(ROW_STATUSES.map((status) => [status, 0])) as Record<RowStatus, number>;
  const steps = new Map<NextStep, { status: RowStatus; rows: number }>();
  const byOperation = new Map<string, Partial<Record<RowStatus, number>>>();
  for (const outcome of input.outcomes) {
    counts[outcome.status] += 1;
    const operation = outcome.operation || NO_OPERATION;
    let cell = byOperation.get(operation);
    if (cell === undefined) byOperation.set(operation, (cell = {}));
    cell[outcome.status] = (cell[outcome.status] ?? 0) + 1;
    const step = outcome.next ?? USUAL_NEXT_STEP[outcome.status];
    if (step === undefined) continue;
    const seen = steps.get(step);
    if (seen) seen.rows += 1;
    else steps.set(step, { status: outcome.status, rows: 1 });
  }
  const next = (Object.keys(NEXT_STEPS) as NextStep[]).flatMap((step) => {
    const seen = steps.get(step);
    return seen ? [{ step, ...seen }] : [];
  });
  const perOperation = new Map<string, number>();
  let requests = 0;
  for (const request of input.requests) {
    const name = describeOperation(request.operation);
    perOperation.set(name, (perOperation.get(name) ?? 0) + 1);
    requests += 1;
  }
  // Sorted so the same run always prints (and serializes) the same way.
  const requestsByOperation = Object.fromEntries([...perOperation].sort(byName));
  const rowsByOperation = Object.fromEntries([...byOperation].sort(byName));
  return {
    command: input.command,
    counts,
    next,
    requestsByOperation,
    rowsByOperation,
    requests,
    elapsedMs: Math.round(input.elapsedMs),
    results: input.results,
    service: input.service,
  };
}

/** Multi-line text for stderr: what happened, then what to do next. */
export function formatSummary(s: RunSummary): string {
  const rows = ROW_STATUSES.reduce((total, status) => total + s.counts[status], 0);
  const byStatus = ROW_STATUSES.filter((status) => s.counts[status] > 0).map((status) => `${s.counts[status]} ${status}`);
  const lines = [`portin ${s.command}: ${plural(rows, "row")}${byStatus.length > 0 ? `: ${byStatus.join(", ")}` : ""}`];

  const elapsed = formatElapsed(s.elapsedMs);
  if (s.command === "plan") {
    lines.push(`would send ${plural(s.requests, "request")} (planned in ${elapsed}; nothing was sent)`);
  } else {
    const rate = s.requests > 0 && s.elapsedMs > 0 ? `, ${(s.requests / (s.elapsedMs / 1000)).toFixed(1)} requests/s` : "";
    lines.push(`sent ${plural(s.requests, "request")} in ${elapsed}${rate}`);
  }
  lines.push(...operationTable(s));

  const where = s.results === "-" ? "the results on standard output" : printedPath(s.results);
  lines.push(serviceLine(s.service));
  lines.push(`results: ${s.results === "-" ? "standard output" : printedPath(s.results)}`);

  for (const { step, rows } of s.next) lines.push(`next: ${adviceFor(step, rows, where)}`);
  return lines.join("\n");
}

/** The summary's `service:` line, which says so when nothing real was ported. */
export function serviceLine(service: Service): string {
  return `service: ${serviceLabel(service)}${service.kind === "sandbox" ? " (nothing real was ported)" : ""}`;
}

/** The service in a --json summary: its label, and whether it was the sandbox. */
export function serviceJson(service: Service): { readonly service: string; readonly sandbox: boolean } {
  return { service: serviceLabel(service), sandbox: service.kind === "sandbox" };
}

/** The rows of each status per operation, and its requests, as an aligned table; "" when no row reached any. */
function operationTable(s: RunSummary): string[] {
  const statuses = ROW_STATUSES.filter((status) => s.counts[status] > 0);
  const operations = [...new Set([...Object.keys(s.requestsByOperation), ...Object.keys(s.rowsByOperation)])].sort((a, b) =>
    // Rows without an operation go last, just above the total.
    a === NO_OPERATION ? 1 : b === NO_OPERATION ? -1 : byName([a], [b]),
  );
  if (operations.length === 0) return [];
  const requestsHeader = s.command === "plan" ? "requests to send" : "requests";
  const header = ["", requestsHeader, ...statuses];
  const cell = (n: number | undefined): string => (n === undefined || n === 0 ? "-" : String(n));
  const body = operations.map((operation) => [
    operation,
    cell(s.requestsByOperation[operation]),
    ...statuses.map((status) => cell(s.rowsByOperation[operation]?.[status])),
  ]);
  const total = ["total", cell(s.requests), ...statuses.map((status) => cell(s.counts[status]))];
  const table = [header, ...body, total];
  const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  // The operation left-aligned, the counts right-aligned under their headings.
  return table.map((row) => `  ${row.map((text, i) => (i === 0 ? text.padEnd(widths[0] ?? 0) : text.padStart(widths[i] ?? 0))).join("  ")}`.trimEnd());
}

function byName([a]: readonly [string, ...unknown[]], [b]: readonly [string, ...unknown[]]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One JSON document for stdout (--json), keys in a stable order, with the run's exit code. */
export function summaryJson(s: RunSummary, exitCode: number): string {
  return JSON.stringify({
    command: s.command,
    counts: Object.fromEntries(ROW_STATUSES.map((status) => [status, s.counts[status]])),
    next: s.next.map(({ step, status, rows }) => ({ step, status, rows, advice: adviceFor(step, rows, s.results === "-" ? "the results" : s.results) })),
    requests: s.requests,
    requestsByOperation: s.requestsByOperation,
    rowsByOperation: s.rowsByOperation,
    elapsedMs: s.elapsedMs,
    results: s.results,
    ...serviceJson(s.service),
    exitCode,
  });
}

/** The advice of each step, for `rows` rows; `where` names the results. Printed after "next: ". */
const NEXT_STEPS: Readonly<Record<NextStep, (rows: string, where: string) => string>> = {
  "fix-row": (rows, where) => `${rows} invalid: fix them (see result_message in ${where}) and run again`,
  "read-rejection": (rows, where) =>
    `${rows} rejected by the service: see result_message in ${where}; fix those rows and run again ` +
    "(a rejected row is sent again only once it has changed, or with --retry-rejected)",
  "port-another-way": (rows, where) =>
    `${rows} not portable to this service, as the service says (see result_message in ${where}): remove those rows, or port these numbers another way; ` +
    "running again will not change them",
  "fix-or-retry-rejected": (rows) =>
    `${rows} rejected by an earlier run and unchanged since: fix them and run again, or pass --retry-rejected to send them as they are`,
  "fix-carrier-rejection": (rows, where) =>
    `${rows} whose order the losing carrier rejected, unchanged since: fix what it disputes (see result_message in ${where}) and run again, ` +
    "or pass --retry-rejected to send them as they are",
  "run-again": (rows, where) => `${rows} failed: see result_message in ${where}; run again later: failed rows are sent again`,
  "run-again-interrupted": (rows) => `interrupted: run again to send the ${rows} not sent (the journal skips what was submitted)`,
  "fix-credentials": (rows) => `${rows} not sent: the service refused the credentials: fix --user/--password (or PORTIN_USER/PORTIN_PASSWORD) and run again`,
  "run-again-to-confirm": (rows) =>
    `${rows} unknown (sent, but the outcome could not be learned; the service may have accepted them): run again with the same --state: ` +
    "each is checked with PortInStatus first and skipped if the service has it; add --retry-unknown to resend those it lacks",
  "retry-unknown": (rows) => `${rows} unknown (PortInStatus finds no port-in for them): run again with --retry-unknown to send them`,
  "run-again-to-check": (rows) => `${rows} unknown (checking PortInStatus failed, so they were not sent again): run again later to check them`,
  "ask-about-order": (rows, where) =>
    `${rows} unknown (an open order of the account's order list holds them, but PortInStatus gives no ticket for it), not sent: ` +
    `run again later; if PortInStatus still gives none, ask the service about the order result_message names in ${where}`,
};

function adviceFor(step: NextStep, rows: number, where: string): string {
  return NEXT_STEPS[step](plural(rows, "row"), where);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A run's time as a person reads it: `850 ms`, `12.4 s`, `3 min 5 s`, `1 h 30 min`. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
