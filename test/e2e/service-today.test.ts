/**
 * "Today", for a port date in the past, is the service's (docs/contract.md §3): the day its
 * answers' `Date` header gives, not the machine's clock. A sandbox rehearsing another day
 * with --start-date, like a machine whose clock is wrong, judges dates by the service's calendar.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { NO_E911_ADDRESS } from "../../src/messages/e911.js";
import { against, FORM_CELLS, FORM_HEADER, parseResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
});

it("judges a port date by the day the service's answers say it is", async () => {
  // Monday 2026-03-02 on the service's calendar, whatever day the machine thinks it is.
  sandbox = await startSandbox({ startDate: "2026-03-02" });
  const dir = await tempDir();
  const sheet = await writeSheet(
    dir,
    "rehearsal.csv",
    [
      `number,pilot_number,${FORM_HEADER},portform.RequestedPortDate`,
      `416-555-3700,4165550100,${FORM_CELLS},2026-03-10`,
      `416-555-3701,4165550100,${FORM_CELLS.replace("Acme Plumbing", "Acme Two")},2026-02-27`,
      "",
    ].join("\n"),
  );
  const run = await runCli(["plan", sheet, ...against(sandbox)]);
  const rows = parseResults(await readFile(join(dir, "rehearsal.plan.csv"), "utf8"));
  expect(rows.map((r) => [r["portform.RequestedPortDate"], r.result_status, r.result_message])).toEqual([
    ["2026-03-10", "planned", NO_E911_ADDRESS],
    ["2026-02-27", "invalid", 'portform.RequestedPortDate "2026-02-27" is in the past (today is 2026-03-02, Eastern time): give a business day from today on'],
  ]);
  expect(run.code).toBe(1);
});
