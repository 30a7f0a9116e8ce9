/**
 * The workbook's reading thread started ahead (input/reader-start.ts): which command lines start
 * it, that a workbook is read through it as through a thread started when the sheet is opened,
 * and that one never used lets the process end.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import { readsWorkbook, startReaderThreadAhead } from "../../src/input/reader-start.js";
import { PACKAGE_ROOT } from "../../src/version.js";
import { SHEET_COMMANDS } from "../../src/commands/names.js";
import { writeWorkbook } from "../support/workbooks.js";

const dir = mkdtempSync(join(tmpdir(), "portin-reader-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the reading thread started ahead", () => {
  it("starts for a sheet command whose sheet is a workbook, not for an output or another command", () => {
    expect(readsWorkbook(["plan", "book.xlsx"], SHEET_COMMANDS)).toBe(true);
    expect(readsWorkbook(["plan", "book.xls"], SHEET_COMMANDS)).toBe(true);
    expect(readsWorkbook(["submit", "Book.ODS"], SHEET_COMMANDS)).toBe(true);
    expect(readsWorkbook(["submit", "--defaults", "d.json", "Book.XLSX", "--results", "out.csv"], SHEET_COMMANDS)).toBe(true);
    expect(readsWorkbook(["status", "book.xlsx", "--output", "report.xlsx"], SHEET_COMMANDS)).toBe(true);
    expect(readsWorkbook(["plan", "sheet.csv", "--results", "out.xlsx"], SHEET_COMMANDS)).toBe(false);
    expect(readsWorkbook(["status", "sheet.csv", "--output", "report.xlsx"], SHEET_COMMANDS)).toBe(false);
    expect(readsWorkbook(["plan", "sheet.csv", "--results=out.xlsx"], SHEET_COMMANDS)).toBe(false);
    expect(readsWorkbook(["template", "blank.xlsx"], SHEET_COMMANDS)).toBe(false);
    // Every command whose usage takes a sheet: report reads a workbook through the thread as well.
    expect(readsWorkbook(["report", "book.xlsx", "--output", "report.html"], SHEET_COMMANDS)).toBe(true);
    expect([...SHEET_COMMANDS].sort()).toEqual(["loa", "plan", "report", "status", "submit"]);
    expect(readsWorkbook(["plan", "-"], SHEET_COMMANDS)).toBe(false);
    expect(readsWorkbook([], SHEET_COMMANDS)).toBe(false);
  });

  it("reads a workbook through the thread started ahead, as through one started with the sheet", async () => {
    const path = await writeWorkbook(join(dir, "ahead.xlsx"), [{ name: "Numbers", rows: [["number", "note"], [4165550101, "first"], [4165550102, "second"]] }]);
    const read = async (): Promise<string[][]> => {
      const sheet = await openSheet(path);
      const rows: string[][] = [];
      for await (const row of sheet.rows) rows.push([...row.cells]);
      await sheet.close();
      return rows;
    };
    startReaderThreadAhead();
    const ahead = await read();
    expect(ahead).toEqual([
      ["4165550101", "first"],
      ["4165550102", "second"],
    ]);
    // Taken once: the next sheet starts a thread of its own.
    expect(await read()).toEqual(ahead);
  });

  it("lets the process end when the thread started ahead is never handed a workbook", () => {
    const module = pathToFileURL(join(PACKAGE_ROOT, "dist", "src", "input", "reader-start.js")).href;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", `import { startReaderThreadAhead } from ${JSON.stringify(module)}; startReaderThreadAhead(); console.log("started");`], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("started\n");
  });
});
