/**
 * Drill: destinations that cannot be written (docs/contract.md §4). Checked before the first
 * POST; and a write that fails after sending began never hides what was sent. Immutable files
 * and folders (chattr +i) refuse even root, which these drills run as; a full disk is a small tmpfs.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../../src/journal/journal.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { fixture } from "../e2e/fixtures.js";
import { against, runCli, tempDir } from "../e2e/harness.js";
import { numbers, ticketsByNumber, trunkSheetOf } from "../e2e/ledger.js";
import { numbersIn } from "../support/states.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxed(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** Makes `path` immutable (no write, rename or unlink, even by root) until the test ends. */
function immutable(path: string): void {
  execFileSync("chattr", ["+i", path], { stdio: "pipe" });
  cleanups.push(() => mutable(path));
}

function mutable(path: string): void {
  execFileSync("chattr", ["-i", path], { stdio: "pipe" });
}

function temporaries(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.includes(".tmp-"));
}

/** A folder on an 8 KiB tmpfs of its own, unmounted when the test ends: a disk that fills at once. */
async function smallDisk(dir: string): Promise<string> {
  const disk = join(dir, "disk");
  await mkdir(disk);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", disk], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`this drill mounts an 8k tmpfs at ${disk} and needs root (CAP_SYS_ADMIN): ${String(error)}`, { cause: error });
  }
  cleanups.push(() => execFileSync("umount", [disk], { stdio: "pipe" }));
  return disk;
}

/** A folder on a small tmpfs that is already full: any write there fails with ENOSPC. */
async function fullDisk(dir: string): Promise<string> {
  const disk = await smallDisk(dir);
  await writeFile(join(disk, "filler"), Buffer.alloc(64 * 1024)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOSPC") throw error;
  });
  return disk;
}

/** What must never reach a user: a stack trace or a bug's report. */
function expectNoCrash(stderr: string): void {
  expect(stderr).not.toContain("internal error");
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe("drill: destinations checked before the first POST", () => {
  it("refuses an immutable results file before sending anything (exit 2, 0 POSTs), naming it and --results", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(3));
    const results = join(dir, "numbers.results.csv");
    await writeFile(results, "an earlier run's results\n");
    immutable(results);

    const run = await runCli(["submit", sheet, "--state", join(dir, "numbers.state.jsonl"), ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`portin: cannot write results to ${results}: permission denied (use --results PATH)`);
    expect(s.received()).toEqual([]);
    expect(temporaries(dir)).toEqual([]);
    expectNoCrash(run.stderr);
  });

  it("names --output, the option status has, when the status report cannot be written", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(2));
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    const output = join(dir, "no-such-folder", "numbers.status.csv");

    const run = await runCli(["status", sheet, "--output", output, ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot write the status report to ${output}: no such directory (use --output PATH)`);
    expect(run.stderr).not.toContain("--results");
    expectNoCrash(run.stderr);
  });
});

describe("drill: TMPDIR full while the sheet is read", () => {
  it("blames TMPDIR, not the sheet, and sends nothing, when standard input's cells outgrow memory", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const disk = await fullDisk(dir);
    // Rows from standard input are kept for the results: 7,500 with a long note pass the 4 MiB held in memory (input/spool.ts).
    const [header, ...lines] = (await readFile(await trunkSheetOf(dir, "numbers.csv", numbers(7500)), "utf8")).trimEnd().split("\n");
    const sheet = [`${header},note`, ...lines.map((line) => `${line},${"a customer's note ".repeat(40)}`)].join("\n");
    const state = join(dir, "numbers.state.jsonl");

    const run = await runCli(["submit", "-", "--state", state, "--results", join(dir, "numbers.results.csv"), ...against(s)], { stdin: sheet, env: { TMPDIR: disk } });
    expect(run.code).toBe(2);
    expectNoCrash(run.stderr);
    expect(run.stderr).toMatch(new RegExp(`^portin: cannot keep the sheet's cells in a temporary file under ${disk}: no space left on device \\(set TMPDIR to a writable directory with room\\); nothing was sent$`, "m"));
    expect(s.received()).toHaveLength(0);
    expect(readdirSync(disk)).toEqual(["filler"]);
  });

  it("reads a workbook whose worksheet comes before its shared strings with TMPDIR full: nothing of the workbook is kept there", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const disk = await fullDisk(dir);
    // Excel's own order: the reader reads the zip's directory and each part where it lies.
    const book = fixture("workbooks/reordered-strings-last.xlsx");

    const run = await runCli(["submit", book, "--state", join(dir, "book.state.jsonl"), "--results", join(dir, "book.results.xlsx"), ...against(s)], { env: { TMPDIR: disk } });
    expectNoCrash(run.stderr);
    // Its two rows are read, and found to lack the PortForm (the fixture holds numbers alone).
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("portin submit: 2 rows: 2 invalid");
    expect(run.stderr).toContain(`results: ${join(dir, "book.results.xlsx")}`);
    expect(readdirSync(disk)).toEqual(["filler"]);
  });
});

