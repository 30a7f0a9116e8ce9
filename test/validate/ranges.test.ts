import { describe, expect, it } from "vitest";
import { readRange } from "../../src/validate/ranges.js";

const numbersOf = (text: string): readonly string[] | null => {
  const reading = readRange(text);
  return reading?.kind === "range" ? reading.numbers : null;
};

describe("readRange", () => {
  it.each([
    ["416-555-3720 - 3722"],
    ["416-555-3720 – 3722"],
    ["416-555-3720 to 416-555-3722"],
    ["416-555-3720 à 3722"],
    ["416-555-3720 À 416-555-3722"],
    ["4165553720à22"],
  ])("reads %s as the numbers from the first to the last", (text) => {
    expect(numbersOf(text)).toEqual(["4165553720", "4165553721", "4165553722"]);
  });

  it("takes no à inside a word as the range's join", () => {
    expect(readRange("416-555-3720 voilà 3722")).toBeNull();
    expect(readRange("416-555-3720 àla 3722")).toBeNull();
  });
});
