import { describe, expect, it } from "vitest";
import { businessDaysBetween, changesSince } from "../../src/journal/history.js";
import { reading } from "../report/journal-fixture.js";

const A = ["4165550101", "4165550102"];
const B = ["5145550101"];
const C = ["6045550160"];
const D = ["6045550161"];

describe("what changed since the last check", () => {
  const readings = [
    reading("PI-1", A, "SUBMITTED", "2026-03-02T06:00:00.000Z"),
    reading("PI-2", B, "SUBMITTED", "2026-03-02T06:00:00.000Z"),
    reading("PI-3", C, "CONFIRMED", "2026-03-02T06:00:00.000Z", { portDate: "2026-03-05" }),
    reading("PI-4", D, "SUBMITTED", "2026-03-02T06:00:00.000Z"),
    reading("PI-1", A, "CONFIRMED", "2026-03-09T06:00:00.000Z", { portDate: "2026-03-11" }),
    reading("PI-2", B, "REJECTED", "2026-03-09T06:00:01.000Z", { reason: "name does not match" }),
    reading("PI-3", C, "COMPLETED", "2026-03-09T06:00:02.000Z", { portDate: "2026-03-05" }),
    reading("PI-4", D, "SUBMITTED", "2026-03-09T06:00:03.000Z"),
  ];
  const changes = changesSince(readings, "2026-03-09T06:00:00.000Z", new Date("2026-03-09T06:01:00.000Z"));

  it("lists numbers newly CONFIRMED with their port dates, COMPLETED, REJECTED with the reason", () => {
    expect(changes.previousCheck).toBe("2026-03-02T06:00:00.000Z");
    expect(changes.confirmed).toEqual(A.map((number) => ({ number, ticket: "PI-1", portDate: "2026-03-11", reason: "" })));
    expect(changes.completed.map((c) => c.number)).toEqual(C);
    expect(changes.rejected).toEqual([{ number: B[0], ticket: "PI-2", portDate: "", reason: "name does not match" }]);
  });

  it("lists an order whose status has not moved for more than --silent-after business days as silent, five by default", () => {
    expect(changes.silent).toEqual([]);
    const sooner = changesSince(readings, "2026-03-09T06:00:00.000Z", new Date("2026-03-09T06:01:00.000Z"), 3);
    expect(sooner.silent).toEqual([{ ticket: "PI-4", status: "SUBMITTED", since: "2026-03-02T06:00:00.000Z", businessDays: 5, numbers: 1 }]);
  });

  it("never calls a CONFIRMED order waiting for its port date silent, and calls one whose date passed without a change silent", () => {
    const waiting = [reading("PI-5", A, "CONFIRMED", "2026-03-02T06:00:00.000Z", { portDate: "2026-04-30" }), reading("PI-5", A, "CONFIRMED", "2026-03-16T06:00:00.000Z", { portDate: "2026-04-30" })];
    expect(changesSince(waiting, "2026-03-16T00:00:00.000Z", new Date("2026-03-16T06:01:00.000Z")).silent).toEqual([]);
    const passed = [reading("PI-6", A, "CONFIRMED", "2026-03-02T06:00:00.000Z", { portDate: "2026-03-04" }), reading("PI-6", A, "CONFIRMED", "2026-03-16T06:00:00.000Z", { portDate: "2026-03-04" })];
    expect(changesSince(passed, "2026-03-16T00:00:00.000Z", new Date("2026-03-16T06:01:00.000Z")).silent).toEqual([
      { ticket: "PI-6", status: "CONFIRMED", since: "2026-03-02T06:00:00.000Z", businessDays: 10, numbers: 2 },
    ]);
  });

  it("lists nothing for an order read the same twice, and nothing silent after two business days", () => {
    const again = changesSince(readings.slice(0, 4).concat(reading("PI-4", D, "SUBMITTED", "2026-03-04T06:00:00.000Z")), "2026-03-04T00:00:00.000Z", new Date("2026-03-04T06:00:00.000Z"));
    expect(again).toMatchObject({ confirmed: [], completed: [], rejected: [], silent: [] });
  });

  it("counts weekdays only", () => {
    expect(businessDaysBetween(new Date("2026-03-06T12:00:00Z"), new Date("2026-03-09T12:00:00Z"))).toBe(1);
    expect(businessDaysBetween(new Date("2026-03-02T12:00:00Z"), new Date("2026-03-09T12:00:00Z"))).toBe(5);
  });
});
