import { describe, expect, it } from "vitest";
import { AuthError } from "../../src/errors.js";
import { derivePriorState } from "../../src/journal/prior.js";
import type { PriorState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";
import { reviewEarlierRuns } from "../../src/engine/earlier-runs.js";
import type { ReviewOptions } from "../../src/engine/earlier-runs.js";
import { createClient } from "../../src/service/client.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import type { ValidRow } from "../../src/validate/types.js";
import { json, serversClosedAfterEach } from "../service/http-server.js";

const DIDS = operationById("dids") as Operation;

function row(number: string, index = 0): ValidRow {
  return { valid: true, index, line: index + 2, number, numberKind: "regular", operation: DIDS, target: "4165550100", group: "", portForm: {}, request: {}, item: {} };
}

/** Earlier runs: 0101 submitted; 0102 and 0103 sent without an outcome; 0104 and 0105 answered 500. */
const PRIOR: PriorState = derivePriorState([
  { type: "intent", requestId: "A", operation: "dids", numbers: ["4165550101"], at: "t" },
  { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-000001", at: "t" },
  { type: "intent", requestId: "B", operation: "dids", numbers: ["4165550102", "4165550103"], at: "t" },
  { type: "intent", requestId: "C", operation: "dids", numbers: ["4165550104", "4165550105"], at: "t" },
  { type: "outcome", requestId: "C", status: "unknown", httpStatus: 500, message: "500 Internal Server Error", at: "t" },
] satisfies JournalRecord[]);

const start = serversClosedAfterEach();

/**
 * A service whose PortInStatus knows `present` (number => ticket), fails for `broken` with
 * `brokenStatus`, and answers 404 otherwise; it records the most checks it had in flight.
 */
async function service(present: Record<string, string | { ticket: string; status: string }>, broken: string[] = [], brokenStatus = 503) {
  let inFlight = 0;
  const seen = { most: 0 };
  const server = await start((req, res, arrival) => {
    inFlight++;
    seen.most = Math.max(seen.most, inFlight);
    const number = /Numbers\/(\d{10})\/PortInStatus/.exec(arrival.url)?.[1] ?? "";
    setTimeout(() => {
      inFlight--;
      if (broken.includes(number)) json(res, brokenStatus, { ID: "Unavailable", Message: "status service down" });
      else if (present[number]) {
        const found = present[number];
        const [ticket, status] = typeof found === "string" ? [found, "SUBMITTED"] : [found.ticket, found.status];
        json(res, 200, { TicketId: ticket, Status: status, PortDate: "", RejectReason: "", RejectSummary: "" });
      }
      else json(res, 404, { ID: "NotFound", Message: "no port-in" });
    }, 20);
  });
  const client = createClient({
    baseUrl: server.url,
    user: "acme",
    password: "pw",
    timeoutMs: 2_000,
    retries: 0,
    allowInsecureHttp: false,
    userAgent: "portin/test",
  });
  return { server, client, seen };
}

function options(portInStatus: ReviewOptions["portInStatus"], extra: Partial<ReviewOptions> = {}): ReviewOptions {
  return { portInStatus, record: null, concurrency: 2, signal: new AbortController().signal, retryUnknown: false, retryRejected: false, ...extra };
}

const ROWS = ["4165550101", "4165550102", "4165550103", "4165550104", "4165550105", "4165550106"].map(row);

describe("re-running over earlier runs' numbers", () => {
  it("skips a submitted number with its earlier ticket without asking the service about it", async () => {
    const { server, client } = await service({});
    const earlier = await reviewEarlierRuns(PRIOR, [row("4165550101")], options((n) => client.portInStatus(n)));
    expect(earlier.settle(row("4165550101"))).toMatchObject({
      status: "skipped",
      ticket: "PI-000001",
      message: "submitted by an earlier run; not sent again",
    });
    expect(server.arrivals).toEqual([]);
  });

  it("asks PortInStatus only about pending and unknown numbers, skips those it has with its ticket, and records them", async () => {
    const { server, client } = await service({ "4165550102": "PI-000002", "4165550104": "PI-000004" });
    const recorded: string[][] = [];
    const earlier = await reviewEarlierRuns(
      PRIOR,
      ROWS,
      options((n) => client.portInStatus(n), { record: (number, ticket, status) => (recorded.push([number, ticket, status]), Promise.resolve()) }),
    );
    expect(server.arrivals.map((a) => a.url).sort()).toEqual(
      ["4165550102", "4165550103", "4165550104", "4165550105"].map((n) => `/v2/NumberPorts/Inbound/Numbers/${n}/PortInStatus`),
    );
    expect(earlier.settle(row("4165550102"))).toMatchObject({
      status: "skipped",
      ticket: "PI-000002",
      message: "accepted by an earlier run (confirmed by PortInStatus: SUBMITTED); not sent again",
    });
    expect(earlier.settle(row("4165550104"))).toMatchObject({ status: "skipped", ticket: "PI-000004" });
    expect(recorded.sort()).toEqual([
      ["4165550102", "PI-000002", "SUBMITTED"],
      ["4165550104", "PI-000004", "SUBMITTED"],
    ]);
    // Never sent by an earlier run: planned as usual.
    expect(earlier.settle(row("4165550106"))).toBeNull();
  });

  it("keeps a number the service lacks unknown without --retry-unknown, saying how to resend it", async () => {
    const { client } = await service({});
    const earlier = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n)));
    expect(earlier.settle(row("4165550103"))).toMatchObject({
      status: "unknown",
      ticket: "",
      message:
        "an earlier run sent this number and stopped before learning the outcome; PortInStatus finds no port-in for it: re-run with --retry-unknown to send it again",
    });
    expect(earlier.settle(row("4165550105"))?.message).toMatch(/^an earlier run sent this number but could not learn the outcome \(500 Internal Server Error\)/);
  });

  it.each(["CANCELLED", "Rejected"])("treats a port-in whose status is %s as ended: unknown, resent only with --retry-unknown, never recorded", async (status) => {
    const { client } = await service({ "4165550103": { ticket: "OLD-77", status } });
    const recorded: string[] = [];
    const record = (number: string) => (recorded.push(number), Promise.resolve());
    const without = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { record }));
    expect(without.settle(row("4165550103"))).toMatchObject({
      status: "unknown",
      message: `an earlier run sent this number and stopped before learning the outcome; PortInStatus says ${status}: re-run with --retry-unknown to send it again`,
    });
    const withRetry = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { record, retryUnknown: true }));
    expect(withRetry.settle(row("4165550103"))).toBeNull();
    expect(recorded).toEqual([]);
  });

  it("takes a status that is not a known ended one, such as CANCEL_PENDING, as present: never resent", async () => {
    const { client } = await service({ "4165550103": { ticket: "OLD-78", status: "CANCEL_PENDING" } });
    const earlier = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { retryUnknown: true }));
    expect(earlier.settle(row("4165550103"))).toMatchObject({ status: "skipped", ticket: "OLD-78" });
  });

  it("plans a number the service lacks with --retry-unknown, and still skips one it has", async () => {
    const { client } = await service({ "4165550102": "PI-000002" });
    const earlier = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { retryUnknown: true }));
    expect(earlier.settle(row("4165550103"))).toBeNull();
    expect(earlier.settle(row("4165550102"))).toMatchObject({ status: "skipped", ticket: "PI-000002" });
  });

  it.each([503, 500])("never resends a number whose status check answered %i, even with --retry-unknown, and says the check failed", async (status) => {
    const { client } = await service({}, ["4165550103"], status);
    const earlier = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { retryUnknown: true }));
    const settled = earlier.settle(row("4165550103"));
    expect(settled).toMatchObject({ status: "unknown", ticket: "" });
    expect(settled?.message).toMatch(/checking its port-in status failed \(.*PortInStatus answered 50\d.*\), so it is not sent again: re-run later to check again$/);
    expect(earlier.settle(row("4165550102"))).toBeNull();
  });

  it("stops at a refused credential, since nothing could be sent either", async () => {
    const { client } = await service({}, ["4165550102", "4165550103", "4165550104", "4165550105"], 401);
    await expect(reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n)))).rejects.toBeInstanceOf(AuthError);
  });

  it("has at most --concurrency checks in flight", async () => {
    const prior = derivePriorState([
      { type: "intent", requestId: "X", operation: "dids", numbers: Array.from({ length: 12 }, (_, i) => `41655502${String(i).padStart(2, "0")}`), at: "t" },
    ]);
    const rows = Array.from({ length: 12 }, (_, i) => row(`41655502${String(i).padStart(2, "0")}`, i));
    const { server, client, seen } = await service({});
    await reviewEarlierRuns(prior, rows, options((n) => client.portInStatus(n), { concurrency: 3 }));
    expect(server.arrivals).toHaveLength(12);
    expect(seen.most).toBe(3);
  });

  it("checks nothing more once interrupted, leaving those numbers unknown and never resent", async () => {
    const { server, client } = await service({});
    const interrupt = new AbortController();
    interrupt.abort("SIGINT");
    const earlier = await reviewEarlierRuns(PRIOR, ROWS, options((n) => client.portInStatus(n), { retryUnknown: true, signal: interrupt.signal }));
    expect(server.arrivals).toEqual([]);
    expect(earlier.settle(row("4165550103"))).toMatchObject({ status: "unknown" });
    expect(earlier.settle(row("4165550103"))?.message).toContain("not checked: run interrupted by SIGINT");
  });

  it("settles nothing without a journal", async () => {
    const earlier = await reviewEarlierRuns(null, ROWS, options(() => Promise.reject(new Error("must not be asked"))));
    expect(ROWS.map((r) => earlier.settle(r))).toEqual(ROWS.map(() => null));
  });
});
