/**
 * Sends planned requests with bounded concurrency and start rate, and maps each service
 * outcome to what its rows become (docs/contract.md §4). The journal's intent is durable before a
 * request leaves; its outcome is recorded after the answer.
 */
import PQueue from "p-queue";
import * as journalWords from "../messages/journal.js";
import * as outcomes from "../messages/outcomes.js";
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
  /**
   * Of a rejected request's numbers its rejection did not name (`others`), those another order
   * already holds, each with the words its row carries: settled with the rejection instead of
   * sent again (docs/contract.md §4). Absent: every other number is sent again. Never throws.
   */
  readonly othersHeld?: (named: ReadonlyMap<string, string>, others: readonly string[]) => Promise<ReadonlyMap<string, string>>;
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

/** A request whose intent was written while it waits for a slot. */
interface Ahead {
  readonly request: PortRequest;
  readonly intent: Intent;
}

/** The outcome of a request whose intent went ahead of it but which never left: the next run sends it. */
export const WITHDRAWN = outcomes.WITHDRAWN;

export function dispatch(requests: readonly PortRequest[], options: DispatchOptions): Promise<DispatchReport> {
  return new Dispatcher(requests, options).run();
}

/**
 * One run's sending. Its exactly-once rules (docs/contract.md §4), in the order a request
 * meets them:
 *
 * 1. A request's intent is durable in the journal before the request leaves (`writeIntent`,
 *    then `send` waits for it); a journal that cannot write stops the run.
 * 2. It leaves only while the run has not stopped, and at the start rate (`mayStart`).
 * 3. Its outcome is recorded after the answer, in the background (`recordOutcome`): a crash
 *    before that leaves an intent without an outcome, which a re-run treats as unknown.
 * 4. A rejection that named some numbers sends the others at once, once (`send`), but for
 *    those another order turns out to hold (`othersHeld`), which it settles with them.
 * 5. An intent written ahead of a request that will not leave is withdrawn with a `failed`
 *    outcome (`withdraw`); stopping withdraws every such intent at once (`stop`).
 *
 * The rest is timing: how far intents go ahead of their slot (`run`), and when connections
 * open (`connectSoon`).
 */
class Dispatcher {
  readonly #requests: readonly PortRequest[];
  readonly #options: DispatchOptions;
  readonly #results = new Map<number, RequestResult>();
  readonly #resent: PortRequest[] = [];
  readonly #rate: StartRate;
  /** Outcomes being made durable in the background. */
  readonly #commits = new Set<Promise<void>>();
  /** Intents written ahead whose request no slot has taken yet. */
  readonly #waiting = new Set<Ahead>();
  // p-queue bounds what is in flight and, through onSizeLessThan, what waits for a slot: at most
  // `concurrency` requests are queued behind those in flight, so a sheet of millions is not.
  readonly #queue: PQueue;
  #nextSequence: number;
  #stopped: StopReason | null = null;
  /** A bug (not an outcome: submit never throws for those), thrown once the requests in flight end. */
  #crash: { readonly error: unknown } | null = null;
  #connecting = false;

  constructor(requests: readonly PortRequest[], options: DispatchOptions) {
    this.#requests = requests;
    this.#options = options;
    this.#rate = new StartRate(options.ratePerSecond);
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#nextSequence = requests.length + 1;
  }

