/**
 * Results in the sheet's own format (docs/contract.md §2, §6), through the built CLI against a
 * sandbox on loopback: JSON Lines, a refused extension, `--result-columns first`, results
 * workbooks sized and frozen, and `portin status` of a workbook writing a workbook.
 */
import { readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { FORM_VALUES, readWorkbook, sheetRows, writeWorkbook } from "../support/workbooks.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const SHEET = `number,pilot_number,${FORM_HEADER},note\n4165553001,4165550100,${FORM_CELLS},first\n416555300,4165550100,${FORM_CELLS},"short, one digit"\n`;

describe("results formats", () => {
  it("writes .jsonl results as JSON Lines: one object a row, the results' columns as keys", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", SHEET);
    const results = join(dir, "acme.results.jsonl");
    const run = await runCli(["plan", sheet, "--results", results, ...against(sandbox)]);
    expect(run.code).toBe(1);
    const lines = (await readFile(results, "utf8")).trimEnd().split("\n");
    const rows = lines.map((line) => JSON.parse(line) as Record<string, string>);
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0] ?? {})).toEqual(["number", "pilot_number", ...FORM_HEADER.split(","), "note", "result_status", "result_number", "result_number_type", "result_operation", "result_batch", "result_ticket", "result_http_status", "result_message"]);
    expect(rows.map((row) => [row["number"], row["note"], row["result_status"]])).toEqual([
      ["4165553001", "first", "planned"],
      ["416555300", "short, one digit", "invalid"],
    ]);
  });

  it("writes a tab-separated .txt sheet's results tab-separated, named .txt as the sheet is", async () => {
    const dir = await tempDir();
    const sheet = join(dir, "export.txt");
    await writeFile(sheet, `number\tpilot_number\t${FORM_HEADER.replace(/,/g, "\t")}\n416-555-3010\t4165550100\t${FORM_CELLS.replace(/,/g, "\t")}\n`);
    const run = await runCli(["plan", sheet, ...against(sandbox)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`results: ${join(dir, "export.txt.plan.txt")}\n`);
    const [header, row] = (await readFile(join(dir, "export.txt.plan.txt"), "utf8")).split("\n");
    expect(header?.split("\t").slice(0, 3)).toEqual(["number", "pilot_number", "portform.CustomerAccountNumber"]);
    expect(header?.split("\t")).toContain("result_status");
    expect(row?.split("\t")[0]).toBe("416-555-3010");
    expect(existsSync(join(dir, "export.txt.plan.csv"))).toBe(false);
  });

  it.each(["acme.results.json", "acme.results.tab", "acme-results"])("refuses --results %s (exit 2) before reading the sheet or asking the service", async (name) => {
    const dir = await tempDir();
    const before = sandbox.served().length;
    const run = await runCli(["submit", join(dir, "no-such-sheet.csv"), "--results", join(dir, name), ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("portin writes .csv (or .txt, .tsv), .xlsx or .jsonl (JSON Lines), or - for standard output");
    expect(run.stderr).not.toContain("no-such-sheet");
    expect(sandbox.served().length).toBe(before);
    expect(existsSync(join(dir, name))).toBe(false);
  });

  it("puts the result columns first with --result-columns first, in CSV and in a workbook", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", SHEET);
    const csv = join(dir, "first.csv");
    expect((await runCli(["plan", sheet, "--results", csv, "--result-columns", "first", ...against(sandbox)])).code).toBe(1);
    const text = await readFile(csv, "utf8");
    expect(text.split("\n")[0]?.startsWith("result_status,result_number,")).toBe(true);
    expect((await readResults(csv)).map((row) => [row.result_status, row["number"], row["note"]])).toEqual([
      ["planned", "4165553001", "first"],
      ["invalid", "416555300", "short, one digit"],
    ]);
    const xlsx = join(dir, "first.xlsx");
    expect((await runCli(["plan", sheet, "--results", xlsx, "--result-columns", "first", ...against(sandbox)])).code).toBe(1);
    const { values } = sheetRows(await readWorkbook(xlsx));
    expect(values.map((row) => [row[0], row[8]])).toEqual([
      ["result_status", "number"],
      ["planned", "4165553001"],
      ["invalid", "416555300"],
    ]);
  });
});

describe("results workbooks", () => {
  it("sizes each column to its cells and freezes the header row and the number column", async () => {
    const dir = await tempDir();
    // The number is the third column, under a short header, beside a long customer name.
    const book = await writeWorkbook(join(dir, "acme.xlsx"), [
      { name: "Numbers", rows: [["id", "site", "number", "pilot_number", ...FORM_HEADER.split(",")], ["1", "HQ", 4165553001, 4165550100, ...FORM_VALUES]] },
    ]);
    expect((await runCli(["plan", book, ...against(sandbox)])).code).toBe(0);
    const sheet = await readWorkbook(join(dir, "acme.plan.xlsx"));
    const width = (column: number): number => sheet.getColumn(column).width ?? 0;
    // "4165553001" is 10 characters: its column holds it, with room.
    expect(width(3)).toBeGreaterThanOrEqual(12);
    expect(width(4)).toBeGreaterThanOrEqual(14);
    // A short column stays narrow; the status column fits "planned".
    expect(width(1)).toBeLessThan(10);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", xSplit: 3, ySplit: 1 });
  });
});

describe("portin status of a workbook", () => {
  it("writes its report as a workbook beside it by default", async () => {
    const dir = await tempDir();
    const book = await writeWorkbook(join(dir, "acme.xlsx"), [{ name: "Numbers", rows: [["number", "pilot_number", ...FORM_HEADER.split(",")], [4165553001, 4165550100, ...FORM_VALUES]] }]);
    const state = join(dir, "acme.state.jsonl");
    expect((await runCli(["submit", book, "--state", state, ...against(sandbox)])).code).toBe(0);
    const run = await runCli(["status", book, "--state", state, ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "acme.status.csv"))).toBe(false);
    const { values } = sheetRows(await readWorkbook(join(dir, "acme.status.xlsx")));
    expect(values[0]?.slice(0, 1)).toEqual(["number"]);
    expect(values[0]).toContain("status");
    expect(values[1]?.[0]).toBe("4165553001");
  });
});
