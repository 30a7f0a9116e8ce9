/**
 * Sends planned requests with bounded concurrency and start rate, and maps each service
 * outcome to what its rows become (docs/contract.md §4). The journal's intent is durable before a
 * request leaves; its outcome is recorded after the answer.
 */
import PQueue from "p-queue";
import { PortinError } from "../errors.js";
import type { PortRequest } from "../group/requests.js";
import type { SubmitOutcome } from "../service/outcome.js";
import { REPLY_NAMES } from "../service/answers.js";
import type { RejectedNumber } from "../journal/records.js";
import { rowFingerprint } from "../group/fingerprint.js";
import { StartRate } from "./rate.js";
import { rejectionsByNumber } from "./rejection.js";

/** docs/contract.md §2: `--concurrency` default. */
export const DEFAULT_CONCURRENCY = 4;

export type SentStatus = "submitted" | "rejected" | "failed" | "unknown";

/** What became of one request: its rows share it, but for the numbers a rejection named. */
export interface RequestResult {
  readonly status: SentStatus;
  readonly httpStatus: number | null;
  readonly ticket: string;
  readonly message: string;
  /** A rejection whose message named some of the request's numbers: each with the part about it. */
  readonly named: ReadonlyMap<string, string> | null;
  /** The request that carried the numbers such a rejection did not name, sent at once; none for a request that was itself one. */
  readonly resentAs: PortRequest | null;
}

/** The part of the run journal the dispatcher needs. */
export interface DispatchJournal {
  /** `fingerprints`: each row's as sent, so that a later carrier rejection can tell a fixed row (journal/records.ts). */
  intent(requestId: string, operationId: string, numbers: readonly string[], fingerprints?: readonly string[]): Promise<void>;
  outcome(
    requestId: string,
    outcome: { status: SentStatus; ticket?: string; httpStatus?: number | null; message?: string; rejected?: readonly RejectedNumber[] },
  ): Promise<void>;
}

export interface DispatchOptions {
  readonly submit: (request: PortRequest) => Promise<SubmitOutcome>;
  readonly journal: DispatchJournal | null;
  readonly newRequestId: () => string;
  readonly concurrency: number;
  readonly ratePerSecond: number | null;
  readonly signal: AbortSignal;
  /**
   * Whether `request`'s intent may be written while it waits for a slot, off the path of the
   * requests in flight: true only when a `failed` outcome leaves its numbers exactly as they
   * were, which is what it gets if it never leaves (docs/contract.md §4). Absent: never.
   */
  readonly writeAhead?: (request: PortRequest) => boolean;
  /**
   * Opens connections for `count` requests ahead of them; called once, as the first intents go
   * to the journal, so that connecting overlaps their fsync. It sends nothing.
   */
  readonly connect?: (count: number) => void;
  /** Told as requests start, end, and are added (a resend): for a progress display. */
  readonly progress?: DispatchProgress;
}

export interface DispatchProgress {
  started(): void;
  finished(): void;
  added(): void;
}

/** Why the run stopped starting requests before the end, if it did. */
export type StopReason =
  | { readonly kind: "auth"; readonly message: string }
  | { readonly kind: "signal"; readonly signal: string }
  | { readonly kind: "journal"; readonly error: PortinError };

export interface DispatchReport {
  /** By sequence number; a request never started has no entry. */
  readonly results: ReadonlyMap<number, RequestResult>;
  /** Requests made during the run for the numbers a rejection did not name, numbered after the planned ones. */
  readonly resent: readonly PortRequest[];
  readonly stopped: StopReason | null;
}

/** A request's intent: null once it is durable, or why it cannot be. */
interface Intent {
  readonly requestId: string;
  readonly durable: Promise<PortinError | null>;
}

/** The outcome of a request whose intent went ahead of it but which never left: the next run sends it. */
export const WITHDRAWN = "not sent: the run stopped before this request left; the next run sends it";

