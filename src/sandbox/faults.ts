/**
 * Fault injection for the sandbox's port-in POSTs: throttling (429) and server errors (500),
 * drawn from a seeded PRNG so that a run can be replayed.
 */
import { mulberry32, randomSeed } from "./prng.js";

/**
 * - `throttle`: 429 with Retry-After, nothing accepted.
 * - `fail-before`: 500 before the request is looked at, nothing accepted.
 * - `fail-after`: the request is handled as usual (a valid one is accepted and recorded),
 *   and the answer is then replaced by a 500. This is the real danger docs/contract.md §4 guards
 *   against: a 500 does not prove the service did nothing, so portin must call the outcome
 *   `unknown` and never resend it on its own.
 */
export type Fault = "throttle" | "fail-before" | "fail-after";

export interface FaultRates {
  /** Share of POSTs answered 429, 0..1. */
  readonly throttleRate: number;
  /** Share of POSTs answered 500, 0..1; half of these after accepting the request. */
  readonly failRate: number;
}

/** Seconds a throttled client is told to wait. */
export const THROTTLE_RETRY_AFTER_SECONDS = 1;

export class FaultInjector {
  readonly seed: number;
  private readonly random: () => number;

  constructor(
    private rates: FaultRates,
    seed: number = randomSeed(),
  ) {
    this.seed = seed;
    this.random = mulberry32(seed);
  }

  /** Changes the rates from the next POST on; the PRNG's sequence goes on where it was. */
  setRates(rates: FaultRates): void {
    this.rates = { ...rates };
  }

  /**
   * The fault for the next POST, or null. Two draws per POST whatever the outcome, so that
   * a request's fault depends only on its position in the sequence.
   */
  next(): Fault | null {
    const which = this.random();
    const when = this.random();
    const { throttleRate, failRate } = this.rates;
    if (which < throttleRate) return "throttle";
    if (which < throttleRate + failRate) return when < 0.5 ? "fail-before" : "fail-after";
    return null;
  }
}
