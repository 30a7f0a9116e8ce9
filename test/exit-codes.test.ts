import { describe, expect, it } from "vitest";
import type { RunReport } from "../src/engine/port-in.js";
import { OutputError, StateError, UsageError } from "../src/errors.js";
import { exitCodeForCounts, exitCodeOf, exitCodeOfError } from "../src/exit-codes.js";
import type { RowStatus } from "../src/results/row-outcome.js";
import { summarize } from "../src/results/summary.js";

function counts(spec: Partial<Record<RowStatus, number>>): Record<RowStatus, number> {
  return { submitted: 0, planned: 0, skipped: 0, invalid: 0, rejected: 0, failed: 0, unknown: 0, ...spec };
}

function report(statuses: RowStatus[], stopped: RunReport["stopped"] = null): RunReport {
  const summary = summarize({ command: "submit", outcomes: statuses.map((status) => ({ status })), requests: [], elapsedMs: 1, results: "-", service: { kind: "remote", baseUrl: "s" } });
  return { summary, stopped, unwritten: null };
}

describe("exit codes", () => {
  it("is 0 when every row is submitted, skipped or planned", () => {
    expect(exitCodeForCounts(counts({ submitted: 3, skipped: 2, planned: 1 }))).toBe(0);
    expect(exitCodeForCounts(counts({}))).toBe(0);
    expect(exitCodeOf({ kind: "port-in", report: report(["submitted", "skipped"]) })).toBe(0);
  });

  it.each(["invalid", "rejected", "failed", "unknown"] as const)("is 1 when one row is %s", (status) => {
    expect(exitCodeForCounts(counts({ submitted: 10, [status]: 1 }))).toBe(1);
    expect(exitCodeOf({ kind: "port-in", report: report(["submitted", status]) })).toBe(1);
  });

  it("is 2 when the results could not be written after sending, whatever its rows", () => {
    const unwritten = { error: new OutputError("cannot write results to r.csv: permission denied"), state: null, tickets: new Map([["PI-1", 1]]) };
    expect(exitCodeOf({ kind: "port-in", report: { ...report(["submitted"]), unwritten } })).toBe(2);
  });

  it("is 2 when a run stopped sending on refused credentials or an unwritable journal, whatever its rows", () => {
    expect(exitCodeOf({ kind: "port-in", report: report(["submitted"], { kind: "auth", message: "401" }) })).toBe(2);
    expect(exitCodeOf({ kind: "port-in", report: report(["submitted"], { kind: "journal", error: new StateError("disk full") }) })).toBe(2);
  });

  it("is 130 after SIGINT and 143 after SIGTERM, for a run and for a lookup alike", () => {
    expect(exitCodeOf({ kind: "port-in", report: report(["failed"], { kind: "signal", signal: "SIGINT" }) })).toBe(130);
    expect(exitCodeOf({ kind: "port-in", report: report(["failed"], { kind: "signal", signal: "SIGTERM" }) })).toBe(143);
    expect(exitCodeOf({ kind: "interrupted", signal: "SIGTERM" })).toBe(143);
    expect(exitCodeOf({ kind: "done" })).toBe(0);
  });

  it("is 2 for an error, a user's or a bug", () => {
    expect(exitCodeOfError(new UsageError("bad"))).toBe(2);
    expect(exitCodeOfError(new TypeError("bug"))).toBe(2);
  });
});
