/**
 * `submit` registers the 9-1-1 record of each regular number on a SIP trunk whose port-in the
 * service has accepted (docs/contract.md §2 "9-1-1 addresses", §1.5): POST /v2/V911s with
 * `PendingPort: true`, exactly once across runs, journaled like a port-in (an `e911-intent`
 * on disk before the request, an `e911-outcome` after). What earlier runs left decides each
 * number (verdict.ts e911VerdictOf): nothing for a record registered with this address, a
 * PUT for a changed one, and a GET first for one whose outcome was never learned, so a run
 * killed between intent and answer, or answered 500, is settled by asking, never by a second
 * POST. A registration that fails never blocks or undoes the port-in: its row says so in
 * `result_e911` and the next run tries again.
 */
import * as e911Words from "../messages/e911.js";
import PQueue from "p-queue";
import { AuthError } from "../errors.js";
import type { E911Address } from "../catalog/e911.js";
import { e911Fingerprint } from "../group/fingerprint.js";
import type { Journal } from "../journal/journal.js";
import type { PriorState } from "../journal/prior.js";
import type { E911Result, RowOutcome } from "../results/row-outcome.js";
import type { ServiceClient } from "../service/client.js";
import type { V911Outcome } from "../service/v911-outcome.js";
import type { E911Rows } from "../validate/e911.js";
import type { CheckedRow } from "../validate/types.js";
import { e911AfterAsking, e911VerdictOf } from "./verdict.js";
import type { E911Verdict } from "./verdict.js";

/** What became of one row's 9-1-1 record in this run. */
export interface E911Registration {
  readonly result: E911Result;
  /** Said after the row's own message; "" when all is well. */
  readonly message: string;
}

export interface RegisterOptions {
  readonly client: Pick<ServiceClient, "registerE911" | "e911Record">;
  readonly journal: Pick<Journal, "e911Intent" | "e911Outcome"> | null;
  readonly prior: PriorState | null;
  readonly concurrency: number;
  readonly signal: AbortSignal;
}

const REGISTERED: E911Registration = { result: "registered", message: "" };
const NEXT_RUN = e911Words.NEXT_RUN_REGISTERS;

/** Whether the service accepted the row's port-in, in this run or an earlier one. */
function portAccepted(outcome: RowOutcome): boolean {
  return (outcome.status === "submitted" || outcome.status === "skipped") && outcome.ticket !== "";
}

export async function registerE911(rows: readonly CheckedRow[], e911: E911Rows, outcomeOf: (index: number) => RowOutcome, options: RegisterOptions): Promise<Map<number, E911Registration>> {
  const done = new Map<number, E911Registration>();
  const queue = new PQueue({ concurrency: options.concurrency });
  let refused: string | null = null;
  for (const [index, address] of e911.addresses) {
    const row = rows[index];
    if (row?.valid !== true || !portAccepted(outcomeOf(index))) continue;
    // At most `concurrency` wait behind those in flight, as for dispatch: a million rows queue no million closures.
    await queue.onSizeLessThan(options.concurrency);
    if (options.signal.aborted || refused !== null) {
      done.set(index, { result: "failed", message: `9-1-1 record not sent: ${refused ?? "the run was stopped"}; ${NEXT_RUN}` });
      continue;
    }
    void queue.add(async () => {
      try {
        done.set(index, await registerOne(row.number, address, options));
      } catch (error) {
        if (error instanceof AuthError) refused = error.message;
        done.set(index, { result: "failed", message: `9-1-1 record not registered: ${error instanceof Error ? error.message : String(error)}; ${NEXT_RUN}` });
      }
    });
  }
  await queue.onIdle();
  return done;
}

async function registerOne(number: string, address: E911Address, options: RegisterOptions): Promise<E911Registration> {
  const fingerprint = e911Fingerprint(address);
  // Without a journal nothing says what earlier runs sent: the service is asked first.
  let verdict: E911Verdict = options.prior === null || options.journal === null ? { kind: "ask" } : e911VerdictOf(options.prior.e911.get(number), fingerprint);
  if (verdict.kind === "ask") {
    const record = await options.client.e911Record(number);
    verdict = e911AfterAsking(record === null ? null : e911Fingerprint(record), fingerprint);
    if (verdict.kind === "registered") await options.journal?.e911Outcome(number, "registered", fingerprint);
  }
  if (verdict.kind === "registered") return REGISTERED;
  const method = verdict.kind === "replace" ? "PUT" : "POST";
  await options.journal?.e911Intent(number, method, fingerprint);
  const outcome = await options.client.registerE911(method, number, address);
  await options.journal?.e911Outcome(number, journalStatusOf(outcome), fingerprint, outcome.kind === "registered" ? undefined : outcome.message);
  switch (outcome.kind) {
    case "registered":
      return REGISTERED;
    case "unknown":
      return { result: "unknown", message: `9-1-1 record: ${outcome.message}` };
    case "auth":
      throw new AuthError(outcome.message);
    case "refused":
    case "failed":
      return { result: "failed", message: `9-1-1 record not registered: ${outcome.message}; ${NEXT_RUN}` };
  }
}

function journalStatusOf(outcome: V911Outcome): "registered" | "refused" | "failed" | "unknown" {
  return outcome.kind === "auth" ? "failed" : outcome.kind;
}

/** For a plan: the rows whose record an earlier run registered with the address they have now. */
export function registeredEarlier(rows: readonly CheckedRow[], e911: E911Rows, prior: PriorState | null): Map<number, E911Registration> {
  const out = new Map<number, E911Registration>();
  if (prior === null) return out;
  for (const [index, address] of e911.addresses) {
    const row = rows[index];
    if (row?.valid === true && e911VerdictOf(prior.e911.get(row.number), e911Fingerprint(address)).kind === "registered") out.set(index, REGISTERED);
  }
  return out;
}
