/**
 * The block verdict nanp.ts caches (nanp-blocks.ts, libphonenumber-js's decision on the +1
 * countries of its metadata with each pattern compiled once) must be the library's own call on
 * its full metadata (its default entry), exactly: walked
 * here over every block a number can reach it with, NPA 200-999 x NXX 200-999 (an area code
 * or exchange starting 0 or 1 is refused before any verdict is asked). The library's own call
 * is the cost (~40 us a block): `npm test` walks every eighth area code, from a fixed start,
 * and `npm run fuzz` (8 times the runs or more) walks every block.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { createBlockVerdict } from "../../src/validate/nanp-blocks.js";
import { nanpReader, parseNanp } from "../../src/validate/nanp.js";
import { FUZZ_SEED, fuzzParams } from "./settings.js";

/** Every STRIDE-th area code, from an offset the seed picks: 8 in `npm test`, 1 under `npm run fuzz`. */
const STRIDE = Math.max(1, Math.round(8 / fuzzParams(1, 0).numRuns));
const OFFSET = FUZZ_SEED % STRIDE;

/** How the walk writes block i's number: the writings parseNanp reads, in turn. */
const WRITINGS: readonly ((a: string, b: string, c: string) => string)[] = [
  (a, b, c) => `${a}${b}${c}`,
  (a, b, c) => `${a}-${b}-${c}`,
  (a, b, c) => `+1 (${a}) ${b}-${c}`,
  (a, b, c) => `1.${a}.${b}.${c}`,
];

/** Subscriber numbers: the first and last of a block, then others spread over it, so no single line stands for all. */
function lineOf(i: number): string {
  if (i % 7 === 0) return "0000";
  if (i % 7 === 1) return "9999";
  return String((i * 7919) % 10_000).padStart(4, "0");
}

describe("the NPA-NXX block verdict", () => {
  it("reads libphonenumber-js's metadata, rather than falling back to calling the library per block", () => {
    expect(createBlockVerdict()).toBeTypeOf("function");
  });

  // A hundred area codes a test (80,000 library calls, ~3 s on a quiet core, when every one is
  // walked): each well inside the time limit beside a busy CPU, where the whole walk in one test was not.
  const HUNDREDS = [200, 300, 400, 500, 600, 700, 800, 900].map((first) => [first, first + 99] as const);
  it.each(HUNDREDS)(
    "gives every block NPA %i-%i x NXX 200-999 the result libphonenumber-js's own call gives: valid or not, the reason, the kind and the digits",
    (first, last) => {
      const byLibrary = nanpReader((digits) => {
        const parsed = parsePhoneNumberFromString(`+1${digits}`);
        return parsed !== undefined && parsed.countryCallingCode === "1" && parsed.isValid();
      });
      const differ: string[] = [];
      const verdicts = new Set<boolean>();
      for (let npa = first + OFFSET; npa <= last; npa += STRIDE) {
        for (let nxx = 200; nxx <= 999; nxx++) {
          const i = (npa - 200) * 800 + (nxx - 200);
          const text = (WRITINGS[i % WRITINGS.length] ?? String)(String(npa), String(nxx), lineOf(i));
          const mine = parseNanp(text);
          const theirs = byLibrary(text);
          verdicts.add(mine.ok);
          if (JSON.stringify(mine) !== JSON.stringify(theirs)) differ.push(`${text}: ${JSON.stringify(mine)} but the library: ${JSON.stringify(theirs)}`);
        }
      }
      expect(differ.slice(0, 10)).toEqual([]);
      // Every hundred has blocks in service and blocks not, or the walk says nothing of one verdict.
      expect([...verdicts].sort()).toEqual([false, true]);
    },
  );
});
