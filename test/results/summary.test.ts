import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { ROW_STATUSES } from "../../src/results/row-outcome.js";
import type { RowOutcome, RowStatus } from "../../src/results/row-outcome.js";
import { formatSummary, summarize, summaryJson } from "../../src/results/summary.js";
import type { Service } from "../../src/service/service.js";

function op(id: string): Operation {
  const found = OPERATIONS.find((operation) => operation.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

function statuses(spec: Partial<Record<RowStatus, number>>): { status: RowStatus }[] {
  return Object.entries(spec).flatMap(([status, n]) => Array.from({ length: n }, () => ({ status: status as RowStatus })));
}

function counts(spec: Partial<Record<RowStatus, number>>): Record<RowStatus, number> {
  return { submitted: 0, planned: 0, skipped: 0, invalid: 0, rejected: 0, failed: 0, unknown: 0, ...spec };
}

const SERVICE: Service = { kind: "remote", baseUrl: "https://api.thinktel.ca/rest.svc" };
const dids = op("dids");
const lines = op("residential-lines");

describe("summarize", () => {
  it("counts every status, zeros included, and requests per operation", () => {
    const summary = summarize({
      command: "submit",
      outcomes: statuses({ submitted: 4, invalid: 1 }),
      requests: [{ operation: dids }, { operation: lines }, { operation: dids }],
      elapsedMs: 1234.4,
      results: "in.results.csv",
      service: SERVICE,
    });
    expect(summary).toEqual({
      command: "submit",
      counts: counts({ submitted: 4, invalid: 1 }),
      next: [{ step: "fix-row", status: "invalid", rows: 1 }],
      requestsByOperation: { "POST /v2/NumberPorts/Inbound/DIDs": 2, "POST /v2/NumberPorts/Inbound/ResidentialLines": 1 },
      rowsByOperation: { "(no operation)": { submitted: 4, invalid: 1 } },
      requests: 3,
      elapsedMs: 1234,
      results: "in.results.csv",
      service: SERVICE,
    });
  });
});

describe("formatSummary", () => {
  const base = summarize({
    command: "submit",
    outcomes: statuses({ submitted: 95, skipped: 1 }),
    requests: [{ operation: dids }, { operation: dids }, { operation: lines }],
    elapsedMs: 2000,
    results: "sheets/march.results.csv",
    service: SERVICE,
  });
  const withOutcomes = (outcomes: Pick<RowOutcome, "status" | "next">[], results = base.results): string =>
    formatSummary(summarize({ command: "submit", outcomes, requests: [], elapsedMs: 2000, results, service: SERVICE }));

  it("gives the row count and the non-zero statuses, the requests per operation, elapsed time and rate", () => {
    expect(formatSummary(base)).toBe(
      [
        "portin submit: 96 rows: 95 submitted, 1 skipped",
        "sent 3 requests in 2.0 s, 1.5 requests/s",
        "                                                 requests  submitted  skipped",
        "  POST /v2/NumberPorts/Inbound/DIDs                     2          -        -",
        "  POST /v2/NumberPorts/Inbound/ResidentialLines         1          -        -",
        "  (no operation)                                        -         95        1",
        "  total                                                 3         95        1",
        "service: https://api.thinktel.ca/rest.svc",
        "results: sheets/march.results.csv",
      ].join("\n"),
    );
  });

  it("tabulates rows by operation and status, aligned, with the requests and a total, rows without an operation last", () => {
    const summary = summarize({
      command: "submit",
      outcomes: [
        ...Array.from({ length: 12 }, () => ({ status: "submitted" as const, operation: "POST /v2/NumberPorts/Inbound/DIDs" })),
        { status: "rejected", operation: "POST /v2/NumberPorts/Inbound/DIDs" },
        { status: "submitted", operation: "POST /v2/NumberPorts/Inbound/ResidentialLines" },
        { status: "invalid", operation: "POST /v2/NumberPorts/Inbound/ResidentialLines" },
        { status: "invalid", operation: "" },
      ],
      requests: [{ operation: dids }, { operation: lines }],
      elapsedMs: 2000,
      results: "r.csv",
      service: SERVICE,
    });
    expect(formatSummary(summary).split("\n").slice(2, 7)).toEqual([
      "                                                 requests  submitted  invalid  rejected",
      "  POST /v2/NumberPorts/Inbound/DIDs                     1         12        -         1",
      "  POST /v2/NumberPorts/Inbound/ResidentialLines         1          1        1         -",
      "  (no operation)                                        -          -        1         -",
      "  total                                                 2         13        2         1",
    ]);
    expect(JSON.parse(summaryJson(summary, 1))).toMatchObject({
      rowsByOperation: {
        "(no operation)": { invalid: 1 },
        "POST /v2/NumberPorts/Inbound/DIDs": { submitted: 12, rejected: 1 },
        "POST /v2/NumberPorts/Inbound/ResidentialLines": { submitted: 1, invalid: 1 },
      },
    });
  });

  it("says when the service was the built-in sandbox, so a sandbox run never reads as a real one", () => {
    expect(formatSummary({ ...base, service: { kind: "sandbox" } })).toContain("service: the built-in sandbox (nothing real was ported)\n");
  });

  it("leaves out the rate when nothing was sent", () => {
    const text = formatSummary({ ...base, requests: 0, requestsByOperation: {}, elapsedMs: 300 });
    expect(text).toContain("sent 0 requests in 300 ms\n");
    expect(text).not.toContain("requests/s");
  });

  it("says a plan sent nothing and how many requests a submit would send", () => {
    const text = formatSummary({ ...base, command: "plan", counts: counts({ planned: 96 }) });
    expect(text).toContain("portin plan: 96 rows: 96 planned");
    expect(text).toContain("would send 3 requests (planned in 2.0 s; nothing was sent)");
    expect(text).not.toContain("requests/s");
  });

  it("gives one next step per kind of problem, each with what to do about it", () => {
    const text = withOutcomes([...statuses({ submitted: 5, invalid: 2, rejected: 1, failed: 3 })]);
    expect(text).toContain("portin submit: 11 rows: 5 submitted, 2 invalid, 1 rejected, 3 failed");
    expect(text).toContain("next: 2 rows invalid: fix them (see result_message in sheets/march.results.csv) and run again");
    expect(text).toContain("next: 1 row rejected by the service: see result_message in sheets/march.results.csv; fix those rows and run again");
    expect(text).toContain("next: 3 rows failed: see result_message in sheets/march.results.csv; run again later: failed rows are sent again");
    expect(text).not.toContain("--retry-unknown");
  });

  it("tells the user that a re-run checks unknown numbers with PortInStatus, and what --retry-unknown adds", () => {
    const text = withOutcomes(statuses({ submitted: 5, unknown: 1 }));
    expect(text).toMatch(/next: 1 row unknown .*run again with the same --state: each is checked with PortInStatus first .*add --retry-unknown to resend those it lacks/);
    expect(text).not.toContain("see result_message");
  });

  it("says an interrupted run's unsent rows need only a re-run, not a look at why they failed", () => {
    const text = withOutcomes([...statuses({ submitted: 3 }), ...Array.from({ length: 4 }, () => ({ status: "failed" as const, next: "run-again-interrupted" as const }))]);
    expect(text).toContain("next: interrupted: run again to send the 4 rows not sent (the journal skips what was submitted)");
    expect(text).not.toMatch(/next: 4 rows failed/);
  });

  it("after unsure numbers were checked, says what the check found instead of asking for a re-run to check them", () => {
    const text = withOutcomes([
      { status: "unknown", next: "retry-unknown" },
      { status: "unknown", next: "retry-unknown" },
      { status: "unknown", next: "run-again-to-check" },
      { status: "rejected", next: "fix-or-retry-rejected" },
    ]);
    expect(text).toContain("next: 2 rows unknown (PortInStatus finds no port-in for them): run again with --retry-unknown to send them");
    expect(text).toContain("next: 1 row unknown (checking PortInStatus failed, so they were not sent again): run again later to check them");
    expect(text).toContain("next: 1 row rejected by an earlier run and unchanged since: fix them and run again, or pass --retry-rejected");
    expect(text).not.toContain("each is checked with PortInStatus first");
  });

  it("names standard output when the results went there", () => {
    const text = withOutcomes(statuses({ invalid: 1 }), "-");
    expect(text).toContain("results: standard output");
    expect(text).toContain("see result_message in the results on standard output");
  });

  it("prints minutes for a long run", () => {
    expect(formatSummary({ ...base, elapsedMs: 125_000 })).toContain("sent 3 requests in 2 min 5 s, 0.0 requests/s");
  });
});

describe("summaryJson", () => {
  it("is one JSON document with stable keys and all seven statuses", () => {
    const json = summaryJson(
      summarize({
        command: "plan",
        outcomes: statuses({ planned: 2, invalid: 1 }),
        requests: [{ operation: dids }],
        elapsedMs: 12.6,
        results: "-",
        service: { kind: "sandbox" },
      }),
      1,
    );
    expect(json).not.toContain("\n");
    const parsed = JSON.parse(json) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["command", "counts", "next", "requests", "requestsByOperation", "rowsByOperation", "elapsedMs", "results", "service", "sandbox", "exitCode"]);
    expect(Object.keys(parsed.counts as object)).toEqual([...ROW_STATUSES]);
    expect(parsed).toEqual({
      command: "plan",
      counts: counts({ planned: 2, invalid: 1 }),
      next: [{ step: "fix-row", status: "invalid", rows: 1, advice: "1 row invalid: fix them (see result_message in the results) and run again" }],
      requests: 1,
      requestsByOperation: { "POST /v2/NumberPorts/Inbound/DIDs": 1 },
      rowsByOperation: { "(no operation)": { planned: 2, invalid: 1 } },
      elapsedMs: 13,
      results: "-",
      service: "the built-in sandbox",
      sandbox: true,
      exitCode: 1,
    });
  });
});
