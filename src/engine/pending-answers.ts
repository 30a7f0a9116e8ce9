/**
 * A number the service refuses because it already has a pending port-in is not a row to fix
 * (docs/contract.md §4): PortInStatus is asked for it, and when an open order holds it the
 * row is `skipped` with that order's ticket and recorded in the journal as submitted, so that
 * `status` follows it and no later run sends it, --retry-rejected included. Only a number no
 * open order can be found for stays `rejected`, with the service's words.
 */
import { portInPhase } from "../catalog/account.js";
import type { Journal } from "../journal/journal.js";
import type { DispatchReport } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import type { AccountHold } from "./verdict.js";
import { askByNumber, StatusAsker } from "./port-in-status.js";

/** The service's words for a number another order already holds. */
const PENDING = /pending port[- ]?in|already (?:has|in) an? (?:open|pending) (?:port[- ]?in|order)/i;

export interface PendingOptions {
  readonly client: Pick<ServiceClient, "portInStatus">;
  readonly journal: Pick<Journal, "confirmed"> | null;
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** The run's one breaker for every PortInStatus question (port-in-status.ts); one of its own when absent. */
  readonly asker?: StatusAsker;
}

/** By number: the order that holds each number the service refused as pending, where PortInStatus found one. */
export async function resolvePendingAnswers(report: DispatchReport, options: PendingOptions): Promise<Map<string, AccountHold>> {
  const pending: string[] = [];
  for (const result of report.results.values()) {
    if (result.status !== "rejected" || result.named === null) continue;
    for (const [number, message] of result.named) if (PENDING.test(message)) pending.push(number);
  }
  const holds = new Map<string, AccountHold>();
  if (pending.length === 0) return holds;
  // One group: an answer's NumbersToPort settles the other numbers of its order.
  const asker = options.asker ?? new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  const answers = await askByNumber([pending], asker, (number, watch) => options.client.portInStatus(number, watch));
  const records: Promise<void>[] = [];
  for (const [number, answer] of answers) {
    if (answer.kind !== "found") continue;
    const { ticketId, status } = answer.status;
    const phase = portInPhase(status);
    if (phase === "ended" || ticketId === "") continue;
    holds.set(number, phase === "completed" ? { kind: "ported", orderId: "", ticket: ticketId, status } : { kind: "open", orderId: "", ticket: ticketId, status, why: "" });
    if (options.journal !== null) records.push(options.journal.confirmed(number, ticketId, status, true));
  }
  await Promise.all(records);
  return holds;
}
