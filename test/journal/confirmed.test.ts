import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { openJournal, readJournal } from "../../src/journal/journal.js";
import { derivePriorState } from "../../src/journal/prior.js";
import { parseRecord } from "../../src/journal/records.js";
import { BASE_URL, IDENTITY, journalLines, statePath } from "./helpers.js";
import { numbersIn } from "../support/states.js";

describe("confirmations recorded in the journal", () => {
  it("turns a number whose request had no outcome, and one recorded unknown, into submitted with the service's ticket", async () => {
    const path = await statePath();
    const run1 = await openJournal(path, IDENTITY);
    await run1.intent("R1", "dids", ["4165550101", "4165550102"]);
    await run1.intent("R2", "dids", ["4165550103"]);
    await run1.outcome("R2", { status: "unknown", httpStatus: 500, message: "500 Internal Server Error" });
    await run1.close();

    const run2 = await openJournal(path, IDENTITY);
    await run2.confirmed("4165550101", "PI-000007", "SUBMITTED");
    await run2.confirmed("4165550103", "PI-000008", "SUBMITTED");
    await run2.close();

    const prior = await readJournal(path, IDENTITY);
    expect([...numbersIn(prior, "submitted")]).toEqual([
      ["4165550101", { ticket: "PI-000007", requestId: "R1" }],
      ["4165550103", { ticket: "PI-000008", requestId: "R2" }],
    ]);
    expect([...numbersIn(prior, "pending")]).toEqual([["4165550102", { requestId: "R1" }]]);
    expect(numbersIn(prior, "unknown").size).toBe(0);
    expect((await journalLines(path)).filter((line) => line.type === "confirmed")).toEqual([
      expect.objectContaining({ number: "4165550101", ticket: "PI-000007", status: "SUBMITTED" }),
      expect.objectContaining({ number: "4165550103", ticket: "PI-000008", status: "SUBMITTED" }),
    ]);
  });

  it("keeps a confirmed number submitted when a later request holding it is rejected", () => {
    const prior = derivePriorState([
      { type: "intent", requestId: "R1", operation: "dids", numbers: ["4165550101"], at: "t" },
      { type: "confirmed", number: "4165550101", ticket: "PI-000001", status: "SUBMITTED", at: "t" },
      { type: "intent", requestId: "R2", operation: "dids", numbers: ["4165550101"], at: "t" },
      { type: "outcome", requestId: "R2", status: "rejected", message: "already has a pending port-in", at: "t" },
    ]);
    expect(numbersIn(prior, "submitted").get("4165550101")).toEqual({ ticket: "PI-000001", requestId: "R1" });
  });

  it("refuses to record a confirmation for something that is not a 10-digit number", async () => {
    const journal = await openJournal(await statePath(), IDENTITY);
    await expect(journal.confirmed("416555010", "PI-000001", "SUBMITTED")).rejects.toThrow(/10-digit number, got '416555010'/);
    await journal.close();
  });

  it("does not take a confirmation without a ticket or number as a record", () => {
    expect(parseRecord('{"type":"confirmed","number":"4165550101","at":"t"}')).toBeNull();
    expect(parseRecord('{"type":"confirmed","ticket":"PI-1","at":"t"}')).toBeNull();
    expect(parseRecord('{"type":"confirmed","number":"4165550101","ticket":"PI-1","at":"t"}')).toMatchObject({ type: "confirmed" });
  });

  it("still reads a journal written before confirmation records existed", async () => {
    const path = await statePath();
    const lines = [
      { type: "header", version: 1, tool: "portin/0.1.0", baseUrl: BASE_URL, user: IDENTITY.user, createdAt: "2025-01-01T00:00:00.000Z" },
      { type: "run", pid: 4242, startedAt: "2025-01-01T00:00:00.000Z" },
      { type: "intent", requestId: "A", operation: "dids", numbers: ["4165550101"], at: "2025-01-01T00:00:01.000Z" },
      { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-000001", httpStatus: 200, message: "", at: "2025-01-01T00:00:02.000Z" },
      { type: "intent", requestId: "B", operation: "dids", numbers: ["4165550102"], at: "2025-01-01T00:00:03.000Z" },
    ];
    await writeFile(path, lines.map((line) => JSON.stringify(line) + "\n").join(""));

    const journal = await openJournal(path, IDENTITY);
    expect(numbersIn(journal.prior, "submitted").get("4165550101")).toEqual({ ticket: "PI-000001", requestId: "A" });
    expect(numbersIn(journal.prior, "pending").get("4165550102")).toEqual({ requestId: "B" });
    await journal.close();
  });
});
