import { describe, expect, it } from "vitest";
import { derivePriorState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";
import { settleRows } from "../../src/engine/settle.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import type { InvalidRow } from "../../src/validate/types.js";

const DIDS = operationById("dids") as Operation;
const PAST = 'portform.RequestedPortDate "2026-12-08" is in the past (today is 2026-12-09, Eastern time): give a business day from today on';

function invalid(number: string, index: number): InvalidRow {
  return { valid: false, index, line: index + 2, number, numberKind: "regular", operation: DIDS, reason: PAST };
}

describe("a row submitted by an earlier run that would be invalid today", () => {
  it("stays skipped with its ticket, saying why it would be invalid, while a row never sent is invalid", async () => {
    const prior = derivePriorState([
      { type: "intent", requestId: "A", operation: "dids", numbers: ["4165550101"], at: "t" },
      { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-000001", at: "t" },
    ] satisfies JournalRecord[]);
    const plan = await settleRows([invalid("4165550101", 0), invalid("4165550102", 1)], prior, {
      maxPerRequest: 100,
      retryUnknown: false,
      retryRejected: false,
      // No number here is unsure: PortInStatus is never asked.
      portInStatus: () => Promise.reject(new Error("not asked")),
      record: null,
      concurrency: 1,
      signal: new AbortController().signal,
    });
    expect([0, 1].map((i) => plan.settledOutcome(i)).map((o) => [o?.status, o?.ticket, o?.message])).toEqual([
      ["skipped", "PI-000001", `submitted by an earlier run; not sent again (the row as it stands would be invalid: ${PAST})`],
      ["invalid", "", PAST],
    ]);
    expect(plan.requests).toEqual([]);
  });
});
