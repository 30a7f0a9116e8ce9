/**
 * The end of `portin status` (docs/contract.md §6): rows by status, each with what to do
 * next, how many orders were asked about; as text for stderr, or one JSON document for
 * stdout with --json.
 */
import type { NumberHistory, StatusChanges } from "../journal/history.js";
import type { Service } from "../service/service.js";
import type { OrderState, OrderStatus } from "./order-status.js";
import { formatElapsed, serviceJson, serviceLine } from "./summary.js";
import * as statusWords from "../messages/status.js";
import { printedPath } from "../terminal-text.js";

export interface StatusSummary {
  /** Rows per `status` cell, in STATE_ORDER then first-seen order. */
  readonly counts: readonly { readonly status: string; readonly state: OrderState; readonly rows: number }[];
  /** Rows per state, every state present. */
  readonly states: Readonly<Record<OrderState, number>>;
  /** Distinct orders (tickets) reported on. */
  readonly orders: number;
  /** PortInStatus questions sent. */
  readonly requests: number;
  readonly elapsedMs: number;
  /** The output path, or "-" for standard output. */
  readonly output: string;
  readonly service: Service;
}

export interface StatusSummaryInput {
  readonly statuses: Iterable<Pick<OrderStatus, "status" | "state" | "ticket">>;
  readonly requests: number;
  readonly elapsedMs: number;
  readonly output: string;
  readonly service: Service;
}

const STATE_ORDER: readonly OrderState[] = ["ended", "not-found", "unchecked", "open", "completed", "not-submitted"];

export function summarizeStatus(input: StatusSummaryInput): StatusSummary {
  const byStatus = new Map<string, { status: string; state: OrderState; rows: number }>();
  const states = Object.fromEntries(STATE_ORDER.map((state) => [state, 0])) as Record<OrderState, number>;
  const tickets = new Set<string>();
  for (const row of input.statuses) {
    states[row.state] += 1;
    if (row.ticket !== "" && row.state !== "not-submitted") tickets.add(row.ticket);
    // By state too: a Status word kept from an earlier check (unchecked now) is not a live one.
    const key = `${row.state}\u0000${row.status}`;
    const seen = byStatus.get(key);
    if (seen) seen.rows += 1;
    else byStatus.set(key, { status: row.status, state: row.state, rows: 1 });
  }
  const counts = [...byStatus.values()].sort((a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state));
  return { counts, states, orders: tickets.size, requests: input.requests, elapsedMs: Math.round(input.elapsedMs), output: input.output, service: input.service };
}

/** What to do about `rows` rows of one status; `where` names the output. */
function adviceFor(status: string, state: OrderState, rows: number, where: string): string {
  const n = `${rows} ${rows === 1 ? "row" : "rows"} ${status}`;
  switch (state) {
    case "ended":
      return statusWords.nextEnded(n, where);
    case "not-found":
      return statusWords.nextNotFound(n, where);
    case "unchecked":
      return statusWords.nextUnchecked(n, where);
    case "completed":
      return statusWords.nextCompleted(n);
    case "not-submitted":
      return statusWords.nextNotSubmitted(n, where);
    case "open":
      if (/^submitted$/i.test(status)) return statusWords.nextWaiting(n);
      if (/^confirmed$/i.test(status)) return statusWords.nextConfirmed(n, where);
      return statusWords.nextOpen(n);
  }
}

/** Multi-line text for stderr. */
export function formatStatusSummary(s: StatusSummary): string {
  const rows = s.counts.reduce((total, c) => total + c.rows, 0);
  const byStatus = s.counts.map((c) => `${c.rows} ${c.status}`);
  const where = s.output === "-" ? statusWords.REPORT_ON_STDOUT : printedPath(s.output);

  const lines = [statusWords.statusHeader(rows, byStatus.join(", "))];
  lines.push(statusWords.askedAbout(s.orders, s.requests, formatElapsed(s.elapsedMs)));
  lines.push(serviceLine(s.service));
  lines.push(`output: ${s.output === "-" ? "standard output" : printedPath(s.output)}`);
  for (const c of s.counts) lines.push(`next: ${adviceFor(c.status, c.state, c.rows, where)}`);
  return lines.join("\n");
}

/** One JSON document for stdout (--json), with the exit code. */
export function statusSummaryJson(s: StatusSummary, exitCode: number, changes: StatusChanges | null = null, history: readonly NumberHistory[] | null = null): string {
  const where = s.output === "-" ? "the report" : printedPath(s.output);
  return JSON.stringify({
    command: "status",
    counts: Object.fromEntries(s.counts.map((c) => [c.status, c.rows])),
    states: s.states,
    changes,
    // Every number ever rejected, with each of its orders' changes: a reject fixed and resent stays on the record.
    rejectedEver: history === null ? null : history.length,
    history,
    next: s.counts.map((c) => ({ status: c.status, state: c.state, rows: c.rows, advice: adviceFor(c.status, c.state, c.rows, where) })),
    orders: s.orders,
    requests: s.requests,
    elapsedMs: s.elapsedMs,
    output: s.output,
    ...serviceJson(s.service),
    exitCode,
  });
}
