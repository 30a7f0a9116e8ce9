import { describe, expect, it } from "vitest";
import { sheetColumnsOf } from "../../src/report/sheet-columns.js";

describe("the report's sheet facts, held column-wise", () => {
  it("gives back every row's facts as written, past the columns' first growth, a shared text once", () => {
    const count = 3000;
    const columns = sheetColumnsOf(
      Array.from({ length: count }, (_, i) => ({
        line: i + 2,
        numberCell: `416-555-${String(i).padStart(4, "0")}`,
        customer: i % 2 === 0 ? "Maple" : "Dubois",
        window: i % 3 === 0 ? "09:30" : "",
        onTrunk: i % 5 === 0,
        account: `A-${i}`,
        ...(i % 7 === 0 ? { provider: "Bell" } : {}),
        requestedDate: i === count - 1 ? "2026-03-06" : "",
      })),
    );
    expect(columns.length).toBe(count);
    for (const i of [0, 1, 1023, 1024, 2047, 2048, count - 1]) {
      expect([columns.line(i), columns.numberCells[i], columns.customer(i), columns.window(i), columns.onTrunk(i), columns.account(i), columns.provider(i)]).toEqual([
        i + 2,
        `416-555-${String(i).padStart(4, "0")}`,
        i % 2 === 0 ? "Maple" : "Dubois",
        i % 3 === 0 ? "09:30" : "",
        i % 5 === 0,
        `A-${i}`,
        i % 7 === 0 ? "Bell" : "",
      ]);
    }
    expect(columns.requestedDate(count - 1)).toBe("2026-03-06");
    expect(columns.requestedDate(0)).toBe("");
  });
});