export async function dispatch(requests: readonly PortRequest[], options: DispatchOptions): Promise<DispatchReport> {
  const results = new Map<number, RequestResult>();
  const rate = new StartRate(options.ratePerSecond);
  const commits = new Set<Promise<void>>();
  let stopped: StopReason | null = null;
  const crash: { error?: unknown; happened: boolean } = { happened: false };

  const resent: PortRequest[] = [];
  let nextSequence = requests.length + 1;

  /** Intents written ahead whose request no slot has taken yet. */
  const waiting = new Set<{ readonly request: PortRequest; readonly intent: Intent }>();

  /**
   * Stops starting requests, and withdraws the intents written ahead at once rather than as
   * slots free: a second signal or a kill a moment later then leaves only the requests that
   * were in flight without an outcome.
   */
  const stop = (reason: StopReason | null): void => {
    stopped ??= reason;
    for (const { request, intent } of waiting) {
      const commit: Promise<void> = withdraw(request, intent).finally(() => commits.delete(commit));
      commits.add(commit);
    }
    waiting.clear();
  };
  const onAbort = () => stop({ kind: "signal", signal: String(options.signal.reason) });
  options.signal.addEventListener("abort", onAbort, { once: true });

  const recordOutcome = async (requestId: string, request: PortRequest, result: RequestResult): Promise<void> => {
    try {
      await options.journal?.outcome(requestId, {
        status: result.status,
        ticket: result.ticket,
        httpStatus: result.httpStatus,
        message: result.message,
        ...(result.status === "rejected" ? { rejected: rejectedNumbers(request, result) } : {}),
      });
    } catch (error) {
      stop({ kind: "journal", error: asPortinError(error) });
    }
  };

  /**
   * Once, just after the first intent went to the journal: the journal's group commit queued its
   * setImmediate first, so the connections open while that fsync runs, not ahead of it.
   */
  let connecting = false;
  const connectSoon = (): void => {
    const connect = options.connect;
    if (connecting || connect === undefined) return;
    connecting = true;
    setImmediate(() => connect(Math.min(options.concurrency, requests.length)));
  };

  const writeIntent = (request: PortRequest): Intent => {
    const requestId = options.newRequestId();
    if (!options.journal) {
      connectSoon();
      return { requestId, durable: Promise.resolve(null) };
    }
    const numbers = request.numbers.map((row) => row.number);
    const written = options.journal.intent(requestId, request.operation.id, numbers, request.numbers.map(rowFingerprint));
    connectSoon();
    return { requestId, durable: written.then(() => null, asPortinError) };
  };

  /** A request whose intent went ahead and that will not leave: its `failed` outcome clears the intent. */
  const withdraw = async (request: PortRequest, intent: Intent): Promise<void> => {
    if ((await intent.durable) !== null) return;
    const result: RequestResult = { status: "failed", httpStatus: null, ticket: "", message: WITHDRAWN, named: null, resentAs: null };
    await recordOutcome(intent.requestId, request, result);
  };

  const sendOne = async (request: PortRequest, mayResend: boolean, intent: Intent = writeIntent(request)): Promise<void> => {
    const { requestId } = intent;
    const failure = await intent.durable;
    if (failure !== null) {
      stop({ kind: "journal", error: failure });
      return;
    }
    options.progress?.started();
    const outcome = await options.submit(request).finally(() => options.progress?.finished());
    let result = resultOf(outcome, request);
    const rest = result.named === null ? [] : request.numbers.filter((row) => !(result.named as ReadonlyMap<string, string>).has(row.number));
    if (mayResend && rest.length > 0) {
      const again: PortRequest = { ...request, sequence: nextSequence++, numbers: rest };
      resent.push(again);
      options.progress?.added();
      result = { ...result, resentAs: again };
    }
    results.set(request.sequence, result);
    if (outcome.kind === "auth") stop({ kind: "auth", message: outcome.message });
    if (options.journal) {
      // The slot is free once the answer is in: the outcome is made durable in the background,
      // usually in the same fsync as the next request's intent. A crash before that fsync
      // leaves an intent without an outcome, which a re-run treats as unknown: never resent.
      const commit: Promise<void> = recordOutcome(requestId, request, result).finally(() => commits.delete(commit));
      commits.add(commit);
    }
    // A rejected request committed nothing, so its other numbers go again at once, in the same
    // slot; once per run, so a service that keeps naming numbers cannot keep the run going.
    if (result.resentAs !== null && (await mayStart())) await sendOne(result.resentAs, false);
  };

  // p-queue bounds what is in flight and, through onSizeLessThan, what waits for a slot: at most
  // `concurrency` requests are queued behind those in flight, so a sheet of millions is not.
  // A queued request's intent is written as it joins the queue, where writeAhead allows: the
  // fsync is then done before its slot frees, and the slot sends at once instead of waiting
  // for it; at most `concurrency` such intents wait (docs/contract.md §4).
  const queue = new PQueue({ concurrency: options.concurrency });

  /** Waits for the start rate; false once the run has stopped starting requests. */
  const mayStart = async (): Promise<boolean> => {
    await rate.wait(options.signal);
    if (options.signal.aborted) stop({ kind: "signal", signal: String(options.signal.reason) });
    return !stopped && !crash.happened;
  };

  let firstToWait = true;
  for (const request of requests) {
    await queue.onSizeLessThan(options.concurrency);
    if (firstToWait && queue.pending >= options.concurrency) {
      // The first request to wait for a slot yields a turn first: the intents of the requests
      // in flight then make a group commit of their own, and those behind them are built while
      // its fsync runs rather than before it; the first POSTs leave that much sooner.
      firstToWait = false;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (options.signal.aborted) stop({ kind: "signal", signal: String(options.signal.reason) });
    if (stopped || crash.happened) break;
    const ahead = options.journal && options.writeAhead?.(request) === true ? { request, intent: writeIntent(request) } : undefined;
    if (ahead) waiting.add(ahead);
    queue
      .add(async () => {
        // Gone from `waiting`: stop() has withdrawn it.
        if (ahead && !waiting.delete(ahead)) return;
        if (await mayStart()) await sendOne(request, true, ahead?.intent);
        else if (ahead) await withdraw(request, ahead.intent);
      })
      .catch((error: unknown) => {
        // A bug (not an outcome: submit never throws for those) stops the run once in-flight requests end.
        if (!crash.happened) Object.assign(crash, { error, happened: true });
        stop(null);
      });
  }
  await queue.onIdle();
  options.signal.removeEventListener("abort", onAbort);
  await Promise.all(commits);
  if (crash.happened) throw crash.error;
  return { results, resent, stopped };
}

/** What the journal keeps of a rejection: every number it stands for, with its fingerprint. */
function rejectedNumbers(request: PortRequest, result: RequestResult): RejectedNumber[] {
  const named = result.named;
  const rows = named === null ? request.numbers : request.numbers.filter((row) => named.has(row.number));
  return rows.map((row) => ({ number: row.number, message: named?.get(row.number) ?? result.message, fingerprint: rowFingerprint(row) }));
}

function resultOf(outcome: SubmitOutcome, request: PortRequest): RequestResult {
  const whole = { named: null, resentAs: null };
  switch (outcome.kind) {
    case "accepted": {
      // docs/contract.md §4: for Deferred and Conditional the message says which.
      const message =
        outcome.reply === 1
          ? outcome.message
          : `${REPLY_NAMES[outcome.reply]}${outcome.message ? `: ${outcome.message}` : ""}`;
      return { status: "submitted", httpStatus: outcome.httpStatus, ticket: outcome.ticket, message, ...whole };
    }
    case "rejected": {
      const named = rejectionsByNumber(outcome.message, request.numbers.map((row) => row.number));
      return { status: "rejected", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message, named, resentAs: null };
    }
    case "auth":
    case "failed":
      return { status: "failed", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message, ...whole };
    case "unknown":
      return { status: "unknown", httpStatus: outcome.httpStatus, ticket: "", message: outcome.message, ...whole };
  }
}

function asPortinError(error: unknown): PortinError {
  if (error instanceof PortinError) return error;
  return new PortinError("E_STATE", `cannot write the run journal: ${String(error)}`, { cause: error });
}
