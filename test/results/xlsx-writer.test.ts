/**
 * XLSX results (docs/contract.md §6), read back whole with exceljs, cell by cell: the same
 * cells as the CSV encoder writes, every one a text cell.
 */
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import { defaultResultsPath } from "../../src/paths.js";
import { RESULT_COLUMN_NAMES } from "../../src/results/columns.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import { openResults } from "../../src/results/writer.js";
import { startZipThreadAhead, stopZipThreadAhead } from "../../src/results/xlsx-zip.js";
import { readWorkbook, sheetRows } from "../support/workbooks.js";

function outcome(overrides: Partial<RowOutcome> = {}): RowOutcome {
  return {
    status: "submitted",
    number: "4165550101",
    numberType: "regular",
    operation: "POST /v2/NumberPorts/Inbound/DIDs",
    sequence: 1,
    ticket: "007-T1",
    httpStatus: 200,
    message: "",
    ...overrides,
  };
}

const stdout = new Writable({ write: (_chunk, _encoding, callback) => callback() });
// A few rows follow in each test.
const OPTIONS = { delimiter: ",", bom: false, lineEnd: "\n", stdout, rows: 10 };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-xlsx-results-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeBoth(header: string[], rows: [string[], RowOutcome][]): Promise<{ xlsx: string[][]; csv: string[][]; sheet: ExcelJS.Worksheet; types: Set<ExcelJS.ValueType> }> {
  for (const name of ["r.xlsx", "r.csv"]) {
    const writer = await openResults(join(dir, name), header, OPTIONS);
    for (const [cells, result] of rows) await writer.write(cells, result);
    await writer.close();
  }
  const sheet = await readWorkbook(join(dir, "r.xlsx"));
  const { values, types } = sheetRows(sheet);
  return { xlsx: values, csv: parse(await readFile(join(dir, "r.csv"), "utf8")), sheet, types };
}

