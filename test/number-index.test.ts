/**
 * The one hash table of telephone numbers (src/number-index.ts), and the two stores that keep
 * their own arrays beside it: the numbers a sheet's rows took (validate/taken.ts) and each
 * number's state from earlier runs (journal/number-states.ts), each past several growths.
 */
import { describe, expect, it } from "vitest";
import { NumberIndex } from "../src/number-index.js";
import { TakenNumbers } from "../src/validate/taken.js";

/** 5,000 numbers of one NPA-NXX block after another, and a few across area codes: the shapes a sheet holds. */
const NUMBERS = [
  ...Array.from({ length: 5000 }, (_, i) => 4165550000 + i),
  ...Array.from({ length: 300 }, (_, i) => 2002000000 + i * 33_331_111),
  9999999999,
];

describe("the table of telephone numbers", () => {
  it("gives each number the next entry when first added, the same one ever after, and finds none it was not given", () => {
    const index = new NumberIndex();
    for (const [at, number] of NUMBERS.entries()) expect(index.add(number)).toBe(at);
    expect(index.entries).toBe(NUMBERS.length);
    for (const [at, number] of NUMBERS.entries()) {
      expect(index.find(number)).toBe(at);
      expect(index.add(number)).toBe(at);
      expect(index.keyAt(at)).toBe(number);
    }
    expect(index.entries).toBe(NUMBERS.length);
    expect(index.find(4165555000)).toBe(-1);
    expect(index.find(2002000001)).toBe(-1);
  });

  it("answers a later row with the row that took its number first, across growths", () => {
    const taken = new TakenNumbers();
    for (const [at, number] of NUMBERS.entries()) expect(taken.take(String(number), { line: at + 2, index: at, targetHash: at * 7, formHash: 1000 - at })).toBeNull();
    for (const [at, number] of NUMBERS.entries()) {
      expect(taken.take(String(number), { line: 1, index: 1, targetHash: 1, formHash: 1 })).toEqual({ line: at + 2, index: at, targetHash: at * 7, formHash: 1000 - at });
    }
  });
});
