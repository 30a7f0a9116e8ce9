/**
 * How long the fuzz tests run. `npm test` runs each property a bounded number of times from
 * a fixed seed, so that CI is repeatable and fast (all fuzz tests in about 20 s on two
 * cores); `npm run fuzz` (vitest.fuzz.config.ts) provides a random seed, printed at the
 * start, and many times the runs. A failure prints fast-check's seed and path to replay it.
 */
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by `npm run fuzz` only. */
    fuzz?: { readonly seed: number; readonly factor: number };
  }
}

/** The seed of `npm test`'s runs: any fixed number; this one is the day the fuzz tests were written. */
export const FIXED_SEED = 20_261_122;

const provided = inject("fuzz");

export const FUZZ_SEED = provided?.seed ?? FIXED_SEED;

/** fast-check parameters for a property run `runs` times in `npm test`. */
export function fuzzParams(runs: number, timeoutMs: number): { seed: number; numRuns: number; timeout: number; endOnFailure: true } {
  return { seed: FUZZ_SEED, numRuns: runs * (provided?.factor ?? 1), timeout: timeoutMs, endOnFailure: true };
}

/** A vitest time limit for a property: its runs at their own limit, and room to shrink a failure. */
export function testTimeout(runs: number, perRunMs: number): number {
  return runs * (provided?.factor ?? 1) * perRunMs + 60_000;
}
