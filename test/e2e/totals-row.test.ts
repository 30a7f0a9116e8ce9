/**
 * A totals row under the data (docs/contract.md §3), through the built CLI: named once on
 * stderr as not a number row, never an invalid row, so a nightly run of the sheet exits 0.
 */
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

it("names a trailing 'Total lines' row once, leaves it out of the results, and exits 0", async () => {
  const dir = await tempDir();
  const blanks = ",".repeat(FORM_HEADER.split(",").length);
  const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER}\n4165553001,4165550100,${FORM_CELLS}\n4165553002,4165550100,${FORM_CELLS}\nTotal lines: 2${blanks}\n`);
  const state = join(dir, "acme.state.jsonl");
  for (let night = 1; night <= 2; night++) {
    const run = await runCli(["submit", sheet, "--state", state, ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n").filter((line) => line.includes("totals row"))).toEqual(['portin: line 4 ("Total lines: 2") is a totals row, not a number row: left out']);
    expect(run.stderr).not.toContain("invalid");
  }
  const rows = await readResults(join(dir, "acme.results.csv"));
  expect(rows.map((row) => [row["number"], row.result_status])).toEqual([
    ["4165553001", "skipped"],
    ["4165553002", "skipped"],
  ]);
});
