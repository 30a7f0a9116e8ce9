import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

it("refuses a FIFO named as the sheet at once, without waiting for a writer, and writes results for the same sheet piped in as -", async () => {
  const dir = await tempDir();
  const fifo = join(dir, "sheet.fifo");
  execFileSync("mkfifo", [fifo]);
  const csv = `number,pilot_number,${FORM_HEADER}\n416-555-5001,4165550100,${FORM_CELLS}\n`;
  const results = join(dir, "piped.results.csv");
  const refused = await runCli(["submit", fifo, "--results", results, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`portin: ${fifo} is a FIFO (named pipe), not a regular file: name the sheet's file, or pipe the sheet in as - (standard input); nothing was sent`);
  const run = await runCli(["submit", "-", "--results", results, "--state", join(dir, "s.jsonl"), ...against(sandbox)], { stdin: csv });
  expect(run.code, run.stderr).toBe(0);
  expect((await readResults(results)).map((r) => [r["number"], r.result_status])).toEqual([["416-555-5001", "submitted"]]);
});

it("keeps a cell's unquoted line break inside its cell in the results", async () => {
  const dir = await tempDir();
  // csv-parse takes the lone LF as part of the cell in a CRLF file; a verbatim copy would split the row.
  const sheet = join(dir, "breaks.csv");
  await writeFile(sheet, `number,pilot_number,note,${FORM_HEADER}\r\n416-555-5002,4165550100,a\nb,${FORM_CELLS}\r\n416-555-5003,4165550100,c,${FORM_CELLS}\r\n`);
  const run = await runCli(["plan", sheet, ...against(sandbox)]);
  expect(run.code).toBe(0);
  const rows = await readResults(join(dir, "breaks.plan.csv"));
  expect(rows.map((r) => [r["number"], r["note"], r.result_status])).toEqual([
    ["416-555-5002", "a\nb", "planned"],
    ["416-555-5003", "c", "planned"],
  ]);
});

it("never lets two rows' different PortForm values share a request, whatever characters the cells hold", async () => {
  const dir = await tempDir();
  const sheet = join(dir, "nul.csv");
  const header = `number,pilot_number,portform.CommentsPortTeam,portform.CommentsLosingCarrier,${FORM_HEADER}`;
  // A zero-width space, not a NUL: a control character inside a value makes its row invalid (contract §3 Values).
  await writeFile(sheet, `${header}\n416-555-5004,4165550100,x\u200by,,${FORM_CELLS}\n416-555-5005,4165550100,x,y\u200b,${FORM_CELLS}\n`);
  const run = await runCli(["submit", sheet, ...against(sandbox)]);
  expect(run.code).toBe(0);
  const forms = sandbox.accepted().map((r) => r.body["PortForm"] as Record<string, unknown>);
  expect(forms.map((f) => [f["CommentsPortTeam"], f["CommentsLosingCarrier"]])).toEqual([
    ["x\u200by", undefined],
    ["x", "y\u200b"],
  ]);
});

it("reads a lone - after a flag as standard input", async () => {
  const csv = `number,pilot_number,${FORM_HEADER}\n416-555-5006,4165550100,${FORM_CELLS}\n`;
  const run = await runCli(["plan", ...against(sandbox), "--retry-unknown", "-"], { stdin: csv });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("416-555-5006");
});

it("keeps the input's byte order mark and CRLF line ends, in copied rows and rewritten ones alike", async () => {
  const dir = await tempDir();
  const sheet = join(dir, "montreal.csv");
  const rows = [`416-555-5007,4165550100,Montréal,${FORM_CELLS}`, `416-555-5008,4165550100,=1+1,${FORM_CELLS}`, `416-555-500,4165550100,x,${FORM_CELLS}`];
  await writeFile(sheet, `\uFEFFnumber,pilot_number,note,${FORM_HEADER}\r\n${rows.join("\r\n")}\r\n`);
  const run = await runCli(["submit", sheet, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
  expect(run.code).toBe(1);
  const bytes = await readFile(join(dir, "montreal.results.csv"));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString("utf8");
  expect(text.split("\r\n")).toHaveLength(5);
  expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
  expect((await readResults(join(dir, "montreal.results.csv"))).map((r) => [r["note"], r.result_status])).toEqual([
    ["Montréal", "submitted"],
    ["'=1+1", "submitted"],
    ["x", "invalid"],
  ]);
});

it("keeps a sheet's LF line ends and absent byte order mark as they are", async () => {
  const dir = await tempDir();
  const sheet = join(dir, "plain.csv");
  await writeFile(sheet, `number,pilot_number,${FORM_HEADER}\n416-555-5009,4165550100,${FORM_CELLS}\n`);
  expect((await runCli(["plan", sheet, ...against(sandbox)])).code).toBe(0);
  const text = await readFile(join(dir, "plain.plan.csv"), "utf8");
  expect(text.startsWith("number,")).toBe(true);
  expect(text).not.toContain("\r");
});
