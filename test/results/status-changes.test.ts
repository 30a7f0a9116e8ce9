import { describe, expect, it } from "vitest";
import { formatChanges } from "../../src/results/status-changes.js";

describe("the changes lines of portin status", () => {
  it("lists confirmed numbers with their port dates, completed ones, rejected ones once per order with its reason, and silent orders", () => {
    const confirmed = Array.from({ length: 12 }, (_, i) => ({ number: `41655502${String(i).padStart(2, "0")}`, ticket: "PI-1", portDate: "2026-03-05", reason: "" }));
    const text = formatChanges({
      previousCheck: "2026-03-02T06:00:00.000Z",
      confirmed,
      completed: [{ number: "4165550300", ticket: "PI-2", portDate: "2026-03-04", reason: "" }],
      rejected: [
        { number: "5145550101", ticket: "PI-3", portDate: "", reason: "Postal code does not match" },
        { number: "5145550102", ticket: "PI-3", portDate: "", reason: "Postal code does not match" },
      ],
      silent: [{ ticket: "PI-4", status: "SUBMITTED", since: "2026-02-24T06:00:00.000Z", businessDays: 6, numbers: 2 }],
    });
    expect(text?.split("\n")).toEqual([
      "portin status: changes since the last check (2026-03-02T06:00:00.000Z):",
      `  12 newly CONFIRMED: ${confirmed.slice(0, 10).map((c) => `${c.number} for 2026-03-05`).join(", ")}, and 2 more`,
      "  1 newly COMPLETED: 4165550300",
      "  2 newly REJECTED: PI-3 (5145550101, 5145550102): Postal code does not match",
      "  silent: PI-4 (2 numbers) SUBMITTED since 2026-02-24, 6 business days with no change: ask the service or the losing carrier",
    ]);
  });

  it("says nothing changed since the last check, and nothing at all on a first check that found nothing moved", () => {
    const nothing = { confirmed: [], completed: [], rejected: [], silent: [] };
    expect(formatChanges({ previousCheck: "2026-03-02T06:00:00.000Z", ...nothing })).toBe("portin status: changes since the last check (2026-03-02T06:00:00.000Z):\n  nothing changed");
    expect(formatChanges({ previousCheck: null, ...nothing })).toBeNull();
  });

  it("names ten rejected numbers in all, order by order, and counts the numbers and orders past them", () => {
    const rejected = Array.from({ length: 30 }, (_, i) => ({ number: `41655520${String(i).padStart(2, "0")}`, ticket: `PI-${String(Math.floor(i / 4) + 1).padStart(6, "0")}`, portDate: "", reason: "Name does not match" }));
    const text = formatChanges({ previousCheck: "2026-03-02T06:00:00.000Z", confirmed: [], completed: [], rejected, silent: [] });
    expect(text?.split("\n")[1]).toBe(
      "  30 newly REJECTED: PI-000001 (4165552000, 4165552001, 4165552002, 4165552003): Name does not match; PI-000002 (4165552004, 4165552005, 4165552006, 4165552007): Name does not match; PI-000003 (4165552008, 4165552009, and 2 more): Name does not match; and 18 more numbers in 5 more orders",
    );
  });
});
