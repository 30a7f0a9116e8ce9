import { describe, expect, it } from "vitest";
import { buildReport } from "../../src/report/model.js";
import type { SheetFacts } from "../../src/report/model.js";
import { reading, submitted } from "./journal-fixture.js";

const row = (line: number, numberCell: string, customer: string, window = ""): SheetFacts => ({ line, numberCell, customer, window });

const SHEET: SheetFacts[] = [
  row(2, "416-555-0101", "Maple", "09:30"),
  row(3, "416-555-0102", "Maple", "09:30"),
  row(4, "416-555-O103", "Maple"),
  row(5, "514-555-0101", "Dubois"),
  row(6, "514-555-0101", "Dubois"),
  row(7, "604-555-0160", "Pacific"),
  row(8, "604-555-0161", "Pacific"),
  row(9, "(604) 555-0161", "Pacific"),
];

const RECORDS = [
  ...submitted("PI-1", ["4165550101", "4165550102"]),
  ...submitted("PI-2", ["5145550101"]),
  ...submitted("PI-3", ["6045550160"]),
  reading("PI-1", ["4165550101", "4165550102"], "SUBMITTED", "2026-03-03T06:00:00.000Z"),
  reading("PI-2", ["5145550101"], "SUBMITTED", "2026-03-03T06:00:00.000Z"),
  reading("PI-1", ["4165550101", "4165550102"], "CONFIRMED", "2026-03-04T06:00:00.000Z", { portDate: "2026-03-06" }),
  reading("PI-2", ["5145550101"], "REJECTED", "2026-03-04T06:00:00.000Z", { reason: "carrier rejected", summary: "name", details: "6P NAME: END USER NAME DOES NOT MATCH CSR; 8A ADDR: HOUSE NUMBER" }),
  reading("PI-1", ["4165550101", "4165550102"], "COMPLETED", "2026-03-06T06:00:00.000Z", { portDate: "2026-03-06" }),
];

describe("the report's model, from the sheet's rows and the journal", () => {
  const model = buildReport(SHEET, RECORDS, null);

  it("gives each row the status the journal's latest reading says, as portin status words it", () => {
    expect(model.rows.map((r) => [r.line, r.status.status, r.status.ticket])).toEqual([
      [2, "COMPLETED", "PI-1"],
      [3, "COMPLETED", "PI-1"],
      [4, "not-submitted", ""],
      [5, "REJECTED", "PI-2"],
      // A second row of a number the journal holds has its order's status, as in portin status.
      [6, "REJECTED", "PI-2"],
      [7, "unchecked", "PI-3"],
      [8, "not-submitted", ""],
      [9, "not-submitted", ""],
    ]);
    expect(model.rows[0]?.status.message).toBe("ported on 2026-03-06; nothing to do");
    expect(model.rows[5]?.status.message).toBe("submitted in PI-3; not checked yet: run portin status");
    expect(model.rows[6]?.status.message).toBe("not submitted yet: portin submit sends it");
    expect(model.ported).toBe(2);
    expect(model.byStatus).toEqual([
      { status: "not-submitted", rows: 3 },
      { status: "COMPLETED", rows: 2 },
      { status: "REJECTED", rows: 2 },
      { status: "unchecked", rows: 1 },
    ]);
  });

  it("draws each night the journal recorded, per customer, as the last reading of that night left it", () => {
    expect(model.nights.map((n) => n.night)).toEqual(["2026-03-03", "2026-03-04", "2026-03-06"]);
    const maple = model.nights.map((n) => n.customers.find((c) => c.customer === "Maple")?.counts);
    expect(maple).toEqual([
      { SUBMITTED: 2, CONFIRMED: 0, COMPLETED: 0, REJECTED: 0 },
      { SUBMITTED: 0, CONFIRMED: 2, COMPLETED: 0, REJECTED: 0 },
      { SUBMITTED: 0, CONFIRMED: 0, COMPLETED: 2, REJECTED: 0 },
    ]);
    expect(model.nights[1]?.customers.find((c) => c.customer === "Dubois")?.counts.REJECTED).toBe(1);
  });

  it("puts the port dates on a calendar by day, customer and time window", () => {
    expect(model.calendar).toEqual([
      { date: "2026-03-06", customer: "Maple", window: "09:30", status: "COMPLETED", numbers: ["4165550101", "4165550102"], who: { label: "Maple", account: "", provider: "", names: ["Maple"] }, outside: [], sheetDates: [] },
    ]);
  });

  it("groups invalid rows by cause, whatever the cell, and carrier rejects by code and field, each with a fix", () => {
    expect(model.invalid.map((g) => [g.cause, g.rows.map((r) => r.line)])).toEqual([
      ["duplicate number", [9]],
      ["letter O for zero", [4]],
    ]);
    expect(model.invalid[1]?.fix).toBe("type the digit 0 where the letter O was typed");
    expect(model.rejects.map((g) => [g.cause, g.rows.map((r) => r.line), g.fix])).toEqual([
      ["6P NAME", [5, 6], "the carrier says: END USER NAME DOES NOT MATCH CSR; correct it in the sheet, then portin submit sends it again"],
      ["8A ADDR", [5, 6], "the carrier says: HOUSE NUMBER; correct it in the sheet, then portin submit sends it again"],
    ]);
  });

  it("says why nothing is known without a journal", () => {
    const none = buildReport(SHEET.slice(0, 1), [], "not submitted: there is no journal at x.state.jsonl yet; portin submit writes it");
    expect(none.rows[0]?.status.message).toBe("not submitted: there is no journal at x.state.jsonl yet; portin submit writes it");
    expect(none.nights).toEqual([]);
  });
});
