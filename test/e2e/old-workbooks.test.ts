/**
 * Excel 97-2003 (.xls) and LibreOffice (.ods) workbooks through the built CLI (docs/contract.md
 * §3, "Workbooks"): fixtures/workbooks/libreoffice-sample.xls and .ods are fixtures/sample.csv as
 * LibreOffice saved them (fixtures/workbooks/make.sh), and each plans as the CSV does; damaged,
 * each is refused in one line naming the file.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { readWorkbook, sheetRows } from "../support/workbooks.js";
import { fixture } from "./fixtures.js";
import { against, runCli, tempDir } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

/** A folder holding the sheet as `sample<extension>`, with the sample's defaults and letter of authorization beside it, as a user keeps them. */
async function sampleFolder(sheet: string, extension: string): Promise<string> {
  const dir = await tempDir();
  await copyFile(sheet, join(dir, `sample${extension}`));
  await copyFile(fixture("sample.defaults.json"), join(dir, "sample.defaults.json"));
  await copyFile(fixture("loa-maple-leaf-dental.pdf"), join(dir, "loa-maple-leaf-dental.pdf"));
  return dir;
}

describe("an .xls or .ods workbook LibreOffice saved from a CSV", () => {
  it.each([".xls", ".ods"] as const)("plans %s exactly as the CSV: the same results rows, statuses and messages", async (extension) => {
    const csvDir = await sampleFolder(fixture("sample.csv"), ".csv");
    const csvRun = await runCli(["plan", "sample.csv", ...against(sandbox)], { cwd: csvDir });
    const bookDir = await sampleFolder(fixture(`workbooks/libreoffice-sample${extension}`), extension);
    const bookRun = await runCli(["plan", `sample${extension}`, ...against(sandbox)], { cwd: bookDir });
    expect(bookRun.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(bookRun.code).toBe(csvRun.code);
    // Its results are a workbook, as an .xlsx input's are.
    expect(bookRun.stderr).toContain("results: sample.plan.xlsx\n");
    const fromCsv: string[][] = parse(await readFile(join(csvDir, "sample.plan.csv"), "utf8"), { bom: true });
    const { values } = sheetRows(await readWorkbook(join(bookDir, "sample.plan.xlsx")));
    expect(fromCsv.length).toBe(38);
    expect(values).toEqual(fromCsv);
    const status = fromCsv[0]?.indexOf("result_status") ?? -1;
    expect(new Set(fromCsv.slice(1).map((row) => row[status]))).toEqual(new Set(["planned", "invalid"]));
  });

  it.each([
    [".xls", "its workbook stream overwritten", (bytes: Buffer) => bytes.fill(0x41, 1024, 3000)],
    [".xls", "its directory overwritten", (bytes: Buffer) => bytes.fill(0x41, 512, bytes.length - 512)],
    [".ods", "its content.xml overwritten", (bytes: Buffer) => bytes.fill(0x41, bytes.indexOf("content.xml") + 11, bytes.indexOf("content.xml") + 200)],
    [".ods", "cut short", (bytes: Buffer) => bytes.subarray(0, bytes.length - 300)],
  ] as const)("refuses a damaged %s (%s) in one line naming the file, exit 2, nothing sent", async (extension, _, damage) => {
    const dir = await sampleFolder(fixture(`workbooks/libreoffice-sample${extension}`), extension);
    const path = join(dir, `sample${extension}`);
    await writeFile(path, damage(Buffer.from(await readFile(path))));
    const run = await runCli(["plan", path, ...against(sandbox)], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^portin: ${path.replace(/[.\\/]/g, "\\$&")}: .*(damaged|not a workbook).*; nothing was sent\n$`));
  });
});
