/**
 * The limits (docs/limits.md) as a user meets them: one line naming the file and line,
 * exit 2, no stack trace, no results file, and never a hang on an endless input.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir, writeSheet } from "./harness.js";

/** What /dev/zero gives: one row of NULs longer than the longest row portin reads. */
const ZEROS = Buffer.alloc(1_100_000);

it("refuses an endless row of NULs on standard input at line 1 instead of reading it for ever, and /dev/zero named as the sheet at once", async () => {
  const [piped, named] = await Promise.all([runCli(["plan", "-", "--results", "-"], { stdin: ZEROS }), runCli(["plan", "/dev/zero", "--results", "-"])]);
  expect([piped.code, named.code]).toEqual([2, 2]);
  expect(piped.stderr).toBe(
    "portin: <stdin>: line 1: a row of more than 1,048,576 characters, the most portin reads in a row (a quote left open makes one); nothing was sent\n",
  );
  expect(piped.stdout).toBe("");
  expect(named.stderr).toBe("portin: /dev/zero is a character device, not a regular file: name the sheet's file, or pipe the sheet in as - (standard input); nothing was sent\n");
});

it("refuses random bytes on standard input as not UTF-8, naming a line", async () => {
  const run = await runCli(["plan", "-", "--results", "-"], { stdin: randomBytes(1_000_000) });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^portin: <stdin>: line \d+: not UTF-8 text \(save the sheet as "CSV UTF-8", or give --encoding [^)]*\); nothing was sent\n$/);
});

it("refuses a sheet with an oversized cell whole, naming line and column, and writes no results", async () => {
  const dir = await tempDir();
  const sheet = await writeSheet(dir, "big-cell.csv", `number,pilot_number,note\n416-555-0101,4165550100,ok\n416-555-0102,4165550100,${"z".repeat(70_000)}\n`);
  const run = await runCli(["submit", sheet]);
  expect(run.code).toBe(2);
  // Before it: the column notice and the sandbox's; the refusal is the last line.
  expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
    `portin: ${sheet}: line 3: the cell in column 3 has 70,000 characters, more than the 65,536 portin reads in a cell; nothing was sent`,
  );
  expect(existsSync(join(dir, "big-cell.sandbox.results.csv"))).toBe(false);
});

it("shows the stack of a refused sheet only with --debug", async () => {
  const run = await runCli(["plan", "-", "--results", "-", "--debug"], { stdin: ZEROS });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^portin: <stdin>: line 1: a row of more than/);
  expect(run.stderr).toMatch(/\n\s+at /);
});

it("refuses an oversized cell in a middle row, read after the reader paused, with the same one line and exit 2", async () => {
  const dir = await tempDir();
  const rows = Array.from({ length: 40 }, (_, i) => `416-555-${String(2000 + i)},4165550100,${i === 20 ? "z".repeat(70_000) : "ok"}`);
  const sheet = await writeSheet(dir, "middle.csv", `number,pilot_number,note\n${rows.join("\n")}\n`);
  const run = await runCli(["plan", sheet, "--json"]);
  expect(run.code).toBe(2);
  expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
    `portin: ${sheet}: line 22: the cell in column 3 has 70,000 characters, more than the 65,536 portin reads in a cell; nothing was sent`,
  );
});
