import { describe, expect, it } from "vitest";
import { reviewEarlierRuns } from "../../src/engine/earlier-runs.js";
import type { ReviewOptions } from "../../src/engine/earlier-runs.js";
import { recordHolds } from "../../src/engine/account-orders.js";
import { sourceOf } from "../../src/engine/status-source.js";
import type { Source } from "../../src/engine/status-source.js";
import { rowNowOf } from "../../src/engine/verdict.js";
import type { AccountHold } from "../../src/engine/verdict.js";
import type { EndedEntry } from "../../src/journal/journal.js";
import { EXAMPLE_HOLDS } from "./example-holds.js";
import { buildReport } from "../../src/report/model.js";
import type { OrderStatus } from "../../src/results/order-status.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { derivePriorState, stateOf } from "../../src/journal/prior.js";
import type { NumberState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";
import { rowFingerprint } from "../../src/group/fingerprint.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import type { ValidRow } from "../../src/validate/types.js";

const DIDS = operationById("dids") as Operation;

function row(number: string, target = "4165550100", customer = "Acme"): ValidRow {
  return { valid: true, index: 0, line: 2, number, numberKind: "regular", operation: DIDS, target, group: "", portForm: { CustomerName: customer }, request: {}, item: {} };
}

/** The row of `number` edited since it was sent: another target and end-user name. */
const changedRow = (number: string): ValidRow => row(number, "4165550199", "Acme Holdings");

const [SUBMITTED, PENDING, UNKNOWN, REJECTED, ENDED, NEVER, NO_TICKET, OUTSIDE, REFUSED, OLDER, OLDER_REJECTED] = [
  "4165550101",
  "4165550102",
  "4165550103",
  "4165550104",
  "4165550105",
  "4165550106",
  "4165550107",
  "4165550108",
  "4165550109",
  "4165550110",
  "4165550111",
] as const;
const print = (number: string): string => rowFingerprint(row(number));

/** One journal holding a number in every state, each row unchanged since it was sent. */
const RECORDS = [
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
  { type: "intent", requestId: "F", operation: "dids", numbers: [NO_TICKET], fingerprints: [print(NO_TICKET)], at: "t" },
  { type: "outcome", requestId: "F", status: "submitted", at: "t" },
  { type: "confirmed", number: OUTSIDE, ticket: "PI-000008", status: "SUBMITTED", outside: true, at: "t" },
  // Sent, and refused because another run's order PI-000009 held it: pending-answers.ts records that order.
  { type: "intent", requestId: "G", operation: "dids", numbers: [REFUSED], fingerprints: [print(REFUSED)], at: "t" },
  { type: "outcome", requestId: "G", status: "rejected", httpStatus: 200, rejected: [{ number: REFUSED, message: `${REFUSED} already has a pending port-in (ticket PI-000009)`, fingerprint: print(REFUSED) }], at: "t" },
  { type: "confirmed", number: REFUSED, ticket: "PI-000009", status: "SUBMITTED", outside: true, refused: true, at: "t" },
  // An older portin's requests, whose intents and rejections kept no fingerprints: one submitted, one rejected.
  { type: "intent", requestId: "H", operation: "dids", numbers: [OLDER], at: "t" },
  { type: "outcome", requestId: "H", status: "submitted", ticket: "PI-000011", at: "t" },
  { type: "intent", requestId: "I", operation: "dids", numbers: [OLDER_REJECTED], at: "t" },
  {
    type: "outcome",
    requestId: "I",
    status: "rejected",
    httpStatus: 400,
    rejected: [{ number: OLDER_REJECTED, message: "the customer name does not match the losing carrier's records", fingerprint: "" }],
    at: "t",
  },
] satisfies JournalRecord[];
const PRIOR = derivePriorState(RECORDS);

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
  submitted: [
    { number: SUBMITTED, submit: { status: "skipped", ticket: "PI-000001" }, status: { kind: "ticket", ticket: "PI-000001" } },
    {
      number: REFUSED,
      submit: { status: "skipped", ticket: "PI-000009", message: "sent by an earlier run and refused by the service: order PI-000009, placed outside this journal, already held it; not sent again" },
      status: { kind: "ticket", ticket: "PI-000009", refused: true },
    },
    { number: OLDER, submit: { status: "skipped", ticket: "PI-000011" }, status: { kind: "ticket", ticket: "PI-000011" } },
  ],
  pending: [{ number: PENDING, submit: { status: "unknown", ticket: "", next: "retry-unknown" }, status: { kind: "number", unsure: true } }],
  unknown: [{ number: UNKNOWN, submit: { status: "unknown", ticket: "", next: "retry-unknown" }, status: { kind: "number", unsure: true } }],
  rejected: [
    { number: REJECTED, submit: { status: "rejected", ticket: "", next: "fix-or-retry-rejected" }, status: { kind: "none", why: "never submitted: the service rejected it (the customer name does not match the losing carrier's records); fix the row and run portin submit" } },
    { number: ENDED, submit: { status: "rejected", ticket: "PI-000005", next: "fix-carrier-rejection" }, status: { kind: "ended", changed: false } },
    // No fingerprint to compare the row with: sent again (docs/verdicts.md), and status says why.
    {
      number: OLDER_REJECTED,
      submit: null,
      status: { kind: "none", why: "never submitted: the service rejected it (the customer name does not match the losing carrier's records); the row as it was sent is not recorded: portin submit sends it again" },
    },
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
    // Status, as learn-status.ts does, weighs the row as the sheet has it now.
    const status = sourceOf(story.number, PRIOR, undefined, "no journal", rowNowOf(row(story.number)));
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

/**
 * What a command said of a number, in the few words the three commands share: the order that
 * holds it, an order with no ticket known, unsure (asked by number), rejected, ended, or sent.
 */
type Said = string;

function submitStory(outcome: RowOutcome | null, note: string | null): Said {
  if (outcome === null) return note === null ? "send" : `send after ${/ticket (\S+)/.exec(note)?.[1] ?? "?"}`;
  switch (outcome.status) {
    case "skipped":
      return outcome.ticket === "" ? "order, no ticket" : `order ${outcome.ticket}`;
    case "unknown":
      return outcome.next === "ask-about-order" ? "order, no ticket" : "unsure";
    case "rejected":
      return outcome.ticket === "" ? "rejected" : `ended ${outcome.ticket}`;
    default:
      return `submit said ${outcome.status}`;
  }
}

function statusStory(source: Source): Said {
  switch (source.kind) {
    case "ticket":
      return `order ${source.ticket}`;
    case "number":
      return source.unsure && source.order === undefined ? "unsure" : "order, no ticket";
    case "ended":
      return source.changed ? `send after ${source.order.ticket}` : `ended ${source.order.ticket}`;
    case "none":
      return /portin submit sends it/.test(source.why) ? "send" : "rejected";
  }
}

/** `report` reads the journal alone, no service and no sheet's current row: it tells fewer stories apart. */
function reportStory(status: OrderStatus): Said {
  if (status.state === "unchecked") return status.ticket === "" ? "asked by number" : `order ${status.ticket}`;
  if (status.state === "ended") return `ended ${status.ticket}`;
  if (status.state === "not-submitted") return "not sent";
  return `report said ${status.state}`;
}

function asReportTellsIt(story: Said): Said {
  if (story === "unsure" || story === "order, no ticket") return "asked by number";
  if (story === "send" || story === "rejected") return "not sent";
  return story.replace(/^send after /, "ended ");
}

const HOLDS: Record<string, AccountHold | undefined> = EXAMPLE_HOLDS;

describe("one story per number: submit, status and report agree for every state, order-list hold and row change", () => {
  const numbers = { SUBMITTED, PENDING, UNKNOWN, REJECTED, ENDED, NEVER, NO_TICKET, OUTSIDE, REFUSED, OLDER, OLDER_REJECTED };
  const cases = Object.entries(numbers).flatMap(([name, number]) =>
    Object.keys(HOLDS).flatMap((hold) => [false, true].map((changed) => [name, hold, changed ? "changed" : "unchanged", number] as const)),
  );

  it.each(cases)("%s, the account's list holding it in %s, the row %s", async (_name, holdName, change, number) => {
    const hold = HOLDS[holdName];
    const now = change === "changed" ? changedRow(number) : row(number);
    expect(rowFingerprint(now) === print(number)).toBe(change === "unchanged");
    const account = new Map(hold === undefined ? [] : [[number, hold]]);

    const earlier = await reviewEarlierRuns(PRIOR, [now], { ...options(), account });
    const outcome = earlier.settle(now);
    const submit = submitStory(outcome, outcome === null ? earlier.resendNote(now) : null);
    const status = statusStory(sourceOf(number, PRIOR, hold, "no journal", rowNowOf(now)));
    expect(status).toBe(submit);

    // The journal after the run: submit and status record an order the list named with its ticket.
    const after: JournalRecord[] = [...RECORDS];
    const journal = {
      prior: PRIOR,
      confirmed: (confirmed: string, ticket: string, said: string, outside?: boolean) => {
        after.push({ type: "confirmed", number: confirmed, ticket, status: said, at: "t", ...(outside === true ? { outside } : {}) });
        return Promise.resolve();
      },
      ended: (order: EndedEntry) => {
        after.push({ type: "ended", ...order, numbers: [...order.numbers], at: "t" });
        return Promise.resolve();
      },
    };
    await recordHolds(account, journal, [now]);
    const report = reportStory((buildReport([{ line: 2, numberCell: number, customer: "", window: "" }], after, null).rows[0] as { status: OrderStatus }).status);
    // Report says what status would say over the same journal, without the account.
    expect(report).toBe(asReportTellsIt(statusStory(sourceOf(number, derivePriorState(after), undefined, "no journal"))));
    // And, once the run has recorded what the list said, what submit said.
    if (hold === undefined || hold.ticket !== "" || stateOf(PRIOR, number).kind === "submitted") expect(report).toBe(asReportTellsIt(submit));
  });
});
