import { describe, expect, it } from "vitest";
import { reviewEarlierRuns } from "../../src/engine/earlier-runs.js";
import type { ReviewOptions } from "../../src/engine/earlier-runs.js";
import { sourceOf } from "../../src/engine/learn-status.js";
import type { Source } from "../../src/engine/learn-status.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { derivePriorState, stateOf } from "../../src/journal/prior.js";
import type { NumberState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";
import { rowFingerprint } from "../../src/group/fingerprint.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import type { ValidRow } from "../../src/validate/types.js";

const DIDS = operationById("dids") as Operation;

function row(number: string): ValidRow {
  return { valid: true, index: 0, line: 2, number, numberKind: "regular", operation: DIDS, target: "4165550100", group: "", portForm: {}, request: {}, item: {} };
}

const [SUBMITTED, PENDING, UNKNOWN, REJECTED, ENDED, NEVER] = ["4165550101", "4165550102", "4165550103", "4165550104", "4165550105", "4165550106"] as const;
const print = (number: string): string => rowFingerprint(row(number));

/** One journal holding a number in every state, each row unchanged since it was sent. */
const PRIOR = derivePriorState([
  { type: "intent", requestId: "A", operation: "dids", numbers: [SUBMITTED], fingerprints: [print(SUBMITTED)], at: "t" },
  { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-000001", at: "t" },
  { type: "intent", requestId: "B", operation: "dids", numbers: [PENDING], fingerprints: [print(PENDING)], at: "t" },
  { type: "intent", requestId: "C", operation: "dids", numbers: [UNKNOWN], fingerprints: [print(UNKNOWN)], at: "t" },
  { type: "outcome", requestId: "C", status: "unknown", httpStatus: 502, message: "502 Bad Gateway", at: "t" },
  { type: "intent", requestId: "D", operation: "dids", numbers: [REJECTED], fingerprints: [print(REJECTED)], at: "t" },
  { type: "outcome", requestId: "D", status: "rejected", httpStatus: 400, rejected: [{ number: REJECTED, message: "the customer name does not match the losing carrier's records", fingerprint: print(REJECTED) }], at: "t" },
  { type: "intent", requestId: "E", operation: "dids", numbers: [ENDED], fingerprints: [print(ENDED)], at: "t" },
  { type: "outcome", requestId: "E", status: "submitted", ticket: "PI-000005", at: "t" },
  { type: "ended", ticket: "PI-000005", status: "REJECTED", reason: "name does not match", summary: "", details: "", numbers: [{ number: ENDED, fingerprint: print(ENDED) }], at: "t" },
] satisfies JournalRecord[]);

interface Story {
  readonly number: string;
  /** What submit and plan do with the row (earlier-runs.ts); null: it is planned and sent. */
  readonly submit: Partial<RowOutcome> | null;
  /** How `status` learns the number's order (learn-status.ts). */
  readonly status: Partial<Source> | Source;
}

/**
 * Every state kind with what submit/plan and status say of it. Typed by kind: a new state
 * does not compile until this test says what both commands make of it.
 */
const STORIES: Record<NumberState["kind"], readonly Story[]> = {
  submitted: [{ number: SUBMITTED, submit: { status: "skipped", ticket: "PI-000001" }, status: { kind: "ticket", ticket: "PI-000001" } }],
  pending: [{ number: PENDING, submit: { status: "unknown", ticket: "", next: "retry-unknown" }, status: { kind: "number", unsure: true } }],
  unknown: [{ number: UNKNOWN, submit: { status: "unknown", ticket: "", next: "retry-unknown" }, status: { kind: "number", unsure: true } }],
  rejected: [
    { number: REJECTED, submit: { status: "rejected", ticket: "", next: "fix-or-retry-rejected" }, status: { kind: "none", why: "never submitted: the service rejected it (the customer name does not match the losing carrier's records); fix the row and run portin submit" } },
    { number: ENDED, submit: { status: "rejected", ticket: "PI-000005", next: "fix-carrier-rejection" }, status: { kind: "ended", fingerprint: print(ENDED) } },
  ],
  none: [{ number: NEVER, submit: null, status: { kind: "none", why: "not submitted yet: portin submit sends it" } }],
};

function options(): ReviewOptions {
  // PortInStatus finds no port-in for any unsure number.
  return { portInStatus: () => Promise.resolve(null), record: null, concurrency: 2, signal: new AbortController().signal, retryUnknown: false, retryRejected: false };
}

describe("one story per number: submit, plan and status read the same state", () => {
  const cases = Object.entries(STORIES).flatMap(([kind, stories]) => stories.map((story) => [kind, story] as const));

  it.each(cases)("a number in state %s gets the verdicts of that state from both", async (kind, story) => {
    expect(stateOf(PRIOR, story.number).kind).toBe(kind);
    const earlier = await reviewEarlierRuns(PRIOR, [row(story.number)], options());
    const submit = earlier.settle(row(story.number));
    const status = sourceOf(story.number, PRIOR, undefined, "no journal");
    if (story.submit === null) expect(submit).toBeNull();
    else expect(submit).toMatchObject(story.submit);
    expect(status).toMatchObject(story.status);
    // Where both name an order, it is the same one.
    const statusTicket = status.kind === "ticket" ? status.ticket : status.kind === "ended" ? status.order.ticket : "";
    expect(submit?.ticket ?? "").toBe(statusTicket);
  });

  it("says the same of every number without a journal: nothing was sent", async () => {
    expect(stateOf(null, SUBMITTED)).toEqual({ kind: "none" });
    const earlier = await reviewEarlierRuns(null, [row(SUBMITTED)], options());
    expect(earlier.settle(row(SUBMITTED))).toBeNull();
    expect(sourceOf(SUBMITTED, null, undefined, "no journal")).toEqual({ kind: "none", why: "no journal" });
  });
});
