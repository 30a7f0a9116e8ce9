/**
 * docs/contract.md §5: a PortInStatus that is down settles unsure numbers fast. The breaker
 * counts failed attempts (got's retries included), not questions: with 500s, 503s, cut
 * connections or no answer at all, a re-run with --retry-unknown makes a bounded number of
 * GETs and leaves the numbers `unknown`, never sent again. The GETs are what is asserted; the
 * time bounds are the contract's (5 numbers in 15 s, 300 in 60 s), far above what a run takes.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BREAK_AFTER_FAILURES } from "../../src/engine/port-in-status.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { readResults, runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";
import type { FaultyProxy, ProxyAction } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const isPortInPost = (method: string, path: string): boolean => method === "POST" && path.includes("/NumberPorts/Inbound/");
const isStatusGet = (method: string, path: string): boolean => method === "GET" && path.endsWith("/PortInStatus");

/** `count` numbers sent one a request, each accepted by the service but answered 500: all `unknown`. */
async function unsure(count: number): Promise<{ s: RunningSandbox; proxy: FaultyProxy; sheet: string; dir: string; firstMs: number }> {
  const s = await startSandbox();
  cleanups.push(() => s.close());
  const proxy = await faultyProxy(s);
  cleanups.push(() => proxy.close());
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "acme.csv", numbers(count, 7000));
  proxy.rule = (method, path) => (isPortInPost(method, path) ? "swallow" : "forward");
  const started = performance.now();
  const first = await runCli(["submit", sheet, "--max-per-request", "1", ...through(proxy, s)]);
  const firstMs = performance.now() - started;
  expect(first.stderr).toContain(`${count} rows: ${count} unknown`);
  return { s, proxy, sheet, dir, firstMs };
}

/** A re-run with --retry-unknown and the default 5 retries while PortInStatus answers with `fault`. */
async function rerunWhileDown(count: number, fault: ProxyAction, extra: string[] = []): Promise<{ gets: number; ms: number }> {
  const { s, proxy, sheet, dir, firstMs } = await unsure(count);
  proxy.rule = (method, path) => (isStatusGet(method, path) ? fault : "forward");
  const posts = s.received().length;
  const started = performance.now();
  // Without the account's order list, which would show these numbers held and settle them
  // without PortInStatus (docs/contract.md §5): this is about PortInStatus alone.
  const run = await runCli(["submit", sheet, "--max-per-request", "1", "--retry-unknown", "--no-order-check", ...extra, ...through(proxy, s)]);
  const ms = performance.now() - started;
  expect(run.code).toBe(1);
  expect(s.received()).toHaveLength(posts);
  const rows = await readResults(join(dir, "acme.results.csv"));
  expect(rows.filter((r) => r.result_status === "unknown")).toHaveLength(count);
  expect(run.stderr).toContain(`next: ${count} rows unknown (checking PortInStatus failed, so they were not sent again)`);
  // The contract's bound is on waiting (retries, backoff, timeouts), not on this CPU: the time the
  // first run of the same sheet took, start-up and reading and writing alike, is not counted.
  return { gets: proxy.failed.filter((line) => line.startsWith("GET ")).length, ms: ms - firstMs };
}

/** Eight failed attempts open the breaker; questions already waiting to retry make at most their one attempt more. */
const MOST_GETS = BREAK_AFTER_FAILURES + 3;

describe("a re-run with --retry-unknown while PortInStatus is down", () => {
  it.each([
    ["answers 500", { status: 500 }],
    ["answers 503", { status: 503 }],
    ["cuts the connection", "reset"],
  ] as const)("settles 5 unsure numbers in a few GETs when it %s", async (_, fault) => {
    const { gets, ms } = await rerunWhileDown(5, fault);
    expect(gets).toBeGreaterThanOrEqual(5);
    expect(gets).toBeLessThanOrEqual(MOST_GETS);
    expect(ms).toBeLessThan(15_000);
  });

  it("settles 5 unsure numbers when it never answers, in one round of --timeout", async () => {
    const { gets, ms } = await rerunWhileDown(5, "hang", ["--timeout", "1000"]);
    expect(gets).toBeLessThanOrEqual(MOST_GETS);
    expect(ms).toBeLessThan(15_000);
  });

  it("settles 300 unsure numbers, sent one a request, with no more GETs than 5 take", async () => {
    const { gets, ms } = await rerunWhileDown(300, { status: 500 });
    expect(gets).toBeLessThanOrEqual(MOST_GETS);
    expect(ms).toBeLessThan(60_000);
  });
});
