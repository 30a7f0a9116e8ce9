/**
 * Confirm before resending: a number an earlier run sent without learning the outcome
 * (intent without outcome, or `unknown`) may already have a port-in at the service. docs/contract.md §5
 * calls such numbers `unknown` unless --retry-unknown; portin first asks PortInStatus, so a
 * re-run resends only what the service is known to lack, and never on a guess.
 */
import pLimit from "p-limit";
import { AuthError } from "../errors.js";
import type { PriorState } from "../journal/prior.js";
import { portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";

/** What PortInStatus said about one unsure number. */
export type Confirmation =
  /** 200: the port-in exists, so an earlier request was accepted. */
  | { readonly kind: "present"; readonly ticket: string; readonly status: string }
  /** 404: no port-in for the number; or one that ended (`status` says how), so a new request is no duplicate. */
  | { readonly kind: "absent"; readonly status?: string }
  /** The check itself failed (5xx, timeout, a bad answer) or was never made (interrupted). */
  | { readonly kind: "unchecked"; readonly reason: string };

export interface ConfirmOptions {
  readonly portInStatus: (tenDigits: string) => Promise<PortInStatus | null>;
  /**
   * Records a number found present, so later runs take it as submitted without asking;
   * null for `plan`, which writes nothing.
   */
  readonly record: ((number: string, ticket: string, status: string) => Promise<void>) | null;
  /** The run's --concurrency: checks in flight at once. */
  readonly concurrency: number;
  readonly signal: AbortSignal;
}

/** The numbers an earlier run left unsure: pending (intent without outcome) or `unknown`. */
export function unsureNumbers(numbers: Iterable<string>, prior: PriorState): string[] {
  const unsure = new Set<string>();
  for (const number of numbers) {
    if (prior.submitted.has(number)) continue;
    if (prior.pending.has(number) || prior.unknown.has(number)) unsure.add(number);
  }
  return [...unsure];
}

/**
 * Asks PortInStatus for each number, at most `concurrency` at once. Throws AuthError (the
 * credentials were refused: nothing can be sent either); every other failure leaves that
 * number `unchecked`. A failure to record a confirmation is not fatal here: the next append
 * to the journal reports it and stops the run, and a later run would simply ask again.
 */
export async function confirmNumbers(numbers: readonly string[], options: ConfirmOptions): Promise<Map<string, Confirmation>> {
  const confirmations = new Map<string, Confirmation>();
  const limit = pLimit(options.concurrency);
  const inFlight = new Set<Promise<void>>();
  const refusals: AuthError[] = [];

  const check = async (number: string): Promise<void> => {
    let status: PortInStatus | null;
    try {
      status = await options.portInStatus(number);
    } catch (error) {
      if (error instanceof AuthError) refusals.push(error);
      confirmations.set(number, { kind: "unchecked", reason: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (status === null) {
      confirmations.set(number, { kind: "absent" });
      return;
    }
    // A port-in the service rejected or that was cancelled is no longer pending: it must not
    // make the number `skipped` for good (catalog/account.ts portInPhase).
    if (portInPhase(status.status) === "ended") {
      confirmations.set(number, { kind: "absent", status: status.status });
      return;
    }
    confirmations.set(number, { kind: "present", ticket: status.ticketId, status: status.status });
    await options.record?.(number, status.ticketId, status.status).catch(() => undefined);
  };

  for (const number of numbers) {
    // p-limit queues without bound; keep at most `concurrency` checks enqueued at once.
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    if (options.signal.aborted || refusals.length > 0) break;
    const task: Promise<void> = limit(() => check(number)).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  const [refused] = refusals;
  if (refused) throw refused;

  const why = options.signal.aborted ? `not checked: run interrupted by ${String(options.signal.reason)}` : "not checked";
  for (const number of numbers) if (!confirmations.has(number)) confirmations.set(number, { kind: "unchecked", reason: why });
  return confirmations;
}
