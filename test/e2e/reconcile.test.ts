/**
 * Reconciling unsure numbers at scale (docs/contract.md §5, "What a re-run does"), against a
 * service that accepted 3 requests of 100 numbers and then answered 500: one PortInStatus per
 * request settles the rest, and a PortInStatus that is down stops being asked. The counts are
 * asserted here, as docs/after-cutover.md ("Thousands of numbers, and a PortInStatus that is
 * down") describes them.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BREAK_AFTER_FAILURES } from "../../src/engine/port-in-status.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { readResults, runCli, tempDir, WITHOUT_E911_END, withoutE911 } from "./harness.js";
import { numbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";
import type { FaultyProxy } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const isPortInPost = (method: string, path: string): boolean => method === "POST" && path.includes("/NumberPorts/Inbound/");
const isStatusGet = (method: string, path: string): boolean => method === "GET" && path.endsWith("/PortInStatus");

/** A sandbox behind a proxy, and a sheet of `count` numbers the service accepted in requests of `perRequest` while answering 500. */
async function acceptedButAnswered500(count: number, perRequest: number): Promise<{ s: RunningSandbox; proxy: FaultyProxy; sheet: string; dir: string }> {
  const s = await startSandbox({ seed: 3 });
  cleanups.push(() => s.close());
  const proxy = await faultyProxy(s);
  cleanups.push(() => proxy.close());
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "acme.csv", numbers(count, 5000));
  proxy.rule = (method, path) => (isPortInPost(method, path) ? "swallow" : "forward");
  const first = await runCli(["submit", sheet, "--max-per-request", String(perRequest), ...through(proxy, s)]);
  expect(first.code).toBe(1);
  expect(first.stderr).toContain(`portin submit: ${count} rows: ${count} unknown`);
  expect(s.accepted()).toHaveLength(count / perRequest);
  return { s, proxy, sheet, dir };
}

function statusGets(s: RunningSandbox, from: number): number {
  return s.served().slice(from).filter((r) => isStatusGet(r.method, r.path)).length;
}

