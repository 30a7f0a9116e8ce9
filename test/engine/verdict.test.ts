import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { portDateApart, verdictOf } from "../../src/engine/verdict.js";
import type { RowNow, Verdict } from "../../src/engine/verdict.js";
import type { NumberState } from "../../src/journal/prior.js";
import { PACKAGE_ROOT } from "../../src/version.js";
import { EXAMPLE_HOLDS } from "./example-holds.js";

/** The fingerprint every earlier run sent its row under; the row now matches it or not. */
const SENT = "fingerprint-as-sent";

/** Each state earlier runs can leave a number in, with the variants that change what it means. */
const STATES = {
  "never sent": { kind: "none" },
  submitted: { kind: "submitted", ticket: "PI-1", requestId: "A", fingerprint: SENT },
  "submitted by an older portin (no fingerprint)": { kind: "submitted", ticket: "PI-1", requestId: "A" },
  "submitted without a ticket": { kind: "submitted", ticket: "", requestId: "A", fingerprint: SENT },
  "in an order placed outside the journal": { kind: "submitted", ticket: "PI-1", requestId: "", outside: true },
  "sent, and refused: an order placed outside the journal held it": { kind: "submitted", ticket: "PI-1", requestId: "A", outside: true, refused: true, fingerprint: SENT },
  "pending (intent, no outcome)": { kind: "pending", requestId: "B", fingerprint: SENT },
  unknown: { kind: "unknown", requestId: "C", message: "502 Bad Gateway", fingerprint: SENT },
  "rejected by the service": { kind: "rejected", requestId: "D", message: "name does not match", httpStatus: 400, fingerprint: SENT },
  "rejected, no fingerprint kept": { kind: "rejected", requestId: "D", message: "name does not match", httpStatus: 400, fingerprint: "" },
  "its order ended (REJECTED, CANCELLED)": {
    kind: "rejected",
    requestId: "E",
    message: "name does not match",
    httpStatus: null,
    fingerprint: SENT,
    order: { ticket: "PI-5", status: "REJECTED", reason: "name does not match", summary: "", details: "", at: "t" },
  },
} satisfies Record<string, NumberState>;

// Every kind of state has a row of the table: a new kind does not compile until it is given one.
const KINDS_COVERED: Record<NumberState["kind"], true> = { none: true, submitted: true, pending: true, unknown: true, rejected: true };

const HOLDS = EXAMPLE_HOLDS;

type State = keyof typeof STATES;
type Hold = keyof typeof HOLDS;

/** A verdict in the words of docs/verdicts.md. */
function said(verdict: Verdict): string {
  switch (verdict.kind) {
    case "submitted":
      return `skipped: ${verdict.submitted.ticket === "" ? "no ticket known" : "the journal's ticket"}${verdict.changed ? "; row changed since" : ""}`;
    case "refused":
      return "skipped: the ticket of the order that held it";
    case "held":
      return `${verdict.hold.ticket === "" ? "not sent, `unknown`: the order on the list, no ticket from PortInStatus" : "skipped: the order on the list"}${verdict.earlierRun !== null ? ", an earlier run's own" : ""}`;
    case "unsure":
      return "PortInStatus decides";
    case "rejected":
      return `rejected until the row changes${verdict.rejection.order ? " (the order ended)" : ""}`;
    case "send":
      return verdict.rejection === null ? "sent" : `sent again${verdict.rejection.order ? " after the ended order" : ""}`;
  }
}

/**
 * docs/verdicts.md's table: every combination of journal state x the account's order list x
 * the row as it is now, with its verdict, as the user reads it.
 */
