/**
 * `ended` records (docs/contract.md §5): an order `status` learned ended without porting
 * reopens exactly the numbers whose latest order it is, with the row as it was sent.
 */
import { describe, expect, it } from "vitest";
import { openJournal, readJournal } from "../../src/journal/journal.js";
import { derivePriorState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";
import { parseRecord } from "../../src/journal/records.js";
import { IDENTITY, journalLines, statePath } from "./helpers.js";
import { numbersIn } from "../support/states.js";

const A = "4165550101";
const B = "4165550102";

function ended(ticket: string, numbers: readonly string[], fingerprint = "fp-ended"): JournalRecord {
  return {
    type: "ended",
    ticket,
    status: "REJECTED",
    reason: "End user name does not match",
    summary: "Rejected by the losing carrier",
    details: "6P NAME: END USER NAME ON LSR DOES NOT MATCH CSR",
    numbers: numbers.map((number) => ({ number, fingerprint })),
    at: "2026-03-03T07:00:00.000Z",
  };
}

const submitted = (requestId: string, numbers: readonly string[], ticket: string, fingerprints?: string[]): JournalRecord[] => [
  { type: "intent", requestId, operation: "dids", numbers: [...numbers], ...(fingerprints ? { fingerprints } : {}), at: "t" },
  { type: "outcome", requestId, status: "submitted", ticket, httpStatus: 200, message: "Accepted", at: "t" },
];

describe("an order that ended", () => {
  it("turns its submitted numbers into rejected ones, with the carrier's reason and the order", () => {
    const prior = derivePriorState([...submitted("R1", [A, B], "PI-1", ["fa", "fb"]), ended("PI-1", [A])]);
    expect(numbersIn(prior, "submitted").get(B)).toEqual({ ticket: "PI-1", requestId: "R1", fingerprint: "fb" });
    expect(numbersIn(prior, "rejected").get(A)).toEqual({
      requestId: "R1",
      message: "End user name does not match",
      httpStatus: null,
      fingerprint: "fp-ended",
      order: {
        ticket: "PI-1",
        status: "REJECTED",
        reason: "End user name does not match",
        summary: "Rejected by the losing carrier",
        details: "6P NAME: END USER NAME ON LSR DOES NOT MATCH CSR",
        at: "2026-03-03T07:00:00.000Z",
      },
    });
    expect(numbersIn(prior, "submitted").has(A)).toBe(false);
  });

  it("leaves a number submitted since under another ticket alone", () => {
    const prior = derivePriorState([...submitted("R1", [A], "PI-1"), ...submitted("R2", [A], "PI-2"), ended("PI-1", [A])]);
    expect(numbersIn(prior, "submitted").get(A)).toMatchObject({ ticket: "PI-2" });
    expect(numbersIn(prior, "rejected").size).toBe(0);
  });

  it("reopens an unsure number whose order it is, and a resubmission then makes it submitted again", () => {
    const records: JournalRecord[] = [{ type: "intent", requestId: "R1", operation: "dids", numbers: [A], at: "t" }, ended("PI-1", [A])];
    expect(numbersIn(derivePriorState(records), "rejected").get(A)).toMatchObject({ requestId: "R1", order: { ticket: "PI-1" } });
    const resent = derivePriorState([...records, ...submitted("R2", [A], "PI-2")]);
    expect(numbersIn(resent, "rejected").size).toBe(0);
    expect(numbersIn(resent, "submitted").get(A)).toMatchObject({ ticket: "PI-2", requestId: "R2" });
  });

  it("is written and read back through the journal, beside intents that carry each row's fingerprint", async () => {
    const path = await statePath();
    const run = await openJournal(path, IDENTITY);
    await run.intent("R1", "dids", [A, B], ["fa", "fb"]);
    await run.outcome("R1", { status: "submitted", ticket: "PI-1", httpStatus: 200, message: "Accepted" });
    await run.close();
    const status = await openJournal(path, IDENTITY, { runRecord: false });
    await status.ended({ ticket: "PI-1", status: "REJECTED", reason: "r", summary: "s", details: "d", numbers: [{ number: A, fingerprint: "fa" }] });
    await status.close();

    const lines = await journalLines(path);
    expect(lines.map((line) => line.type)).toEqual(["header", "run", "intent", "outcome", "ended"]);
    expect(lines[2]).toMatchObject({ fingerprints: ["fa", "fb"] });
    const prior = await readJournal(path, IDENTITY);
    expect(numbersIn(prior, "rejected").get(A)).toMatchObject({ fingerprint: "fa", order: { ticket: "PI-1", reason: "r", summary: "s", details: "d" } });
    expect(numbersIn(prior, "submitted").get(B)).toMatchObject({ ticket: "PI-1", fingerprint: "fb" });
  });

  it("refuses an intent whose fingerprints do not match its numbers, and ignores such a list read from a file", async () => {
    const path = await statePath();
    const run = await openJournal(path, IDENTITY);
    await expect(run.intent("R1", "dids", [A, B], ["fa"])).rejects.toThrow(TypeError);
    await run.close();
    const prior = derivePriorState([{ type: "intent", requestId: "R1", operation: "dids", numbers: [A, B], fingerprints: ["fa"], at: "t" }]);
    expect(numbersIn(prior, "pending").get(A)).toEqual({ requestId: "R1" });
  });

  it("is a record an older reader cannot mistake for another: an unknown member set fails nothing, a wrong type is no record", () => {
    expect(parseRecord(JSON.stringify({ ...ended("PI-1", [A]), note: "by hand" }))).toMatchObject({ type: "ended", ticket: "PI-1" });
    expect(parseRecord(JSON.stringify({ ...ended("PI-1", [A]), ticket: "" }))).toBeNull();
    expect(parseRecord(JSON.stringify({ ...ended("PI-1", ["416555"]) }))).toBeNull();
  });
});

describe("status records", () => {
  it("keep each number's latest status reading, with its order, port date and when it was learned", () => {
    const reading = (status: string, portDate: string | null, at: string): JournalRecord => ({
      type: "status",
      ticket: "PI-1",
      status,
      portDate,
      reason: "",
      summary: "",
      details: "",
      numbers: [A, B],
      at,
    });
    const prior = derivePriorState([...submitted("R1", [A, B], "PI-1"), reading("SUBMITTED", null, "t1"), reading("CONFIRMED", "2026-03-05", "t2")]);
    expect(prior.lastStatus.get(A)).toEqual({ ticket: "PI-1", status: "CONFIRMED", portDate: "2026-03-05", reason: "", summary: "", details: "", at: "t2" });
    expect(prior.lastStatus.get(B)?.status).toBe("CONFIRMED");
    expect(numbersIn(prior, "submitted").get(A)?.ticket).toBe("PI-1");
  });
});