describe("a re-run after a service accepted 3 requests of 100 and answered 500", () => {
  it("confirms all 300 numbers with one PortInStatus per request, and sends nothing", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(300, 100);
    proxy.rule = () => "forward";
    const posts = s.received().length;
    const served = s.served().length;

    const run = await runCli(["submit", sheet, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(statusGets(s, served)).toBe(3);
    expect(s.received()).toHaveLength(posts);
    const tickets = ticketsByNumber(s);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.filter((r) => r.result_status === "skipped" && r.result_ticket === tickets.get(r.result_number!))).toHaveLength(300);
    expect(rows[0]!.result_message).toBe(withoutE911("accepted by an earlier run (confirmed by PortInStatus: SUBMITTED); not sent again"));

    // What it learned is in the journal: the next run asks nothing.
    const again = s.served().length;
    expect((await runCli(["submit", sheet, ...through(proxy, s)])).code).toBe(0);
    expect(statusGets(s, again)).toBe(0);
  });

  it("with PortInStatus down, stops asking after a few failed checks: all 300 stay unknown, not checked, none sent", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(300, 100);
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "fail" : "forward");
    const posts = s.received().length;

    // Without the order list, which would show them held (account-orders.test.ts): PortInStatus alone decides.
    const run = await runCli(["submit", sheet, "--retries", "1", "--retry-unknown", "--no-order-check", ...through(proxy, s)]);
    expect(run.code).toBe(1);
    // One question per request, each tried twice (--retries 1), then single numbers until the
    // eighth failed attempt in a row opens the breaker, which stops the rest.
    expect(proxy.failed.filter((line) => line.startsWith("GET "))).toHaveLength(BREAK_AFTER_FAILURES);
    expect(s.received()).toHaveLength(posts);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.filter((r) => r.result_status === "unknown")).toHaveLength(300);
    const messages = new Set(rows.map((r) => r.result_message));
    expect([...messages].every((m) => new RegExp(`checking its port-in status failed \\(.+\\), so it is not sent again: re-run later to check again${WITHOUT_E911_END}`).test(m!))).toBe(true);
    expect(rows.filter((r) => r.result_message!.includes("(not checked: PortInStatus unavailable)"))).toHaveLength(300 - BREAK_AFTER_FAILURES / 2); // each question asked made two attempts
    expect(run.stderr).toContain("next: 300 rows unknown (checking PortInStatus failed, so they were not sent again): run again later to check them");
  });

  it("with PortInStatus down and 300 requests of one number, asks no more than the breaker's failed attempts in a row", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(300, 1);
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "fail" : "forward");

    const run = await runCli(["submit", sheet, "--retries", "0", "--no-order-check", ...through(proxy, s)]);
    expect(run.code).toBe(1);
    const asked = proxy.failed.filter((line) => line.startsWith("GET ")).length;
    // Four in flight (--concurrency 4), then one at a time until the eighth failure; none started after.
    expect(asked).toBe(BREAK_AFTER_FAILURES);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.filter((r) => r.result_status === "unknown")).toHaveLength(300);
    expect(rows.filter((r) => r.result_message!.includes("(not checked: PortInStatus unavailable)"))).toHaveLength(300 - asked);
  });

  it("with one request's order missing, asks that request's numbers one by one and the others once", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(30, 10);
    // A fourth request that never reached the service: ten more numbers, lost before the sandbox.
    const more = numbers(10, 6000);
    const all = [...numbers(30, 5000), ...more];
    await trunkSheetOf(dir, "acme.csv", all);
    proxy.rule = (method, path) => (isPortInPost(method, path) || isStatusGet(method, path) ? "fail" : "forward");
    expect((await runCli(["submit", sheet, "--max-per-request", "10", "--retries", "0", ...through(proxy, s)])).code).toBe(1);
    expect(s.accepted()).toHaveLength(3);
    proxy.rule = () => "forward";
    const served = s.served().length;

    const run = await runCli(["submit", sheet, "--max-per-request", "10", "--retry-unknown", ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(statusGets(s, served)).toBe(3 + 10);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.slice(0, 30).every((r) => r.result_status === "skipped")).toBe(true);
    expect(rows.slice(30).every((r) => r.result_status === "submitted")).toBe(true);
  });

  it("with PortInStatus down and the order list up, asks no more than without the list: one breaker for every question, nothing sent", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(40, 1);
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "fail" : "forward");
    const posts = s.received().length;

    const run = await runCli(["submit", sheet, "--retry-unknown", ...through(proxy, s)]);
    expect(run.code).toBe(1);
    expect(s.received()).toHaveLength(posts);
    // The account check's questions (one per order) open the breaker; the unsure numbers, all
    // held by the list's orders, need none of their own.
    const asked = proxy.failed.filter((line) => line.startsWith("GET ")).length;
    expect(asked).toBeGreaterThanOrEqual(BREAK_AFTER_FAILURES);
    expect(asked).toBeLessThan(BREAK_AFTER_FAILURES + 4); // at most the questions in flight as it opens finish their attempt
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toMatch(/^accepted by an earlier run: the account's order list shows it in open order \d+ \(PortInStatus failed: .+\); not sent again: run again later/);
    }
  });

  it("with PortInStatus down, 5 unsure numbers of one order cost one question's attempts with the list up, and the breaker's with it down", async () => {
    const { s, proxy, sheet, dir } = await acceptedButAnswered500(5, 5);
    const posts = s.received().length;
    const failedGets = (from: number): number => proxy.failed.slice(from).filter((line) => line.startsWith("GET ")).length;

    // The list names the order; its one PortInStatus question makes 1 + --retries attempts, then the rows wait for a ticket.
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "fail" : "forward");
    const up = await runCli(["submit", sheet, "--retry-unknown", ...through(proxy, s)]);
    expect(up.code).toBe(1);
    expect(failedGets(0)).toBe(6);
    for (const row of await readResults(join(dir, "acme.results.csv"))) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toMatch(/^accepted by an earlier run: the account's order list shows it in open order \d+ \(PortInStatus failed: .+\); not sent again: run again later/);
    }

    // The list fails too: its attempts and the unsure numbers' question share one breaker.
    const before = proxy.failed.length;
    proxy.rule = (method, path) => (method === "GET" && (isStatusGet(method, path) || path.endsWith("/PortInInfo")) ? "fail" : "forward");
    const down = await runCli(["submit", sheet, "--retry-unknown", ...through(proxy, s)]);
    expect(down.code).toBe(1);
    expect(failedGets(before)).toBe(BREAK_AFTER_FAILURES);
    const rows = await readResults(join(dir, "acme.results.csv"));
    for (const row of rows) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toMatch(new RegExp(`; checking its port-in status failed \\(.+\\), so it is not sent again: re-run later to check again${WITHOUT_E911_END}`));
    }
    // The request's first number was asked; the breaker opened before the others' turn.
    expect(rows.filter((row) => row.result_message!.includes("(not checked: PortInStatus unavailable)"))).toHaveLength(4);
    expect(s.received()).toHaveLength(posts);
  });
});
