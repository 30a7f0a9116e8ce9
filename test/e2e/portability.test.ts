/**
 * `--check-portability` (docs/contract.md §3, "Portability"): numbers outside the service's
 * portable NPA-NXX list are invalid before anything is planned; the list once per run, one
 * Check per distinct NPA-NXX when the list fails, exit 2 when both fail; never a port-in POST
 * from `plan`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { NPANXX_CHECK_PATH, NPANXX_PATH } from "../../src/service/answers.js";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { against, readResults, runCli, tempDir } from "./harness.js";
import { postedNumbers, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandboxed(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ seed: 2 });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** 613-555 is not portable in fixtures/sandbox-account.json; 416-555 and 514-555 are. */
const NUMBERS = ["4165557001", "6135557002", "5145557003", "6135557004"];

const requestsTo = (s: RunningSandbox, method: string, path: string): number => s.served().filter((r) => r.method === method && r.path === path).length;
const portInPosts = (s: RunningSandbox): number => s.received().filter((r) => r.path.includes("/NumberPorts/Inbound/")).length;

describe("--check-portability", () => {
  it("on plan: fetches the list once, makes the numbers outside it invalid, and POSTs nothing", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", NUMBERS);
    const run = await runCli(["plan", sheet, "--check-portability", ...against(s)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("portin plan: 4 rows: 2 planned, 2 invalid");
    const rows = await readResults(join(dir, "acme.plan.csv"));
    expect(rows.map((r) => [r.result_status, r.result_message])).toEqual([
      ["planned", NO_E911_ADDRESS],
      ["invalid", "NPA-NXX 613-555 is not portable to this service; remove the row, or port this number another way"],
      ["planned", NO_E911_ADDRESS],
      ["invalid", "NPA-NXX 613-555 is not portable to this service; remove the row, or port this number another way"],
    ]);
    expect(requestsTo(s, "GET", NPANXX_PATH)).toBe(1);
    expect(requestsTo(s, "POST", NPANXX_CHECK_PATH)).toBe(0);
    expect(s.received()).toEqual([]);
  });

  it("on submit: sends only the portable numbers", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", NUMBERS);
    const run = await runCli(["submit", sheet, "--check-portability", ...against(s)]);
    expect(run.code).toBe(1);
    expect(postedNumbers(s)).toEqual(["4165557001", "5145557003"]);
    expect((await readResults(join(dir, "acme.results.csv"))).map((r) => r.result_status)).toEqual(["submitted", "invalid", "submitted", "invalid"]);
  });

  it("falls back to one Check per distinct NPA-NXX when the list cannot be had", async () => {
    const s = await sandboxed();
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    proxy.rule = (method, path) => (method === "GET" && path === NPANXX_PATH ? "fail" : "forward");
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", NUMBERS);

    const run = await runCli(["plan", sheet, "--check-portability", "--retries", "0", ...through(proxy, s)]);
    expect(run.code).toBe(1);
    expect(proxy.failed).toEqual([`GET ${NPANXX_PATH}`]);
    const checked = s.received().filter((r) => r.path === NPANXX_CHECK_PATH).map((r) => r.body);
    expect(checked.sort()).toEqual(["514555", "613555", "416555"].sort());
    expect((await readResults(join(dir, "acme.plan.csv"))).map((r) => r.result_status)).toEqual(["planned", "invalid", "planned", "invalid"]);
    expect(portInPosts(s)).toBe(0);
  });

  it("stops with exit 2, naming why, when neither the list nor the Check answers, and writes no results", async () => {
    const s = await sandboxed();
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    proxy.rule = (_method, path) => (path === NPANXX_PATH || path === NPANXX_CHECK_PATH ? "fail" : "forward");
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", NUMBERS);

    const run = await runCli(["submit", sheet, "--check-portability", "--retries", "0", ...through(proxy, s)]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^portin: --check-portability: cannot learn which NPA-NXX the service ports in: the list failed \(GET \/NumberPorts\/LNP\/NPANXX answered 500 Internal Server Error: .+\) and so did the check of \d{3}-\d{3} \(POST \/NumberPorts\/LNP\/NPANXX\/Check answered 500 .+\); try again later, or leave out --check-portability\n$/,
    );
    expect(portInPosts(s)).toBe(0);
    expect(existsSync(join(dir, "acme.results.csv"))).toBe(false);
  });

  it("is off by default: no list is fetched, and the service itself refuses such a number", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", ["6135557002"]);
    expect((await runCli(["plan", sheet, ...against(s)])).code).toBe(0);
    expect(requestsTo(s, "GET", NPANXX_PATH)).toBe(0);
    const run = await runCli(["submit", sheet, ...against(s)]);
    expect(run.code).toBe(1);
    expect((await readResults(join(dir, "acme.results.csv")))[0]).toMatchObject({
      result_status: "rejected",
      result_message: "6135557002 is not portable: the service does not port in NPA-NXX 613-555; remove the row, or port this number another way",
    });
  });
});
