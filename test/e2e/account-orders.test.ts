/**
 * The journal is a cache of the account, not its truth (docs/contract.md §4, §5): a renamed
 * sheet, a lost journal and an order list that cannot be had never send an ordered number
 * twice, and never call it `rejected`.
 */
import { copyFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { readResults, runCli, tempDir } from "./harness.js";
import { numbers, postedNumbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";
import type { FaultyProxy } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const ORDER_LIST = "/v2/NumberPorts/Inbound/Dashboard/PortInInfo";

/** A sandbox behind a proxy, and a sheet of 300 numbers submitted in 3 orders. */
async function submitted(): Promise<{ s: RunningSandbox; proxy: FaultyProxy; sheet: string; dir: string; tickets: Map<string, string> }> {
  const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 7 });
  cleanups.push(() => s.close());
  const proxy = await faultyProxy(s);
  cleanups.push(() => proxy.close());
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "team.csv", numbers(300));
  expect((await runCli(["submit", sheet, ...through(proxy, s)])).code).toBe(0);
  return { s, proxy, sheet, dir, tickets: ticketsByNumber(s) };
}

/** GETs of the order list and of PortInStatus since `from`. */
function gets(s: RunningSandbox, from: number): { list: number; status: number } {
  const served = s.served().slice(from).filter((r) => r.method === "GET");
  return { list: served.filter((r) => r.path === ORDER_LIST).length, status: served.filter((r) => r.path.endsWith("/PortInStatus")).length };
}

describe("numbers an order on the account already holds", () => {
  it("a renamed copy of the sheet sends nothing: every row skipped with its original ticket, 1 list + 1 PortInStatus per order", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    const copy = join(dir, "team v2 FINAL.csv");
    await copyFile(sheet, copy);
    const posts = s.received().length;
    const served = s.served().length;

    const plan = await runCli(["plan", copy, ...through(proxy, s)]);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("300 rows: 300 skipped");
    const run = await runCli(["submit", copy, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(s.received().length).toBe(posts);
    expect(gets(s, served)).toEqual({ list: 2, status: 6 });
    const rows = await readResults(join(dir, "team v2 FINAL.results.csv"));
    for (const row of rows) {
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: tickets.get(row.result_number!), result_message: `already in open order ${tickets.get(row.result_number!)!} placed outside this journal; not sent` });
    }

    // Journaled: the next run needs no PortInStatus, and says where the order came from.
    const again = s.served().length;
    expect((await runCli(["submit", copy, ...through(proxy, s)])).code).toBe(0);
    expect(gets(s, again)).toEqual({ list: 1, status: 0 });
    const later = await readResults(join(dir, "team v2 FINAL.results.csv"));
    expect(later[0]!.result_message).toBe(`already in order ${tickets.get(later[0]!.result_number!)!} placed outside this journal (recorded by an earlier run); not sent again`);
  });

  it("a deleted journal sends nothing, and status then follows the original tickets", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    await rm(join(dir, "team.state.jsonl"));
    const posts = s.received().length;
    const run = await runCli(["submit", sheet, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(s.received().length).toBe(posts);
    const rows = await readResults(join(dir, "team.results.csv"));
    expect(rows.every((row) => row.result_status === "skipped" && row.result_ticket === tickets.get(row.result_number!))).toBe(true);

    const status = await runCli(["status", sheet, ...through(proxy, s)]);
    expect(status.code).toBe(0);
    const report = await readResults(join(dir, "team.status.csv"));
    expect(report.every((row) => row.status === "SUBMITTED" && row.status_ticket === tickets.get(row.number!.replace(/\D/g, "")))).toBe(true);
  });

  it("with the order list unavailable, ends skipped after one pending answer each, never rejected; --retry-rejected then sends nothing", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    const copy = join(dir, "team-copy.csv");
    await copyFile(sheet, copy);
    proxy.rule = (method, path) => (method === "GET" && path === ORDER_LIST ? "fail" : "forward");
    const posts = s.received().length;

    const run = await runCli(["submit", copy, "--retries", "0", ...through(proxy, s)]);
    expect(run.stderr).toContain("portin: could not read the account's order list (");
    expect(run.code).toBe(0);
    // One POST per request, each answered "already has a pending port-in" for every number.
    expect(postedNumbers(s, posts)).toHaveLength(300);
    const rows = await readResults(join(dir, "team-copy.results.csv"));
    for (const row of rows) {
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: tickets.get(row.result_number!) });
      expect(row.result_message).toMatch(/^already in open order PI-\d+ placed outside this journal; not sent$/);
    }

    const after = s.received().length;
    const retry = await runCli(["submit", copy, "--retry-rejected", "--retries", "0", ...through(proxy, s)]);
    expect(retry.code).toBe(0);
    expect(s.received().length).toBe(after);
    expect((await readResults(join(dir, "team-copy.results.csv"))).every((row) => row.result_status === "skipped")).toBe(true);
  });

  it("--no-order-check reads no list", async () => {
    const { s, proxy, dir, sheet } = await submitted();
    const copy = join(dir, "again.csv");
    await copyFile(sheet, copy);
    const served = s.served().length;
    const run = await runCli(["plan", copy, "--no-order-check", ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("300 rows: 300 planned");
    expect(gets(s, served).list).toBe(0);
  });
});
