import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../../src/journal/journal.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "../e2e/harness.js";
import { acceptedCounts, numbers, trunkSheetOf } from "../e2e/ledger.js";
import { numbersIn } from "../support/states.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxed(): Promise<RunningSandbox> {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/**
 * A real file system that fills up: a tmpfs of `size` mounted at `path`. Needs root (or
 * CAP_SYS_ADMIN), which this drill assumes rather than faking a full disk that cannot fail.
 */
async function smallDisk(path: string, size: string): Promise<{ grow(size: string): void }> {
  await mkdir(path, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", path], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`this drill mounts a ${size} tmpfs at ${path} and needs root (CAP_SYS_ADMIN): ${String(error)}`, { cause: error });
  }
  cleanups.push(() => execFileSync("umount", [path], { stdio: "pipe" }));
  return { grow: (bigger) => execFileSync("mount", ["-o", `remount,size=${bigger}`, path], { stdio: "pipe" }) };
}

describe("drill: results and journal that cannot be written", () => {
  it("exits 2 for an unwritable results path with one line naming it, sends nothing, and leaves the journal usable", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(5));
    const unwritable = join(dir, "no-such-folder", "numbers.results.csv");

    const run = await runCli(["submit", sheet, "--state", state, "--results", unwritable, ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(unwritable);
    expect(s.received()).toEqual([]);
    const postsBefore = s.received().length;
    expect(existsSync(unwritable)).toBe(false);
    const prior = await readJournal(state, { service: { kind: "remote", baseUrl: `${s.url}/` }, user: s.user, version: "" });
    expect(numbersIn(prior, "submitted").size + numbersIn(prior, "pending").size + numbersIn(prior, "unknown").size).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);

    const next = await runCli(["submit", sheet, "--state", state, ...against(s)]);
    expect(next.code).toBe(0);
    expect(acceptedCounts(s).size).toBe(5);
    console.log(`drill unwritable results: exit ${run.code}, ${postsBefore} POSTs before the path was fixed, next run exit ${next.code}`);
  });

  it("exits 2 when the journal's disk fills, with a clear message; the journal stays readable and no row is lost", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    // Two 4 KiB pages: one for the lock file, one for the journal, which fills after some 15 requests.
    const disk = await smallDisk(join(dir, "disk"), "8k");
    const state = join(dir, "disk", "numbers.state.jsonl");
    const list = numbers(40);
    const sheet = await trunkSheetOf(dir, "numbers.csv", list);
    const oneAtATime = ["--state", state, "--max-per-request", "1", "--concurrency", "1", ...against(s)];

    const full = await runCli(["submit", sheet, ...oneAtATime]);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain(`portin: cannot write state file ${state} (ENOSPC: no space left on device`);
    expect(full.stderr).toContain("nothing more is sent: free the space or fix the permissions, then run again with the same --state");
    const rows = await readResults(join(dir, "numbers.results.csv"));
    expect(rows.map((row) => row.result_number)).toEqual(list);
    const submitted = rows.filter((row) => row.result_status === "submitted").map((row) => row.result_number);
    const notSent = rows.filter((row) => row.result_status === "failed");
    expect(submitted.length + notSent.length).toBe(list.length);
    expect(submitted.length).toBeGreaterThan(0);
    expect(notSent.length).toBeGreaterThan(0);
    for (const row of notSent) expect(row.result_message).toMatch(/^not sent: cannot write state file/);
    expect(s.accepted().flatMap((request) => request.numbers)).toEqual(submitted);

    // Still full: a dry run reads the journal (its torn tail ignored) and accounts for every row.
    const plan = await runCli(["plan", sheet, "--state", state, "--results", join(dir, "plan.results.csv"), ...against(s)]);
    expect(plan.code).toBe(0);
    const planned = await readResults(join(dir, "plan.results.csv"));
    expect(planned.filter((row) => row.result_status === "skipped").map((row) => row.result_number)).toEqual(submitted);
    expect(planned.filter((row) => row.result_status === "planned")).toHaveLength(notSent.length);

    disk.grow("1m");
    const freed = await runCli(["submit", sheet, ...oneAtATime]);
    expect(freed.code).toBe(0);
    const final = await readResults(join(dir, "numbers.results.csv"));
    expect(final.filter((row) => row.result_status !== "submitted" && row.result_status !== "skipped")).toEqual([]);
    const counts = acceptedCounts(s);
    expect(list.filter((n) => counts.get(n) !== 1)).toEqual([]);
    console.log(
      `drill full disk: exit ${full.code} after ${submitted.length}/${list.length} numbers sent, ${notSent.length} rows 'not sent'; ` +
        `dry run on the full disk exit ${plan.code}; after freeing space exit ${freed.code}, ${counts.size}/${list.length} accepted exactly once`,
    );
  });
});
