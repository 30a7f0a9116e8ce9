/**
 * The journal's status history (docs/contract.md §6): every status `status` learns is
 * recorded per order, and a number whose status cannot be learned this time (an interrupted
 * run, PortInStatus down) keeps its last known one, with when it was learned, never a blank.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import type { FaultyProxy } from "./proxy.js";
import { e911Defaults, readResults, runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const isStatusGet = (method: string, path: string): boolean => method === "GET" && path.endsWith("/PortInStatus");

/**
 * 300 numbers submitted in 3 orders on a Monday, and a status on Tuesday that learned their
 * port dates; `extra` is given to each command (a --defaults file, say).
 */
async function confirmedOrders(extra: (dir: string) => Promise<string[]> = () => Promise.resolve([])): Promise<{ s: RunningSandbox; proxy: FaultyProxy; sheet: string; dir: string; options: string[] }> {
  const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 5 });
  cleanups.push(() => s.close());
  const proxy = await faultyProxy(s);
  cleanups.push(() => proxy.close());
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "acme.csv", numbers(300));
  const options = await extra(dir);
  expect((await runCli(["submit", sheet, ...options, ...through(proxy, s)])).code).toBe(0);
  s.advanceDays(1);
  expect((await runCli(["status", sheet, ...options, ...through(proxy, s)])).code).toBe(0);
  return { s, proxy, sheet, dir, options };
}

describe("status history", () => {
  it("records one status per order per check, with its port date and numbers", async () => {
    const { dir } = await confirmedOrders();
    const records = (await readFile(join(dir, "acme.state.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.type === "status");
    expect(records.map((r) => [r.ticket, r.status, r.portDate, (r.numbers as string[]).length])).toEqual([
      ["PI-000001", "CONFIRMED", "2026-03-05", 100],
      ["PI-000002", "CONFIRMED", "2026-03-05", 100],
      ["PI-000003", "CONFIRMED", "2026-03-05", 100],
    ]);
  });

  it("an interrupted status keeps every known status and port date, with when it was learned", async () => {
    const { s, proxy, sheet, dir } = await confirmedOrders();
    const learned = (await readResults(join(dir, "acme.status.csv"))).map((row) => row.status_checked_at);
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "hang" : "forward");

    const run = await runCli(["status", sheet, "--timeout", "2000", "--retries", "0", ...through(proxy, s)], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (proxy.held.length === 0) return;
          clearInterval(poll);
          child.kill("SIGINT");
        }, 20);
        child.on("close", () => clearInterval(poll));
      },
    });
    expect(run.code).toBe(130);
    const rows = await readResults(join(dir, "acme.status.csv"));
    expect(rows).toHaveLength(300);
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ status: "CONFIRMED", status_port_date: "2026-03-05", status_checked_at: learned[i] });
      expect(row.status_message).toMatch(/^CONFIRMED \(port date 2026-03-05\) as last learned at .+; (not checked: run interrupted by SIGINT|.*no answer within 2000 ms.*): run portin status again later$/);
    }
  });

  it("PortInStatus down keeps a COMPLETED order completed, with its port date", async () => {
    // Each number given its 9-1-1 address: a completed one is safe to use, and status exits 0 for it.
    const { s, proxy, sheet, dir, options } = await confirmedOrders(async (at) => ["--defaults", await e911Defaults(at)]);
    s.advanceDays(3);
    expect((await runCli(["status", sheet, ...options, ...through(proxy, s)])).code).toBe(0);
    proxy.rule = (method, path) => (isStatusGet(method, path) ? "fail" : "forward");
    const run = await runCli(["status", sheet, "--retries", "0", ...options, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    const rows = await readResults(join(dir, "acme.status.csv"));
    expect(new Set(rows.map((r) => `${r.status} ${r.status_port_date}`))).toEqual(new Set(["COMPLETED 2026-03-05"]));
  });
});
