/**
 * Confirm before resending: a number an earlier run sent without learning the outcome
 * (intent without outcome, or `unknown`) may already have a port-in at the service. docs/contract.md §5
 * calls such numbers `unknown` unless --retry-unknown; portin first asks PortInStatus, so a
 * re-run resends only what the service is known to lack, and never on a guess.
 */
import { portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import { stateOf } from "../journal/prior.js";
import type { PriorState } from "../journal/prior.js";
import type { AttemptWatch } from "../service/client.js";
import { askByNumber, StatusAsker } from "./port-in-status.js";
import { verdictOf } from "./verdict.js";

/** What PortInStatus said about one unsure number. */
export type Confirmation =
  /** 200: the port-in exists, so an earlier request was accepted. */
  | { readonly kind: "present"; readonly ticket: string; readonly status: string }
  /** 404: no port-in for the number; or one that ended (`status` says how), so a new request is no duplicate. */
  | { readonly kind: "absent"; readonly status?: string; readonly ticket?: string }
  /** The check itself failed (5xx, timeout, a bad answer) or was never made (interrupted). */
  | { readonly kind: "unchecked"; readonly reason: string };

export interface ConfirmOptions {
  readonly portInStatus: (tenDigits: string, watch: AttemptWatch) => Promise<PortInStatus | null>;
  /**
   * Records a number found present, so later runs take it as submitted without asking;
   * null for `plan`, which writes nothing.
   */
  readonly record: ((number: string, ticket: string, status: string) => Promise<void>) | null;
  /** The run's --concurrency: checks in flight at once. */
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** The run's one breaker for every PortInStatus question (port-in-status.ts); one of its own when absent. */
  readonly asker?: StatusAsker;
}

/**
 * The numbers an earlier run left unsure (pending: an intent without outcome; or `unknown`),
 * grouped by the request that last carried them, in the order given: one PortInStatus per
 * request can settle all of its numbers.
 */
export function unsureRequests(numbers: Iterable<string>, prior: PriorState | null): string[][] {
  const byRequest = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const number of numbers) {
    if (seen.has(number)) continue;
    const verdict = verdictOf({ state: stateOf(prior, number) });
    if (verdict.kind !== "unsure") continue;
    const request = verdict.state.requestId;
    seen.add(number);
    const group = byRequest.get(request);
    if (group) group.push(number);
    else byRequest.set(request, [number]);
  }
  return [...byRequest.values()];
}

/**
 * Asks PortInStatus about one number of each unsure request, takes a live order's
 * NumbersToPort as settling the request's other numbers, and asks about the others only when
 * not covered (port-in-status.ts), at most `concurrency` at once. After a few failed checks in
 * a row it stops asking: the rest stay `unchecked`, "not checked: PortInStatus unavailable",
 * at once rather than each after its own retries. Throws AuthError (the credentials were
 * refused: nothing can be sent either). A failure to record a confirmation is not fatal
 * here: the next append to the journal reports it and stops the run, and a later run would
 * simply ask again.
 */
export async function confirmNumbers(requests: readonly (readonly string[])[], options: ConfirmOptions): Promise<Map<string, Confirmation>> {
  const asker = options.asker ?? new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  const answers = await askByNumber(requests, asker, options.portInStatus);
  const confirmations = new Map<string, Confirmation>();
  const records: Promise<void>[] = [];
  for (const [number, answer] of answers) {
    if (answer.kind === "failed") {
      confirmations.set(number, { kind: "unchecked", reason: answer.reason });
    } else if (answer.kind === "missing") {
      confirmations.set(number, { kind: "absent" });
    } else if (portInPhase(answer.status.status) === "ended") {
      // A port-in the service rejected or that was cancelled is no longer pending: it must not
      // make the number `skipped` for good (catalog/account.ts portInPhase).
      confirmations.set(number, { kind: "absent", status: answer.status.status, ticket: answer.status.ticketId });
    } else {
      confirmations.set(number, { kind: "present", ticket: answer.status.ticketId, status: answer.status.status });
      // Appended in one turn, they share one write and one fsync (journal/group-commit.ts).
      const record = options.record?.(number, answer.status.ticketId, answer.status.status);
      if (record) records.push(record.catch(() => undefined));
    }
  }
  await Promise.all(records);
  return confirmations;
}
