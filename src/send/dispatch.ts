/**
 * Sends planned requests with bounded concurrency and start rate, and maps each service
 * outcome to what its rows become (SPEC §4). The journal's intent is durable before a
 * request leaves; its outcome is recorded after the answer.
 */
import pLimit from "p-limit";
import { PortinError } from "../errors.js";
import type { PortRequest } from "../plan/plan.js";
import type { SubmitOutcome } from "../service/outcome.js";
import { REPLY_NAMES } from "../service/answers.js";
import { StartRate } from "./rate.js";

/** SPEC §2: `--concurrency` default. */
export const DEFAULT_CONCURRENCY = 4;

export type SentStatus = "submitted" | "rejected" | "failed" | "unknown";

/** What became of one request: its rows all share it. */
export interface RequestResult {
  readonly status: SentStatus;
  readonly httpStatus: number | null;
  readonly ticket: string;
  readonly message: string;
}

/** The part of the run journal the dispatcher needs. */
export interface DispatchJournal {
  intent(requestId: string, operationId: string, numbers: readonly string[]): Promise<void>;
  outcome(
    requestId: string,
    outcome: { status: SentStatus; ticket?: string; httpStatus?: number | null; message?: string },
  ): Promise<void>;
}

export interface DispatchOptions {
  readonly submit: (request: PortRequest) => Promise<SubmitOutcome>;
  readonly journal: DispatchJournal | null;
  readonly newRequestId: () => string;
  readonly concurrency: number;
  readonly ratePerSecond: number | null;
  readonly signal: AbortSignal;
}

/** Why the run stopped starting requests before the end, if it did. */
export type StopReason =
  | { readonly kind: "auth"; readonly message: string }
  | { readonly kind: "signal"; readonly signal: string }
  | { readonly kind: "journal"; readonly error: PortinError };

export interface DispatchReport {
  /** By batch number; a request never started has no entry. */
  readonly results: ReadonlyMap<number, RequestResult>;
  readonly stopped: StopReason | null;
}

export async function dispatch(requests: readonly PortRequest[], options: DispatchOptions): Promise<DispatchReport> {
  const results = new Map<number, RequestResult>();
  const rate = new StartRate(options.ratePerSecond);
  const commits = new Set<Promise<void>>();
  let stopped: StopReason | null = null;
  const crash: { error?: unknown; happened: boolean } = { happened: false };

  const recordOutcome = async (requestId: string, result: RequestResult): Promise<void> => {
    try {
      await options.journal?.outcome(requestId, {
        status: result.status,
        ticket: result.ticket,
        httpStatus: result.httpStatus,
        message: result.message,
      });
    } catch (error) {
      stopped ??= { kind: "journal", error: asPortinError(error) };
    }
  };

  const sendOne = async (request: PortRequest): Promise<void> => {
    const requestId = options.newRequestId();
    if (options.journal) {
      const numbers = request.numbers.map((row) => row.number);
      try {
        await options.journal.intent(requestId, request.operation.id, numbers);
      } catch (error) {
        stopped ??= { kind: "journal", error: asPortinError(error) };
        return;
      }
    }
    const outcome = await options.submit(request);
    const result = resultOf(outcome);
    results.set(request.batch, result);
    if (outcome.kind === "auth") stopped ??= { kind: "auth", message: outcome.message };
    if (options.journal) {
      // The slot is free once the answer is in: the outcome is made durable in the background,
      // usually in the same fsync as the next request's intent. A crash before that fsync
      // leaves an intent without an outcome, which a re-run treats as unknown: never resent.
      const commit: Promise<void> = recordOutcome(requestId, result).finally(() => commits.delete(commit));
      commits.add(commit);
    }
  };

  const limit = pLimit(options.concurrency);
  const queued = new Set<Promise<void>>();
  // p-limit's queue is unbounded: the loop below enqueues only while fewer than
  // `concurrency` requests wait in it, and a request leaving the queue wakes the loop.
  let wakeProducer: (() => void) | null = null;

  const start = async (request: PortRequest): Promise<void> => {
    wakeProducer?.();
    wakeProducer = null;
    await rate.wait(options.signal);
    if (options.signal.aborted) stopped ??= { kind: "signal", signal: String(options.signal.reason) };
    if (stopped || crash.happened) return;
    await sendOne(request);
  };

  for (const request of requests) {
    while (limit.pendingCount >= options.concurrency) await new Promise<void>((resolve) => (wakeProducer = resolve));
    if (options.signal.aborted) stopped ??= { kind: "signal", signal: String(options.signal.reason) };
    if (stopped || crash.happened) break;
    const task: Promise<void> = limit(() => start(request))
      .catch((error: unknown) => {
        // A bug (not an outcome: submit never throws for those) stops the run once in-flight requests end.
        if (!crash.happened) Object.assign(crash, { error, happened: true });
      })
      .finally(() => queued.delete(task));
    queued.add(task);
  }
  await Promise.all(queued);
  await Promise.all(commits);
  if (crash.happened) throw crash.error;
  return { results, stopped };
}

function resultOf(outcome: SubmitOutcome): RequestResult {
  switch (outcome.kind) {
    case "accepted": {
      // SPEC §4: for Deferred and Conditional the message says which.
      const message =
        outcome.reply === 1
          ? outcome.message
          : `${REPLY_NAMES[outcome.reply]}${outcome.message ? `: ${outcome.message}` : ""}`;
      return { status: "submitted", httpStatus: outcome.httpStatus, ticket: outcome.ticket, message };
    }
    case "rejected":
      return { status: "rejected", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message };
    case "auth":
    case "failed":
      return { status: "failed", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message };
    case "unknown":
      return { status: "unknown", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message };
  }
}

function asPortinError(error: unknown): PortinError {
  if (error instanceof PortinError) return error;
  return new PortinError("E_STATE", `cannot write the run journal: ${String(error)}`, { cause: error });
}
