/**
 * Asking PortInStatus about many orders (docs/contract.md §1.4, §5): at most `concurrency`
 * questions in flight, one question per order where the answer's NumbersToPort can settle
 * the order's other numbers, and a circuit breaker counting failed attempts, so that a service
 * whose PortInStatus is down costs a few requests and seconds, not a round of retries per number.
 */
import PQueue from "p-queue";
import * as outcomes from "../messages/outcomes.js";
import { portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import { AuthError } from "../errors.js";
import type { AttemptWatch } from "../service/client.js";

/** What one question learned; `at` is when the answer came (UTC ISO), "" for a question never asked. */
export type Asked =
  | { readonly kind: "found"; readonly status: PortInStatus; readonly at: string }
  /** 404: no such port-in (by number) or no such ticket. */
  | { readonly kind: "missing"; readonly at: string }
  /** The question failed after its retries, or was never asked (breaker open, interrupted). */
  | { readonly kind: "failed"; readonly reason: string; readonly at: string };

/**
 * Failed attempts in a row, across every question (each HTTP request, got's retries included),
 * after which the breaker opens: the questions in flight try no more and the rest are not
 * asked. Counting attempts, not questions (each of which got would retry with backoff for
 * ~31 s), lets a PortInStatus answering 500 settle 300 numbers in seconds; eight in a row is
 * two rounds at --concurrency 4, and a service failing a third of its answers at random
 * reaches it about once in 15,000 attempts (docs/contract.md §5).
 */
export const BREAK_AFTER_FAILURES = 8;

/**
 * Slow failures (timeouts): four attempts in a row suffice once no question has been answered
 * for this long, so that a PortInStatus that never answers costs one --timeout, not two.
 */
export const SLOW_BREAK_AFTER_FAILURES = 4;
export const SLOW_BREAK_AFTER_MS = 20_000;

/**
 * Longest wait before a question's next attempt: a longer backoff or Retry-After is cut to it.
 * With the default 5 retries a question that never gets an answer costs 1 + 2 + 2 + 2 + 2 s,
 * and a run whose only question is one order's under 15 s (docs/contract.md §5).
 */
export const RETRY_WAIT_LIMIT_MS = 2_000;

export const UNAVAILABLE = outcomes.UNAVAILABLE;

export interface AskerOptions {
  readonly concurrency: number;
  readonly signal: AbortSignal;
  readonly breakAfter?: number;
}

/**
 * Runs questions with bounded concurrency and one breaker across every batch it is given: a
 * run makes one, so that a PortInStatus found down by the account check is not found down
 * again, question by question, by the checks after it (docs/contract.md §5).
 * Throws AuthError, once the questions in flight are done, when the credentials were refused.
 */
export class StatusAsker {
  /**
   * PortInStatus requests made: every attempt of every question, got's retries included,
   * counted as each is sent (the client's AttemptWatch `sent`), so that the summary says what
   * the service received (docs/contract.md §7), not how many questions were asked.
   */
  requests = 0;
  /** Failed attempts in a row, across questions; an answer resets it. */
  private failures = 0;
  /** When a question was last answered, or the first one asked. */
  private answeredAt: number | null = null;
  private open = false;
  private readonly breakAfter: number;

  constructor(private readonly options: AskerOptions) {
    this.breakAfter = options.breakAfter ?? BREAK_AFTER_FAILURES;
  }

  /** True once enough questions in a row failed that the rest are not asked. */
  get broken(): boolean {
    return this.open;
  }

  /**
   * Asks `ask(key)` for each key, unless `settled(key)` says an earlier answer already covers
   * it (checked just before the question would leave). Keys never asked are `failed`.
   */
  async run<K>(keys: Iterable<K>, ask: (key: K, watch: AttemptWatch) => Promise<PortInStatus | null>, settled: (key: K) => boolean = () => false): Promise<Map<K, Asked>> {
    const answers = new Map<K, Asked>();
    // One asker serves a run's every batch: the time between batches without a failure is no silence.
    if (this.failures === 0) this.answeredAt = null;
    // Once a question ends while attempts are failing, one question at a time: a service coming
    // back is found as soon (an answer resets `failures`, and the width with it), and a down one
    // costs fewer requests.
    const width = (): number => (this.failures > 0 ? 1 : this.options.concurrency);
    const queue = new PQueue({ concurrency: width() });
    const refusals: AuthError[] = [];
    const all: K[] = [];

    const one = async (key: K): Promise<void> => {
      if (this.open || this.options.signal.aborted || refusals.length > 0 || settled(key)) return;
      this.answeredAt ??= Date.now();
      try {
        const status = await this.watched((watch) => ask(key, watch), "status");
        const at = new Date().toISOString();
        answers.set(key, status === null ? { kind: "missing", at } : { kind: "found", status, at });
      } catch (error) {
        if (error instanceof AuthError) refusals.push(error);
        answers.set(key, { kind: "failed", reason: error instanceof Error ? error.message : String(error), at: new Date().toISOString() });
      }
      queue.concurrency = width();
    };

    for (const key of keys) {
      all.push(key);
      // One question waits for a slot at most, so that the checks below stay current.
      await queue.onSizeLessThan(1);
      if (this.open || this.options.signal.aborted || refusals.length > 0) continue;
      void queue.add(() => one(key));
    }
    await queue.onIdle();
    const [refused] = refusals;
    if (refused) throw refused;

    const why = this.options.signal.aborted ? outcomes.notCheckedInterrupted(String(this.options.signal.reason)) : this.open ? UNAVAILABLE : outcomes.NOT_CHECKED;

    for (const key of all) if (!answers.has(key) && !settled(key)) answers.set(key, { kind: "failed", reason: why, at: "" });
    return answers;
  }

  /**
   * One request under the breaker: each failed attempt counts, no retry waits longer than
   * RETRY_WAIT_LIMIT_MS, none is made once the breaker is open, and an answer resets the count.
   * For the questions `run` asks, and for the account's order list read before them, which
   * the same service answers (account-orders.ts): only a `status` question's attempts count
   * as PortInStatus requests.
   */
  async watched<T>(ask: (watch: AttemptWatch) => Promise<T>, what: "status" | "list" = "list"): Promise<T> {
    this.answeredAt ??= Date.now();
    let told = false;
    const watch: AttemptWatch = {
      sent: () => {
        if (what === "status") this.requests += 1;
      },
      failed: (waitMs) => {
        told = true;
        this.failedAttempt();
        return this.open || this.options.signal.aborted ? 0 : Math.min(waitMs, RETRY_WAIT_LIMIT_MS);
      },
    };
    try {
      const answer = await ask(watch);
      this.failures = 0;
      this.answeredAt = Date.now();
      return answer;
    } catch (error) {
      // A failure no attempt told of (an answer that is not what was asked for) is one failed attempt.
      if (!told && !(error instanceof AuthError)) this.failedAttempt();
      throw error;
    }
  }

  private failedAttempt(): void {
    this.failures += 1;
    const silentMs = Date.now() - (this.answeredAt ?? Date.now());
    if (this.failures >= this.breakAfter || (this.failures >= Math.min(SLOW_BREAK_AFTER_FAILURES, this.breakAfter) && silentMs >= SLOW_BREAK_AFTER_MS)) this.open = true;
  }
}

/**
 * Asks PortInStatus by number about groups of numbers, each group the numbers of one request
 * (docs/contract.md §5): first one number per group, whose answer's NumbersToPort settles
 * every number of a live or completed order it lists; then each number no answer covered.
 * An ended order's list settles nothing: a number in it may have a newer order of its own.
 */
export async function askByNumber(
  groups: Iterable<readonly string[]>,
  asker: StatusAsker,
  portInStatus: (tenDigits: string, watch: AttemptWatch) => Promise<PortInStatus | null>,
): Promise<Map<string, Asked>> {
  const answers = new Map<string, Asked>();
  const covered = new Map<string, Asked>();
  const cover = (asked: ReadonlyMap<string, Asked>): void => {
    for (const [number, answer] of asked) {
      answers.set(number, answer);
      if (answer.kind !== "found" || portInPhase(answer.status.status) === "ended") continue;
      for (const other of answer.status.numbersToPort) if (!covered.has(other)) covered.set(other, answer);
    }
  };
  const lists = [...groups].filter((group) => group.length > 0);
  cover(await asker.run(lists.map((group) => group[0] as string), portInStatus));
  const rest = lists.flatMap((group) => group.slice(1));
  cover(await asker.run(rest, portInStatus, (number) => covered.has(number)));
  for (const list of lists) {
    for (const number of list) {
      const answer = answers.get(number);
      const cover = covered.get(number);
      // A number the order's list covers takes that answer, unless it was asked itself and found.
      if (cover !== undefined && answer?.kind !== "found") answers.set(number, cover);
    }
  }
  return answers;
}
