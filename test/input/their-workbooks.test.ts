/**
 * Workbooks as the programs customers use really write them (docs/contract.md §3, "Workbooks"):
 * the fixtures under fixtures/workbooks/ were written by openpyxl, pandas and LibreOffice
 * (fixtures/workbooks/make.sh), as .xlsx, .xls and .ods, not built here, so each program's own
 * habits are read.
 */
import { describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetRow } from "../../src/input/types.js";
import { fixture, type FixtureIn } from "../e2e/fixtures.js";
import { refusal } from "./helpers.js";

const workbook = (name: FixtureIn<"workbooks">): string => fixture(`workbooks/${name}`);

async function rowsOf(path: string, sheet?: string): Promise<{ header: readonly string[]; rows: SheetRow[] }> {
  const opened = await openSheet(path, { sheet });
  const rows: SheetRow[] = [];
  for await (const row of opened.rows) rows.push(row);
  return { header: opened.layout.header, rows };
}

describe("workbooks other programs wrote", () => {
  it.each(["openpyxl.xlsx", "pandas.xlsx"] as const)("reads %s, whose parts are named absolutely (/xl/worksheets/sheet1.xml)", async (name) => {
    for (const sheet of [undefined, "Numbers"]) {
      const { header, rows } = await rowsOf(workbook(name), sheet);
      expect(header).toEqual(["number", "pilot_number", "portform.CustomerName"]);
      expect(rows.map((row) => [row.line, ...row.cells])).toEqual([
        [2, "4165550101", "4165550100", "Maple Leaf Dental"],
        [3, "4165550102", "4165550100", "Maple Leaf Dental"],
      ]);
    }
  });

  it("reads a workbook whose SpreadsheetML elements carry a prefix (x:row, x:c), as the .NET Open XML SDK writes them, as the same workbook without", async () => {
    const prefixed = await rowsOf(workbook("openxml-sdk-prefixed.xlsx"));
    const plain = await rowsOf(workbook("libreoffice-errors.xlsx"));
    expect(prefixed.rows.length).toBeGreaterThan(0);
    expect(prefixed).toEqual(plain);
  });

  it("names LibreOffice's saved errors (#N/A, #REF!) as errors in the source sheet, not as formulas without a result", async () => {
    const { rows } = await rowsOf(workbook("libreoffice-errors.xlsx"));
    const problems = rows.map((row) => [row.line, row.problem]);
    expect(problems).toContainEqual([3, "Numbers!A3 holds #N/A, an error in the source sheet: fix the formula or the value"]);
    expect(problems).toContainEqual([4, "Numbers!B4 holds #REF!, an error in the source sheet: fix the formula or the value"]);
  });

  it.each(["libreoffice-errors.xls", "libreoffice-errors.ods"] as const)("reads %s, the same workbook LibreOffice saved again, as its .xlsx: the same cells, errors and marks", async (name) => {
    const expected = await rowsOf(workbook("libreoffice-errors.xlsx"));
    const { header, rows } = await rowsOf(workbook(name));
    expect(header).toEqual(expected.header);
    expect(rows.map((row) => [row.line, [...row.cells], row.problem])).toEqual(expected.rows.map((row) => [row.line, [...row.cells], row.problem]));
    expect(rows.filter((row) => row.problem !== undefined)).toHaveLength(3);
  });

  it("marks French Excel's 5,14556E+09 text as a number whose digits were lost, as 4.16556E+09", async () => {
    const { rows } = await rowsOf(workbook("libreoffice-errors.xlsx"));
    expect(rows.find((row) => row.line === 5)?.problem).toMatch(/^Numbers!A5 holds the text "5,14556E\+09": Excel showed a long number in scientific notation/);
  });

  it("answers a workbook whose first sheet is notes with its other sheets and --sheet, and reads the one named", async () => {
    const refused = await refusal(openSheet(workbook("libreoffice-notes-first.xlsx")));
    expect(refused.message).toMatch(/worksheet "Notes": no number column/);
    expect(refused.message).toContain('if the numbers are on another sheet, name it with --sheet (the workbook also has "Numbers")');
    const { rows } = await rowsOf(workbook("libreoffice-notes-first.xlsx"), "Numbers");
    expect(rows).toHaveLength(2);
  });
});