const TABLE = readFileSync(join(PACKAGE_ROOT, "docs", "verdicts.md"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("| ") && !line.startsWith("| Journal state"))
  .map((line) => {
    const [state = "", hold = "", unchanged = "", changed = ""] = line.slice(2, -2).split(" | ");
    return { state, hold, unchanged, changed };
  });

/** The row now: changed when its fingerprint is not the one it was sent under and, against an order outside the journal, when its values are not the order's. */
const rowNow = (changed: boolean): RowNow => ({ changedSince: (fingerprint) => changed || fingerprint !== SENT, differsFrom: () => changed });

const cases = TABLE.flatMap(({ state, hold, unchanged, changed }) => [
  [state, hold, "as sent", unchanged] as const,
  [state, hold, "changed since", changed] as const,
]);

describe("one verdict for each number (engine/verdict.ts)", () => {
  it("lists every combination once, and covers every kind of state", () => {
    expect(new Set(Object.values(STATES).map((state) => state.kind))).toEqual(new Set(Object.keys(KINDS_COVERED)));
    const listed = TABLE.map(({ state, hold }) => `${state} / ${hold}`);
    const every = Object.keys(STATES).flatMap((state) => Object.keys(HOLDS).map((hold) => `${state} / ${hold}`));
    expect(listed).toEqual(every);
  });

  it.each(cases)("%s, the account's list holding it in %s, the row %s: %s", (state, hold, change, expected) => {
    expect(said(verdictOf({ state: STATES[state as State], hold: HOLDS[hold as Hold], row: rowNow(change === "changed since") }))).toBe(expected);
  });

  it("sends a rejected row unchanged only with --retry-rejected, and never one an order holds", () => {
    const rejected = STATES["rejected by the service"];
    const ended = STATES["its order ended (REJECTED, CANCELLED)"];
    expect(verdictOf({ state: rejected, row: rowNow(false), retryRejected: true })).toEqual({ kind: "send", rejection: rejected });
    expect(verdictOf({ state: ended, row: rowNow(false), retryRejected: true })).toEqual({ kind: "send", rejection: ended });
    const hold = HOLDS["an open order, no ticket yet"];
    expect(verdictOf({ state: rejected, hold, row: rowNow(false), retryRejected: true })).toEqual({ kind: "held", hold, earlierRun: null });
  });

  it("hands on the order it names: the journal's ticket, the list's order, the unsure state PortInStatus is asked about", () => {
    const submitted = STATES.submitted;
    expect(verdictOf({ state: submitted, hold: HOLDS["an open order, ticket known"] })).toEqual({ kind: "submitted", submitted, changed: false });
    const hold = HOLDS["a closed order that ported it"];
    expect(verdictOf({ state: STATES.unknown, hold })).toEqual({ kind: "held", hold, earlierRun: STATES.unknown });
    expect(verdictOf({ state: STATES.unknown })).toEqual({ kind: "unsure", state: STATES.unknown });
    expect(verdictOf({ state: STATES["rejected by the service"] })).toEqual({ kind: "rejected", rejection: STATES["rejected by the service"] });
  });

  it("takes a row it is not shown as the row sent, and never works out a digest it does not need", () => {
    expect(said(verdictOf({ state: STATES["rejected by the service"] }))).toBe("rejected until the row changes");
    const asked: string[] = [];
    const row: RowNow = { changedSince: (fingerprint) => (asked.push(fingerprint), false), differsFrom: () => (asked.push("the order's values"), false) };
    for (const state of ["never sent", "pending (intent, no outcome)", "unknown", "submitted by an older portin (no fingerprint)"] as const) verdictOf({ state: STATES[state], row });
    verdictOf({ state: STATES["rejected by the service"], hold: HOLDS["an open order, ticket known"], row });
    verdictOf({ state: STATES["rejected by the service"], row, retryRejected: true });
    expect(asked).toEqual([]);
  });
});

describe("the port date an order holds against the row's (engine/verdict.ts portDateApart)", () => {
  it.each([
    ["2026-12-03", "2026-12-10", "2026-12-03"],
    ["2026-12-03T00:00:00", "2026-12-10", "2026-12-03"],
    ["2026-12-10T00:00:00", "2026-12-10", null],
    ["2026-12-10", "2026-12-10", null],
    ["", "2026-12-10", null],
    ["2026-12-03", "", null],
  ])("held %j, asked %j: %j", (held, requested, apart) => {
    expect(portDateApart(held, requested)).toBe(apart);
  });
});
