/**
 * mulberry32: a tiny seeded PRNG. The sandbox needs repeatable faults (same seed, same
 * request order, same statuses), not cryptographic quality.
 */
export type Random = () => number;

/** Returns a generator of floats in [0, 1) determined by `seed` (taken as a 32-bit integer). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for runs that did not ask for one. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}
