/**
 * Nothing holds a run past a signal (docs/contract.md §3, §5, §7): a FIFO named as the sheet or
 * as --state is refused before it is opened (opening one waits for a writer, and node cannot
 * exit while it waits), and a command with nothing in flight (`report`) ends at the first
 * SIGTERM.
 */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CLI, runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";

it("refuses a FIFO as the sheet or as --state in report, plan and submit, at once and naming it", async () => {
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "wave.csv", numbers(1, 3600));
  const fifoSheet = join(dir, "fifo.csv");
  const fifoState = join(dir, "fifo.state.jsonl");
  execFileSync("mkfifo", [fifoSheet, fifoState]);
  const runs = await Promise.all([
    runCli(["report", fifoSheet]),
    runCli(["plan", fifoSheet]),
    runCli(["report", sheet, "--state", fifoState]),
    runCli(["submit", sheet, "--state", fifoState]),
  ]);
  expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
  const sheetRefusal = `portin: ${fifoSheet} is a FIFO (named pipe), not a regular file: name the sheet's file, or pipe the sheet in as - (standard input); nothing was sent\n`;
  const stateRefusal = `portin: state file ${fifoState} is a FIFO (named pipe), not a regular file: point --state at this sheet's journal`;
  expect(runs[0]?.stderr).toContain(sheetRefusal);
  expect(runs[1]?.stderr).toContain(sheetRefusal);
  expect(runs[2]?.stderr).toContain(stateRefusal);
  expect(runs[3]?.stderr).toContain(stateRefusal);
});

it("ends report at the first SIGTERM, as it waits for its sheet on standard input", async () => {
  const child = spawn(process.execPath, [CLI, "report", "-", "--output", join(await tempDir(), "page.html")], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  // More than a pipe holds: once it is written, portin is reading its sheet, its signal handlers set.
  const rows = Array.from({ length: 20_000 }, (_, i) => `${4165560000 + i},4165550100`).join("\n");
  await new Promise<void>((resolve, reject) => child.stdin.write(`number,pilot_number\n${rows}\n`, (error) => (error ? reject(error) : resolve())));
  child.kill("SIGTERM");
  // Only ends a hang: the old behaviour waited for standard input for ever.
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const { code, signal } = await ended;
  clearTimeout(guard);
  expect({ code, signal }).toEqual({ code: 143, signal: null });
  expect(stderr).toContain("portin: SIGTERM: exiting now\n");
});