describe("XLSX results", () => {
  it("size each column to the header and the first 256 rows, which the worksheet's widths precede", async () => {
    const quiet = outcome({ status: "invalid", number: "", numberType: null, operation: "", sequence: null, ticket: "", httpStatus: null });
    const widthOfNote = async (wideAt: number): Promise<number | undefined> => {
      const path = join(dir, `wide-at-${wideAt}.xlsx`);
      const writer = await openResults(path, ["number", "note"], { ...OPTIONS, rows: 300 });
      // Rows of ~120 bytes: 300 of them are well inside the first 64 KB.
      for (let i = 0; i < 300; i++) await writer.write([String(4165550000 + i), i === wideAt ? "x".repeat(40) : ""], quiet);
      await writer.close();
      return (await readWorkbook(path)).getColumn(2).width;
    };
    expect(await widthOfNote(255)).toBe(43);
    expect(await widthOfNote(256)).toBe(8);
  });

  it("hold the input's cells then the result cells, one row per input row in order, the same cells as CSV, all text", async () => {
    const { xlsx, csv, types } = await writeBoth(
      ["number", "note", "account"],
      [
        [["4165550101", "first", "000451"], outcome({ sequence: 2 })],
        [["bad", "second", ""], outcome({ status: "invalid", number: "", numberType: null, operation: "", sequence: null, ticket: "", httpStatus: null, message: "not a NANP number: bad" })],
        [["8005550199", "third", "7"], outcome({ status: "planned", number: "8005550199", numberType: "toll-free", ticket: "", httpStatus: null })],
      ],
    );
    expect(xlsx).toEqual([
      ["number", "note", "account", ...RESULT_COLUMN_NAMES],
      ["4165550101", "first", "000451", "submitted", "4165550101", "regular", "POST /v2/NumberPorts/Inbound/DIDs", "2", "007-T1", "200", ""],
      ["bad", "second", "", "invalid", "", "", "", "", "", "", "not a NANP number: bad"],
      ["8005550199", "third", "7", "planned", "8005550199", "toll-free", "POST /v2/NumberPorts/Inbound/DIDs", "1", "", "", ""],
    ]);
    expect(xlsx).toEqual(csv);
    expect([...types]).toEqual([ExcelJS.ValueType.String]);
  });

  it("mask password columns and defuse formulas as CSV does, keeping the ' so both formats hold the same cells", async () => {
    const { xlsx, csv } = await writeBoth(
      ["number", "item.SipPassword", "a", "b", "c"],
      [[["+1 (416) 555-0101", "s3cret", "=HYPERLINK(\"http://x\")", "-cmd", "@x"], outcome({ message: "=not a formula either" })]],
    );
    expect(xlsx[1]?.slice(0, 5)).toEqual(["+1 (416) 555-0101", "***", "'=HYPERLINK(\"http://x\")", "'-cmd", "'@x"]);
    expect(xlsx[1]?.at(-1)).toBe("'=not a formula either");
    expect(xlsx).toEqual(csv);
  });

  it("keep markup, surrounding spaces, tabs and line breaks as they were", async () => {
    const tricky = ["<b>&amp;</b>", "tab\there", "  padded  ", "line one\nline two", "cr\rhere", "é 名 😀"];
    const { xlsx } = await writeBoth(["number", ...tricky.map((_, i) => `c${i}`)], [[["4165550101", ...tricky], outcome()]]);
    expect(xlsx[1]?.slice(1, 1 + tricky.length)).toEqual(tricky);
  });

  it("write a character XML cannot hold, and a literal _xHHHH_, as ECMA-376 escapes them for Excel to decode", async () => {
    // ST_Xstring (ECMA-376 Part 1, 22.9.2.19): Excel reads _x0007_ as U+0007 and _x005F_ as "_";
    // exceljs hands the escapes back undecoded, which shows what was written.
    const { xlsx } = await writeBoth(["number", "a", "b"], [[["4165550101", "bell\u0007", "_x0041_"], outcome()]]);
    expect(xlsx[1]?.slice(1, 3)).toEqual(["bell_x0007_", "_x005F_x0041_"]);
  });

  it("cut a cell to the 32,767 characters Excel holds", async () => {
    const { xlsx } = await writeBoth(["number", "long"], [[["4165550101", "x".repeat(40_000)], outcome()]]);
    expect(xlsx[1]?.[1]).toHaveLength(32_767);
  });

  it("hold every row of results longer than the chunks they reach the zip in, multi-byte text and cells longer than a chunk's margin among them", async () => {
    // ~2,000 rows of ~600 bytes and three cells of 32,767 three-byte characters: many chunks, a row that outgrows its chunk's buffer.
    const rows: [string[], RowOutcome][] = Array.from({ length: 2000 }, (_, i) => [
      [String(4165550000 + i), i % 700 === 5 ? "€".repeat(32_767) : `Québec ☎ ${"é".repeat(i % 90)} ${i}`, "x".repeat(i % 300)],
      outcome({ sequence: i, message: `row ${i} — ok` }),
    ]);
    const writer = await openResults(join(dir, "long.xlsx"), ["number", "note", "pad"], { ...OPTIONS, rows: rows.length });
    for (const [cells, result] of rows) await writer.write(cells, result);
    await writer.close();
    const { values } = sheetRows(await readWorkbook(join(dir, "long.xlsx")));
    expect(values).toHaveLength(rows.length + 1);
    for (const [at, [cells, result]] of rows.entries()) {
      expect(values[at + 1]?.slice(0, 3)).toEqual(cells);
      expect(values[at + 1]?.[10]).toBe(result.message);
    }
  });

  it("have a bold, frozen, filtered header, text number format, and the status cell filled by status", async () => {
    const statuses = ["submitted", "planned", "skipped", "invalid", "rejected", "failed", "unknown"] as const;
    const { sheet } = await writeBoth(
      ["number", "note"],
      statuses.map((status): [string[], RowOutcome] => [["4165550101", status], outcome({ status })]),
    );
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(1).getCell(3).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1, topLeftCell: "A2" });
    expect(sheet.autoFilter).toBe("A1:J8");
    expect(sheet.getRow(2).getCell(1).numFmt).toBe("@");
    const fills = statuses.map((_, i) => (sheet.getRow(i + 2).getCell(3).fill as ExcelJS.FillPattern).fgColor?.argb);
    expect(new Set(fills).size).toBe(statuses.length);
    expect(fills[0]).toBe("FFC6EFCE");
    expect((sheet.getRow(2).getCell(2).fill as ExcelJS.FillPattern | undefined)?.pattern ?? "none").toBe("none");
  });

  it("are written by a zip thread started ahead and left idle, which takes the workbook's parts as its first message", async () => {
    const rows: [string[], RowOutcome][] = [
      [["4165550101", "Café ☎"], outcome()],
      [["4165550102", ""], outcome({ status: "invalid", message: "not a number" })],
    ];
    const expected = await writeBoth(["number", "note"], rows);
    stopZipThreadAhead(); // one left by another test of this worker
    const worker = startZipThreadAhead();
    if (worker === null) throw new Error("no thread started ahead");
    const exited = once(worker, "exit");
    // Started and idle before the results are opened, as while a sheet is read.
    await once(worker, "online");
    const writer = await openResults(join(dir, "ahead.xlsx"), ["number", "note"], OPTIONS);
    for (const [cells, result] of rows) await writer.write(cells, result);
    await writer.close();
    expect(sheetRows(await readWorkbook(join(dir, "ahead.xlsx"))).values).toEqual(expected.xlsx);
    // Taken, it ends with its zip; left idle, it would never end.
    await exited;
  });

  it("are written by a thread of their own when the one started ahead has ended, and a thread never taken can be stopped", async () => {
    stopZipThreadAhead();
    const ended = startZipThreadAhead();
    if (ended === null) throw new Error("no thread started ahead");
    await ended.terminate();
    const writer = await openResults(join(dir, "after.xlsx"), ["number"], OPTIONS);
    await writer.write(["4165550101"], outcome());
    await writer.close();
    expect(sheetRows(await readWorkbook(join(dir, "after.xlsx"))).values[1]?.[0]).toBe("4165550101");
    const idle = startZipThreadAhead();
    if (idle === null) throw new Error("no thread started ahead");
    const exited = once(idle, "exit");
    stopZipThreadAhead();
    await exited;
  });

  it("write nothing at the destination until close, then rename the finished workbook into place", async () => {
    const path = join(dir, "atomic.results.xlsx");
    await writeFile(path, "an earlier run's results");
    const writer = await openResults(path, ["number"], OPTIONS);
    await writer.write(["4165550101"], outcome());
    expect(await readFile(path, "utf8")).toBe("an earlier run's results");
    await writer.close();
    expect((await readFile(path)).subarray(0, 2).toString()).toBe("PK");
    expect(await readdir(dir)).toEqual(["atomic.results.xlsx"]);
  });

  it("refuse, when opened, more rows than a worksheet holds", async () => {
    await expect(openResults(join(dir, "big.xlsx"), ["number"], { ...OPTIONS, rows: 1_048_576 })).rejects.toThrow(
      `cannot write results to ${join(dir, "big.xlsx")}: 1,048,576 rows and a header, more than an Excel worksheet holds (1,048,576); write CSV instead with --results PATH.csv`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuse an unwritable destination when opened", async () => {
    await expect(openResults(join(dir, "no", "such", "r.xlsx"), ["number"], OPTIONS)).rejects.toThrow(/cannot write results to .*r\.xlsx: no such directory/);
  });

  it("read back as portin input, the result columns passing through", async () => {
    const path = join(dir, "again.xlsx");
    const writer = await openResults(path, ["number", "pilot_number"], OPTIONS);
    await writer.write(["4165550101", "4165550100"], outcome());
    await writer.close();
    const sheet = await openSheet(path);
    const rows = [];
    for await (const row of sheet.rows) rows.push(row);
    expect(sheet.layout.columns.map((c) => c.role.kind)).toEqual(["number", "pilot", ...RESULT_COLUMN_NAMES.map(() => "passthrough")]);
    expect(rows.map((r) => [r.line, ...r.cells.slice(0, 3)])).toEqual([[2, "4165550101", "4165550100", "submitted"]]);
  });
});

describe("defaultResultsPath for a workbook", () => {
  it("names a workbook's results like CSV's, ending in .xlsx", () => {
    expect(defaultResultsPath("a/acme.xlsx", "submit")).toBe("a/acme.results.xlsx");
    expect(defaultResultsPath("a/acme.XLSX", "plan")).toBe("a/acme.plan.xlsx");
    expect(defaultResultsPath("a/acme.xlsx", "sandbox")).toBe("a/acme.sandbox.results.xlsx");
    expect(defaultResultsPath("a/acme.xlsx.bak", "submit")).toBe("a/acme.xlsx.bak.results.csv");
  });
});
