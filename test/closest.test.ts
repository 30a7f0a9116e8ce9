import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestNames, distance } from "../src/closest.js";

/** The textbook table, whole: what distance() must equal. */
function tableDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = table[i] as number[];
      const up = table[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return (table[a.length] as number[])[b.length] as number;
}

describe("distance", () => {
  it("counts the edits from one name to another, as the whole table does", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), fc.string({ maxLength: 24 }), (a, b) => {
        expect(distance(a, b)).toBe(tableDistance(a, b));
      }),
      { numRuns: 500 },
    );
    expect(distance("retry-unknwon", "retry-unknown")).toBe(2);
    expect(distance("", "abc")).toBe(3);
    expect(distance("kitten", "sitting")).toBe(3);
  });

  it("names the first of the nearest candidates, as sorting every candidate by its distance does", () => {
    const sorted = (name: string, candidates: readonly string[]): string[] =>
      candidates
        .map((candidate, at) => ({ candidate, at, score: distance(name.toLowerCase(), candidate.toLowerCase()) }))
        .sort((x, y) => x.score - y.score || x.at - y.at)
        .slice(0, 1)
        .map((scored) => scored.candidate);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 16 }), { maxLength: 30 }), (name, candidates) => {
        expect(closestNames(name, candidates)).toEqual(sorted(name, candidates));
      }),
      { numRuns: 500 },
    );
  });

  it("names the nearest candidates first, ties in candidate order", () => {
    expect(closestNames("Pilot Nmber", ["pilot_number", "number", "Pilot Number"], 2)).toEqual(["Pilot Number", "pilot_number"]);
  });
});
