import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cellError, cellText, dateText, isDateFormat, isMangledNumber, numberText, numberValue, UNCALCULATED } from "../../src/input/cell-text.js";

describe("numberText", () => {
  it("writes integers in full, never with .0 or an exponent", () => {
    expect([4165550101, 300451, 0, -17, 2 ** 64].map(numberText)).toEqual(["4165550101", "300451", "0", "-17", "18446744073709551616"]);
    // Either side of V8's small integers, and a high half with a low half of zeros.
    expect([2 ** 31 - 1, 2 ** 31, -(2 ** 31), -4165550101, 100_000_000_000, 4_100_000_007].map(numberText)).toEqual(["2147483647", "2147483648", "-2147483648", "-4165550101", "100000000000", "4100000007"]);
  });

  it("writes other numbers as the value the file stores", () => {
    expect([12.5, 0.1, 1e-7].map(numberText)).toEqual(["12.5", "0.1", "1e-7"]);
  });

  it("writes every integer a double holds exactly, past 2^53 too, where the shortest form would end in zeros", () => {
    expect(numberText(1405279210209732864)).toBe("1405279210209732864");
    const exact = (value: number): string => (Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value));
    fc.assert(fc.property(fc.oneof(fc.double(), fc.maxSafeInteger(), fc.integer()), (value) => numberText(value) === exact(value)));
  });
});

describe("dateText", () => {
  it("gives a whole day as YYYY-MM-DD, a time alone as HH:MM, and both together", () => {
    expect(dateText(new Date("2026-12-08T00:00:00Z"))).toBe("2026-12-08");
    expect(dateText(new Date("1899-12-30T09:30:00Z"))).toBe("09:30");
    expect(dateText(new Date("1899-12-30T09:30:15Z"))).toBe("09:30:15");
    expect(dateText(new Date("2026-12-08T17:45:00Z"))).toBe("2026-12-08 17:45");
  });

  it("rounds away the millisecond Excel's day fractions leave", () => {
    expect(dateText(new Date("2026-12-08T09:29:59.9996Z"))).toBe("2026-12-08 09:30");
  });

  it("takes day 0 of the 1904 date system as a time alone", () => {
    expect(dateText(new Date("1904-01-01T08:00:00Z"), true)).toBe("08:00");
  });
});

describe("isMangledNumber", () => {
  it("recognizes Excel's General-format scientific notation", () => {
    expect(["4.16556E+09", "4.16556e+09", "1E+11", " 7.74122E+11 ", "-1.5E-05"].map(isMangledNumber)).toEqual([true, true, true, true, true]);
  });

  it("leaves other text alone", () => {
    expect(["4165550101", "1E5", "Unit 4E", "E+09", "4.1E+9x", "2E+1234"].map(isMangledNumber)).toEqual([false, false, false, false, false, false]);
  });
});

describe("isDateFormat", () => {
  it("tells date and time formats from number formats", () => {
    expect(["yyyy-mm-dd", "d/m/yyyy h:mm", "h:mm AM/PM", "[$-409]mmm d", "0.00", "General", '"m"0', "[Red]0", "@"].map(isDateFormat)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("cellText", () => {
  it("reads each kind of value", () => {
    expect(cellText(undefined, false)).toBe("");
    expect(cellText("Acme", false)).toBe("Acme");
    expect(cellText(4165550101, false)).toBe("4165550101");
    expect(cellText(true, false)).toBe("TRUE");
    expect(cellText(new Date("2026-12-08T00:00:00Z"), false)).toBe("2026-12-08");
  });

  it("reads a number as a date where its format shows one", () => {
    expect(cellText(numberValue(46364, "yyyy-mm-dd", false), false)).toBe("2026-12-08");
    expect(cellText(numberValue(46364, "0.00", false), false)).toBe("46364");
    expect(cellText(numberValue(44902, "yyyy-mm-dd", true), true)).toBe("2026-12-08");
  });

  it("says why a cell cannot be used", () => {
    expect(cellText(cellError("#N/A"), false)).toEqual({ text: "#N/A", problem: "holds #N/A, an error in the source sheet: fix the formula or the value" });
    expect(cellText(UNCALCULATED, false)).toMatchObject({ text: "", problem: expect.stringContaining("without a saved result") as string });
    expect(cellText(Number.NaN, false)).toEqual({ text: "", problem: "holds no number Excel can store" });
    expect(cellText("4.16556E+09", false)).toMatchObject({ text: "4.16556E+09", problem: expect.stringContaining("format the column as Text") as string });
  });
});
