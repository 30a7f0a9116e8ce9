/**
 * `portin status`'s report (docs/contract.md §6, §7): its columns, its summary, its exit code.
 */
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../src/engine/status-run.js";
import { exitCodeOf } from "../../src/exit-codes.js";
import { STATUS_COLUMN_SET } from "../../src/results/order-status.js";
import type { OrderState, OrderStatus } from "../../src/results/order-status.js";
import { formatStatusSummary, summarizeStatus } from "../../src/results/status-summary.js";

function row(status: string, state: OrderState, ticket = "PI-1"): OrderStatus {
  return { status, state, ticket, portDate: "", rejectReason: "", rejectSummary: "", rejectDetails: "", checkedAt: "", message: "" };
}

function report(rows: OrderStatus[], stopped: StatusReport["stopped"] = null): StatusReport {
  return { summary: summarizeStatus({ statuses: rows, requests: 1, elapsedMs: 5, output: "acme.status.csv", service: { kind: "remote", baseUrl: "https://api.example/" } }), changes: null, history: null, stopped };
}

describe("the status columns", () => {
  it("are the eight of the contract, in order, each cell made safe for spreadsheets", () => {
    expect(STATUS_COLUMN_SET.names).toEqual([
      "status",
      "status_ticket",
      "status_port_date",
      "status_reject_reason",
      "status_reject_summary",
      "status_reject_details",
      "status_checked_at",
      "status_message",
    ]);
    const cells = STATUS_COLUMN_SET.cells({ ...row("REJECTED", "ended"), rejectReason: "=HYPERLINK(1)", portDate: "2026-03-05" });
    expect(cells.slice(0, 4)).toEqual(["REJECTED", "PI-1", "2026-03-05", "'=HYPERLINK(1)"]);
  });
});

describe("portin status's exit code", () => {
  it("is 0 while every order is open or completed, rows never submitted included", () => {
    expect(exitCodeOf({ kind: "status", report: report([row("SUBMITTED", "open"), row("CANCEL_PENDING", "open"), row("COMPLETED", "completed"), row("not-submitted", "not-submitted", "")]) })).toBe(0);
  });

  it.each([
    ["REJECTED", "ended"],
    ["CANCELLED", "ended"],
    ["not-found", "not-found"],
    ["unchecked", "unchecked"],
  ] as const)("is 1 when one order is %s", (status, state) => {
    expect(exitCodeOf({ kind: "status", report: report([row("SUBMITTED", "open"), row(status, state)]) })).toBe(1);
  });

  it("is 130 or 143 after a signal", () => {
    expect(exitCodeOf({ kind: "status", report: report([row("unchecked", "unchecked")], { kind: "signal", signal: "SIGTERM" }) })).toBe(143);
  });
});

describe("the status summary", () => {
  it("counts rows by status, those needing attention first, with one next line each, and counts orders once", () => {
    const text = formatStatusSummary(
      summarizeStatus({
        statuses: [row("SUBMITTED", "open", "PI-1"), row("SUBMITTED", "open", "PI-1"), row("REJECTED", "ended", "PI-2"), row("COMPLETED", "completed", "PI-3")],
        requests: 3,
        elapsedMs: 1500,
        output: "acme.status.csv",
        service: { kind: "sandbox" },
      }),
    );
    expect(text.split("\n")).toEqual([
      "portin status: 4 rows: 1 REJECTED, 2 SUBMITTED, 1 COMPLETED",
      "asked about 3 orders with 3 PortInStatus requests in 1.5 s",
      "service: the built-in sandbox (nothing real was ported)",
      "output: acme.status.csv",
      "next: 1 row REJECTED: the order ended without porting (see status_reject_reason and status_reject_details in acme.status.csv): fix what the carrier disputes in the sheet, " +
        "then portin submit sends the changed rows again (unchanged ones only with --retry-rejected)",
      "next: 2 rows SUBMITTED: waiting for the losing carrier to confirm a port date: run portin status again tomorrow",
      "next: 1 row COMPLETED: ported; nothing to do",
    ]);
  });

  it("gives a long run's time as submit's summary does, in hours and minutes", () => {
    const summary = summarizeStatus({ statuses: [row("SUBMITTED", "open", "PI-1")], requests: 1, elapsedMs: 5_400_000, output: "acme.status.csv", service: { kind: "remote", baseUrl: "https://api.example/" } });
    expect(formatStatusSummary(summary)).toContain("asked about 1 order with 1 PortInStatus request in 1 h 30 min\n");
  });
});
