/** The sandbox's GET /Holidays: Canada's federal statutory holidays of its years (docs/contract.md §1.1). */
import { describe, expect, it } from "vitest";
import { canadianHolidays } from "../../src/sandbox/holidays.js";
import { startSandbox } from "../../src/sandbox/server.js";

describe("the sandbox's holidays", () => {
  it("lists 2026's federal statutory holidays, with Boxing Day on a Saturday observed the Monday after", () => {
    expect(canadianHolidays(2026)).toEqual([
      { Date: "2026-01-01T00:00:00", Name: "New Year's Day" },
      { Date: "2026-04-03T00:00:00", Name: "Good Friday" },
      { Date: "2026-04-06T00:00:00", Name: "Easter Monday" },
      { Date: "2026-05-18T00:00:00", Name: "Victoria Day" },
      { Date: "2026-07-01T00:00:00", Name: "Canada Day" },
      { Date: "2026-09-07T00:00:00", Name: "Labour Day" },
      { Date: "2026-09-30T00:00:00", Name: "National Day for Truth and Reconciliation" },
      { Date: "2026-10-12T00:00:00", Name: "Thanksgiving Day" },
      { Date: "2026-11-11T00:00:00", Name: "Remembrance Day" },
      { Date: "2026-12-25T00:00:00", Name: "Christmas Day" },
      { Date: "2026-12-26T00:00:00", Name: "Boxing Day" },
      { Date: "2026-12-28T00:00:00", Name: "Boxing Day (observed)" },
    ]);
  });

  it("observes a weekend Christmas and Boxing Day on the next two weekdays (2027), and finds Easter in March (2024)", () => {
    const days2027 = canadianHolidays(2027).map((h) => `${h.Date.slice(0, 10)} ${h.Name}`);
    expect(days2027).toEqual(expect.arrayContaining(["2027-12-27 Christmas Day (observed)", "2027-12-28 Boxing Day (observed)"]));
    expect(canadianHolidays(2024).filter((h) => h.Name === "Good Friday")).toEqual([{ Date: "2024-03-29T00:00:00", Name: "Good Friday" }]);
  });

  it("serves the holidays of its start year through two years after its today, with credentials", async () => {
    const sandbox = await startSandbox({ startDate: "2030-12-01" });
    try {
      const auth = { Authorization: `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}` };
      const res = await fetch(`${sandbox.url}/Holidays`, { headers: auth });
      expect(res.status).toBe(200);
      const days = (await res.json()) as { Date: string; Name: string }[];
      expect(days[0]).toEqual({ Date: "2030-01-01T00:00:00", Name: "New Year's Day" });
      expect(days.at(-1)?.Date.slice(0, 4)).toBe("2032");
      expect(days).toContainEqual({ Date: "2030-12-25T00:00:00", Name: "Christmas Day" });
      expect((await fetch(`${sandbox.url}/Holidays`)).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});
