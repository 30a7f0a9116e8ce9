/** A1 references (input/cell-ref.ts): a column's letters and back, as a workbook's cells are named. */
import { describe, expect, it } from "vitest";
import { columnLetters, columnNumber } from "../../src/input/cell-ref.js";

describe("cell references", () => {
  it("read every column of a worksheet back from the letters it is named by, in either case", () => {
    for (let column = 1; column <= 16_384; column++) {
      const letters = columnLetters(column);
      expect(columnNumber(`${letters}12`)).toBe(column);
      expect(columnNumber(letters.toLowerCase())).toBe(column);
    }
    expect(columnLetters(16_384)).toBe("XFD");
  });

  it("read a reference without letters as no column", () => {
    expect(columnNumber("12")).toBe(0);
    expect(columnNumber("")).toBe(0);
  });
});