describe("drill: a write that fails after sending began", () => {
  it("a results folder made immutable mid-run: prints the summary and tickets, says the journal holds them, no stack trace", async () => {
    let onPost: (() => void) | null = null;
    const s = await sandboxed({ latencyMs: 30, log: (line) => line.startsWith("POST ") && onPost?.() });
    const dir = await tempDir();
    const out = join(dir, "out");
    await mkdir(out);
    const list = numbers(6);
    const sheet = await trunkSheetOf(dir, "numbers.csv", list);
    const state = join(dir, "numbers.state.jsonl");
    onPost = () => {
      onPost = null;
      immutable(out);
    };

    const run = await runCli(["submit", sheet, "--state", state, "--results", join(out, "numbers.results.csv"), "--max-per-request", "2", "--concurrency", "1", ...against(s)]);
    expect(run.code).toBe(2);
    expectNoCrash(run.stderr);
    expect(run.stderr).toContain("portin submit: 6 rows: 6 submitted");
    expect(run.stderr).toContain(`portin: cannot write results to ${join(out, "numbers.results.csv")}: permission denied (use --results PATH)`);
    const tickets = [...new Set(ticketsByNumber(s).values())];
    expect(tickets).toHaveLength(3);
    expect(run.stderr).toContain(
      `portin: the results are missing, not the sending: 6 rows submitted by this run, under ${tickets.map((t) => `${t} (2 rows)`).join(", ")}; ` +
        `the journal ${state} holds them with their tickets`,
    );
    const prior = await readJournal(state, { service: { kind: "remote", baseUrl: `${s.url}/` }, user: s.user, version: "" });
    expect([...numbersIn(prior, "submitted").keys()].sort()).toEqual(list);

    // The folder that refused the rename refused removing the temporary too: the message says so, and the next run removes it.
    expect(run.stderr).toMatch(/numbers\.results\.csv\.tmp-\d+ could not be removed either \(permission denied\): the next run removes it/);
    mutable(out);
    const next = await runCli(["submit", sheet, "--state", state, "--results", join(out, "numbers.results.csv"), ...against(s)]);
    expect(next.code).toBe(0);
    expect(temporaries(out)).toEqual([]);
    expect(s.received()).toHaveLength(3);
  });

  it("the journal's disk fills with the results on it: prints the summary, that sending stopped, and what was sent", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const disk = await smallDisk(dir);
    const list = numbers(40);
    const sheet = await trunkSheetOf(dir, "numbers.csv", list);
    const state = join(disk, "numbers.state.jsonl");
    const results = join(disk, "numbers.results.csv");

    const run = await runCli(["submit", sheet, "--state", state, "--results", results, "--max-per-request", "1", "--concurrency", "1", ...against(s)]);
    expect(run.code).toBe(2);
    expectNoCrash(run.stderr);
    const accepted = s.accepted().length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(list.length);
    expect(run.stderr).toContain(`portin submit: 40 rows: ${accepted} submitted, ${40 - accepted} failed`);
    expect(run.stderr).toContain(`portin: cannot write state file ${state} (ENOSPC: no space left on device`);
    expect(run.stderr).toContain(`portin: cannot write results to ${results}: no space left on device (use --results PATH)`);
    expect(run.stderr).toContain(`portin: the results are missing, not the sending: ${accepted} row${accepted === 1 ? "" : "s"} submitted by this run, under PI-`);
    expect(temporaries(disk)).toEqual([]);
  });
});