  async run(): Promise<DispatchReport> {
    const { signal, concurrency } = this.#options;
    const onAbort = (): void => this.#stop(signalStop(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    let firstToWait = true;
    for (const request of this.#requests) {
      await this.#queue.onSizeLessThan(concurrency);
      if (firstToWait && this.#queue.pending >= concurrency) {
        // The first request to wait for a slot yields a turn first: the intents of the requests
        // in flight then make a group commit of their own, and those behind them are built while
        // its fsync runs rather than before it; the first POSTs leave that much sooner.
        firstToWait = false;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (signal.aborted) this.#stop(signalStop(signal));
      if (this.#stopped || this.#crash) break;
      this.#enqueue(request);
    }
    await this.#queue.onIdle();
    signal.removeEventListener("abort", onAbort);
    await Promise.all(this.#commits);
    if (this.#crash) throw this.#crash.error;
    return { results: this.#results, resent: this.#resent, stopped: this.#stopped };
  }

  /**
   * A queued request's intent is written as it joins the queue, where writeAhead allows: the
   * fsync is then done before its slot frees, and the slot sends at once instead of waiting
   * for it; at most `concurrency` such intents wait (docs/contract.md §4).
   */
  #enqueue(request: PortRequest): void {
    const ahead = this.#options.journal && this.#options.writeAhead?.(request) === true ? { request, intent: this.#writeIntent(request) } : undefined;
    if (ahead) this.#waiting.add(ahead);
    this.#queue
      .add(async () => {
        // Gone from `waiting`: stop() has withdrawn it.
        if (ahead && !this.#waiting.delete(ahead)) return;
        if (await this.#mayStart()) await this.#send(request, true, ahead?.intent);
        else if (ahead) await this.#withdraw(ahead);
      })
      .catch((error: unknown) => {
        this.#crash ??= { error };
        this.#stop(null);
      });
  }

  /** Rule 1: the intent goes to the journal (its group commit) before anything else of the request. */
  #writeIntent(request: PortRequest): Intent {
    const requestId = this.#options.newRequestId();
    const { journal } = this.#options;
    if (!journal) {
      this.#connectSoon();
      return { requestId, durable: Promise.resolve(null) };
    }
    const numbers = request.numbers.map((row) => row.number);
    const written = journal.intent(requestId, request.operation.id, numbers, request.numbers.map(rowFingerprint));
    this.#connectSoon();
    return { requestId, durable: written.then(() => null, asPortinError) };
  }

  /** Rule 2: waits for the start rate; false once the run has stopped starting requests. */
  async #mayStart(): Promise<boolean> {
    const { signal } = this.#options;
    await this.#rate.wait(signal);
    if (signal.aborted) this.#stop(signalStop(signal));
    return !this.#stopped && !this.#crash;
  }

  async #send(request: PortRequest, mayResend: boolean, intent: Intent = this.#writeIntent(request)): Promise<void> {
    const failure = await intent.durable;
    if (failure !== null) {
      this.#stop({ kind: "journal", error: failure });
      return;
    }
    const { progress } = this.#options;
    progress?.started();
    const outcome = await this.#options.submit(request).finally(() => progress?.finished());
    let result = resultOf(outcome, request);
    // Rule 4: a rejected request committed nothing, so its other numbers go again at once, in the
    // same slot; once per run, so a service that keeps naming numbers cannot keep the run going.
    let named = result.named;
    let rest = named === null ? [] : unnamed(request, named);
    if (named !== null && rest.length > 0 && this.#options.othersHeld !== undefined) {
      // A service naming one refusal an answer: the order of a number it names may hold the others.
      const held = await this.#options.othersHeld(named, rest.map((row) => row.number));
      if (held.size > 0) {
        named = new Map([...named, ...held]);
        rest = rest.filter((row) => !held.has(row.number));
        result = { ...result, named };
      }
    }
    if (mayResend && rest.length > 0) {
      const again: PortRequest = { ...request, sequence: this.#nextSequence++, numbers: rest };
      this.#resent.push(again);
      progress?.added();
      result = { ...result, resentAs: again };
    }
    this.#results.set(request.sequence, result);
    if (outcome.kind === "auth") this.#stop({ kind: "auth", message: outcome.message });
    // Rule 3: the slot is free once the answer is in: the outcome is made durable in the
    // background, usually in the same fsync as the next request's intent.
    if (this.#options.journal) this.#background(this.#recordOutcome(intent.requestId, request, result));
    if (result.resentAs !== null && (await this.#mayStart())) await this.#send(result.resentAs, false);
  }

  async #recordOutcome(requestId: string, request: PortRequest, result: RequestResult): Promise<void> {
    try {
      await this.#options.journal?.outcome(requestId, {
        status: result.status,
        ticket: result.ticket,
        httpStatus: result.httpStatus,
        message: result.message,
        ...(result.status === "rejected" ? { rejected: rejectedNumbers(request, result) } : {}),
      });
    } catch (error) {
      this.#stop({ kind: "journal", error: asPortinError(error) });
    }
  }

  /** Rule 5: a request whose intent went ahead and that will not leave: its `failed` outcome clears the intent. */
  async #withdraw({ request, intent }: Ahead): Promise<void> {
    if ((await intent.durable) !== null) return;
    const result: RequestResult = { status: "failed", httpStatus: null, ticket: "", message: WITHDRAWN, named: null, resentAs: null };
    await this.#recordOutcome(intent.requestId, request, result);
  }

  /**
   * Stops starting requests, and withdraws the intents written ahead at once rather than as
   * slots free: a second signal or a kill a moment later then leaves only the requests that
   * were in flight without an outcome.
   */
  #stop(reason: StopReason | null): void {
    this.#stopped ??= reason;
    for (const ahead of this.#waiting) this.#background(this.#withdraw(ahead));
    this.#waiting.clear();
  }

  /** A record made durable while the run goes on; the run ends only once every one has. */
  #background(record: Promise<void>): void {
    const commit: Promise<void> = record.finally(() => this.#commits.delete(commit));
    this.#commits.add(commit);
  }

  /**
   * Once, just after the first intent went to the journal: the journal's group commit queued its
   * setImmediate first, so the connections open while that fsync runs, not ahead of it.
   */
  #connectSoon(): void {
    const { connect, concurrency } = this.#options;
    if (this.#connecting || connect === undefined) return;
    this.#connecting = true;
    setImmediate(() => connect(Math.min(concurrency, this.#requests.length)));
  }
}

function signalStop(signal: AbortSignal): StopReason {
  return { kind: "signal", signal: String(signal.reason) };
}

/** The rows of `request` a rejection did not name. */
function unnamed(request: PortRequest, named: ReadonlyMap<string, string>): PortRequest["numbers"] {
  return request.numbers.filter((row) => !named.has(row.number));
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
  return new PortinError("E_STATE", journalWords.cannotWriteJournal(String(error)), { cause: error });

}
