/**
 * The end-of-run summary (docs/contract.md §6): counts by status, what to do next, requests
 * per operation, elapsed time; as text for stderr, or one JSON document for stdout with --json.
 */
import * as e911Words from "../messages/e911.js";
import { describeOperation } from "../catalog/operations.js";
import type { Operation } from "../catalog/operations.js";
import { serviceLabel } from "../service/service.js";
import type { Service } from "../service/service.js";
import { ROW_STATUSES, USUAL_NEXT_STEP } from "./row-outcome.js";
import * as summaryWords from "../messages/summary.js";
import type { E911Result, NextStep, RowOutcome, RowStatus } from "./row-outcome.js";
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
  /** Rows per `result_e911` value (docs/e911.md), when the sheet or defaults gave 9-1-1 addresses and a row has one. */
  readonly e911?: Readonly<Partial<Record<Exclude<E911Result, "">, number>>>;
}

export interface SummaryInput {
  readonly command: "submit" | "plan";
  /** Every row's outcome; only `status`, `next` and `operation` are read. */
  readonly outcomes: Iterable<Pick<RowOutcome, "status" | "next"> & { readonly operation?: string; readonly e911?: E911Result }>;
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
  const e911: Partial<Record<Exclude<E911Result, "">, number>> = {};
  let e911Rows = 0;
  for (const outcome of input.outcomes) {
    counts[outcome.status] += 1;
    if (outcome.e911 !== undefined && outcome.e911 !== "") {
      e911[outcome.e911] = (e911[outcome.e911] ?? 0) + 1;
      e911Rows += 1;
    }
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
    ...(e911Rows === 0 ? {} : { e911 }),
  };
}

/** The order 9-1-1 results are listed in. */
const E911_RESULTS = ["registered", "verified", "invalid", "failed", "unknown"] as const;

/** Rows whose 9-1-1 record needs another run (docs/e911.md): failed or unknown. */
export function e911Unsettled(s: RunSummary): number {
  return (s.e911?.failed ?? 0) + (s.e911?.unknown ?? 0);
}

/** Multi-line text for stderr: what happened, then what to do next. */
export function formatSummary(s: RunSummary): string {
  const rows = ROW_STATUSES.reduce((total, status) => total + s.counts[status], 0);
  const byStatus = ROW_STATUSES.filter((status) => s.counts[status] > 0).map((status) => `${s.counts[status]} ${status}`);
  const lines = [summaryWords.runHeader(s.command, plural(rows, "row"), byStatus.join(", "))];

  const elapsed = formatElapsed(s.elapsedMs);
  if (s.command === "plan") {
    lines.push(summaryWords.wouldSend(plural(s.requests, "request"), elapsed));
  } else {
    const rate = s.requests > 0 && s.elapsedMs > 0 ? `, ${(s.requests / (s.elapsedMs / 1000)).toFixed(1)} requests/s` : "";
    lines.push(summaryWords.sent(plural(s.requests, "request"), elapsed, rate));
  }
  lines.push(...operationTable(s));

  const where = s.results === "-" ? summaryWords.RESULTS_ON_STDOUT : printedPath(s.results);
  lines.push(serviceLine(s.service));
  lines.push(`results: ${s.results === "-" ? "standard output" : printedPath(s.results)}`);

  if (s.e911 !== undefined) {
    const e911 = s.e911;
    lines.push(`9-1-1 records: ${E911_RESULTS.filter((r) => (e911[r] ?? 0) > 0).map((r) => `${e911[r] ?? 0} ${r}`).join(", ")}`);
  }
  for (const { step, rows } of s.next) lines.push(`next: ${adviceFor(step, rows, where)}`);
  const unsettled = e911Unsettled(s);
  if (unsettled > 0) {
    lines.push(`next: ${e911Words.nextUnsettled(plural(unsettled, "9-1-1 record"), where)}`);
  }
  return lines.join("\n");
}

/** The summary's `service:` line, which says so when nothing real was ported. */
export function serviceLine(service: Service): string {
  return `service: ${serviceLabel(service)}${service.kind === "sandbox" ? summaryWords.NOTHING_REAL : ""}`;
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
    ...(s.e911 === undefined ? {} : { e911: s.e911 }),
    exitCode,
  });
}

/** The advice of each step, for `rows` rows; `where` names the results. Printed after "next: ". */
const NEXT_STEPS: Readonly<Record<NextStep, (rows: string, where: string) => string>> = {
  "fix-row": summaryWords.nextFixRow,
  "read-rejection": summaryWords.nextReadRejection,
  "port-another-way": summaryWords.nextPortAnotherWay,
  "fix-or-retry-rejected": summaryWords.nextFixOrRetryRejected,
  "fix-carrier-rejection": summaryWords.nextFixCarrierRejection,
  "run-again": summaryWords.nextRunAgain,
  "run-again-interrupted": summaryWords.nextRunAgainInterrupted,
  "fix-credentials": summaryWords.nextFixCredentials,
  "run-again-to-confirm": summaryWords.nextRunAgainToConfirm,
  "retry-unknown": summaryWords.nextRetryUnknown,
  "run-again-to-check": summaryWords.nextRunAgainToCheck,
  "refused-held": summaryWords.nextRefusedHeld,
  "run-again-refused-held": summaryWords.nextRunAgainRefusedHeld,
  "ask-about-order": summaryWords.nextAskAboutOrder,
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
