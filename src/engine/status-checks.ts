/**
 * Asking PortInStatus about many orders (docs/contract.md §1.4, §5): at most `concurrency`
 * questions in flight, one question per order where the answer's NumbersToPort can settle
 * the order's other numbers, and a circuit breaker, so that a service whose PortInStatus is
 * down costs one round of retries, not one per number (5 numbers once took 63 s).
 */
import pLimit from "p-limit";
import { portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import { AuthError } from "../errors.js";

/** What one question learned; `at` is when the answer came (UTC ISO), "" for a question never asked. */
export type Asked =
  | { readonly kind: "found"; readonly status: PortInStatus; readonly at: string }
  /** 404: no such port-in (by number) or no such ticket. */
  | { readonly kind: "missing"; readonly at: string }
  /** The question failed after its retries, or was never asked (breaker open, interrupted). */
  | { readonly kind: "failed"; readonly reason: string; readonly at: string };

/**
 * Consecutive failed questions (each after its own retries) after which the rest are not
 * asked: three in a row, with --concurrency 4 in flight, is one round of backoff (~31 s).
 */
export const BREAK_AFTER_FAILURES = 3;

export const UNAVAILABLE = "not checked: PortInStatus unavailable";

export interface AskerOptions {
  readonly concurrency: number;
  readonly signal: AbortSignal;
  readonly breakAfter?: number;
}

/**
 * Runs questions with bounded concurrency and one breaker across every batch it is given.
 * Throws AuthError, once the questions in flight are done, when the credentials were refused.
 */
export class StatusAsker {
  /** Questions actually sent (each may be several HTTP requests with its retries). */
  asked = 0;
  private failures = 0;
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
  async run<K>(keys: Iterable<K>, ask: (key: K) => Promise<PortInStatus | null>, settled: (key: K) => boolean = () => false): Promise<Map<K, Asked>> {
    const answers = new Map<K, Asked>();
    const limit = pLimit(this.options.concurrency);
    const inFlight = new Set<Promise<void>>();
    const refusals: AuthError[] = [];
    const all: K[] = [];

    const one = async (key: K): Promise<void> => {
      if (this.open || this.options.signal.aborted || refusals.length > 0 || settled(key)) return;
      this.asked += 1;
      try {
        const status = await ask(key);
        this.failures = 0;
        const at = new Date().toISOString();
        answers.set(key, status === null ? { kind: "missing", at } : { kind: "found", status, at });
      } catch (error) {
        if (error instanceof AuthError) refusals.push(error);
        this.failures += 1;
        if (this.failures >= this.breakAfter) this.open = true;
        answers.set(key, { kind: "failed", reason: error instanceof Error ? error.message : String(error), at: new Date().toISOString() });
      }
    };

    for (const key of keys) {
      all.push(key);
      // p-limit queues without bound: keep at most `concurrency` questions enqueued at once.
      // While questions are failing, let those in flight settle before asking another, one
      // at a time: otherwise each slot freed by a failure starts a question that costs a
      // whole round of retries more before the breaker can open.
      while (inFlight.size >= this.options.concurrency || (this.failures > 0 && inFlight.size > 0)) await Promise.race(inFlight);
      if (this.open || this.options.signal.aborted || refusals.length > 0) continue;
      const task: Promise<void> = limit(() => one(key)).finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    await Promise.all(inFlight);
    const [refused] = refusals;
    if (refused) throw refused;

    const why = this.options.signal.aborted ? `not checked: run interrupted by ${String(this.options.signal.reason)}` : this.open ? UNAVAILABLE : "not checked";
    for (const key of all) if (!answers.has(key) && !settled(key)) answers.set(key, { kind: "failed", reason: why, at: "" });
    return answers;
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
  portInStatus: (tenDigits: string) => Promise<PortInStatus | null>,
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
