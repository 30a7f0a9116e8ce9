/**
 * Workbooks through the built CLI (docs/contract.md §3 "Workbooks", §6 "Workbook results"):
 * .xlsx in, .xlsx or CSV out, and the crossings, against a sandbox on loopback; damaged
 * workbooks refused in one line.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { FORM_VALUES, readWorkbook, sheetRows, writeWorkbook } from "../support/workbooks.js";
import { fixture } from "./fixtures.js";
import { against, FORM_CELLS, FORM_HEADER, parseResults, readResults, runCli, tempDir } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const HEADER = ["number", "pilot_number", ...FORM_HEADER.split(","), "portform.RequestedPortDate", "item.SipPassword", "note"];

/** A customer's workbook as Excel would hold it: numbers as number cells, a date cell, a formula, a mangled number. */
async function customerBook(dir: string, name = "acme.xlsx"): Promise<string> {
  const date = { value: new Date("2030-12-10T00:00:00Z"), numFmt: "yyyy-mm-dd" };
  return writeWorkbook(join(dir, name), [
    { name: "Lists", state: "hidden", rows: [["providers"], ["Bell Canada"]] },
    {
      name: "Numbers",
      rows: [
        HEADER,
        [4165553001, 4165550100, ...FORM_VALUES, date, "s3cret", "=cmd|' /C calc'!A0"],
        null,
        [{ formula: "4165553000+2", result: 4165553002 }, 4165550100, ...FORM_VALUES, date, "", "formula"],
        ["4.16555E+09", 4165550100, ...FORM_VALUES, date, "", "mangled"],
        [8005553004, 4165550100, ...FORM_VALUES, date, "", "toll-free"],
      ],
    },
  ]);
}

describe("a workbook in", () => {
  it("plans it into <name>.plan.xlsx beside it: one row per data row, every cell text, the mangled number invalid", async () => {
    const dir = await tempDir();
    const book = await customerBook(dir);
    const run = await runCli(["plan", book, ...against(sandbox)]);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`results: ${join(dir, "acme.plan.xlsx")}`);
    const sheet = await readWorkbook(join(dir, "acme.plan.xlsx"));
    const { values } = sheetRows(sheet);
    const at = (name: string): number => values[0]?.indexOf(name) ?? -1;
    expect(values.map((row) => [row[0], row[at("portform.RequestedPortDate")], row[at("item.SipPassword")], row[at("note")], row[at("result_status")]])).toEqual([
      ["number", "portform.RequestedPortDate", "item.SipPassword", "note", "result_status"],
      ["4165553001", "2030-12-10", "***", "'=cmd|' /C calc'!A0", "planned"],
      ["4165553002", "2030-12-10", "", "formula", "planned"],
      ["4.16555E+09", "2030-12-10", "", "mangled", "invalid"],
      ["8005553004", "2030-12-10", "", "toll-free", "planned"],
    ]);
    expect(values[3]?.[at("result_message")]).toMatch(/^Numbers!A5 holds the text "4\.16555E\+09": .*format the column as Text/);
    expect(sandbox.received()).toEqual([]);
  });

  it("submits it as the service expects, results in <name>.results.xlsx and the journal in <name>.state.jsonl", async () => {
    const dir = await tempDir();
    const book = await customerBook(dir);
    const run = await runCli(["submit", book, ...against(sandbox)]);
    expect(run.code).toBe(1);
    expect(sandbox.accepted().flatMap((request) => request.numbers).sort()).toEqual(["4165553001", "4165553002", "8005553004"]);
    const body = JSON.stringify(sandbox.received()[0]?.body);
    expect(body).toContain('"RequestedPortDate":"2030-12-10"');
    expect(body).toContain('"NumbersToPort":[4165553001,4165553002]');
    const { values } = sheetRows(await readWorkbook(join(dir, "acme.results.xlsx")));
    expect(values.slice(1).map((row) => row[row.length - 8])).toEqual(["submitted", "submitted", "invalid", "submitted"]);
    expect((await readFile(join(dir, "acme.state.jsonl"), "utf8")).split("\n")[0]).toContain('"type":"header"');
  });

  it("writes <name>.sandbox.results.xlsx on the built-in sandbox", async () => {
    const dir = await tempDir();
    const book = await customerBook(dir);
    const run = await runCli(["submit", book]);
    expect(run.code).toBe(1);
    expect(sheetRows(await readWorkbook(join(dir, "acme.sandbox.results.xlsx"))).values).toHaveLength(5);
  });

  it("reads another worksheet with --sheet", async () => {
    const dir = await tempDir();
    const book = await writeWorkbook(join(dir, "two.xlsx"), [
      { name: "Notes", rows: [["nothing to port here"]] },
      { name: "Port list", rows: [["number", "pilot_number", ...FORM_HEADER.split(",")], [4165553011, 4165550100, ...FORM_VALUES]] },
    ]);
    const refused = await runCli(["plan", book, ...against(sandbox)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`portin: ${book}, worksheet "Notes": no number column; name the column of numbers to port one of "number", "telephone_number", "phone_number", "tn", or map yours in --defaults "columns"; if the numbers are on another sheet, name it with --sheet (the workbook also has "Port list")\n`);
    const run = await runCli(["plan", book, "--sheet", "Port list", ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(sheetRows(await readWorkbook(join(dir, "two.plan.xlsx"))).values[1]?.slice(0, 2)).toEqual(["4165553011", "4165550100"]);
  });

  // LibreOffice's workbook re-packed by fixtures/workbooks/reorder.py with its shared strings
  // after the sheet and last in the zip (docs/contract.md §3, "Workbooks"); the other orders
  // are read in-process by test/input/workbook.test.ts.
  it.each(["strings-last"] as const)("reads a workbook whose zip holds its parts in another order (%s): strings, dates and the sheet's name as written", async (order) => {
    const dir = await tempDir();
    const book = join(dir, "parts.xlsx");
    await copyFile(fixture(`workbooks/reordered-${order}.xlsx`), book);
    const defaults = join(dir, "parts.defaults.json");
    const portForm = { CustomerAccountNumber: "ML-1", CustomerStreetNumber: "120", CustomerStreetName: "King St W", CustomerCity: "Toronto", CustomerProvince: "ON", CustomerPostalCode: "M5H 1J9", CustomerCountry: "CA", EmailAddress: "it@ml.ca", CurrentProvider: 17 };
    await writeFile(defaults, JSON.stringify({ portForm }));
    const run = await runCli(["plan", book, "--defaults", defaults, ...against(sandbox)]);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code, run.stderr).toBe(0);
    const { values } = sheetRows(await readWorkbook(join(dir, "parts.plan.xlsx")));
    const at = (name: string): number => values[0]?.indexOf(name) ?? -1;
    expect(values.map((row) => [row[0], row[1], row[2], row[3], row[at("result_status")]])).toEqual([
      ["number", "pilot_number", "portform.CustomerName", "note", "result_status"],
      ["4165550101", "4165550100", "Maple Leaf Dental", "2026-11-30", "planned"],
      ["4165550102", "4165550100", "Maple Leaf Dental", "2026-12-01", "planned"],
    ]);
    expect(sandbox.received()).toEqual([]);
  });
});

describe("crossings between CSV and XLSX", () => {
  it("writes CSV for a workbook when --results ends .csv, with a byte order mark and CRLF for Excel", async () => {
    const dir = await tempDir();
    const book = await customerBook(dir);
    const results = join(dir, "out.csv");
    const run = await runCli(["plan", book, "--results", results, ...against(sandbox)]);
    expect(run.code).toBe(1);
    const text = await readFile(results, "utf8");
    expect(text.startsWith("\uFEFFnumber,pilot_number,")).toBe(true);
    expect(text.split("\r\n")).toHaveLength(6);
    const xlsxRun = await runCli(["plan", book, ...against(sandbox)]);
    expect(xlsxRun.code).toBe(1);
    const fromXlsx = sheetRows(await readWorkbook(join(dir, "acme.plan.xlsx"))).values;
    expect(parse(text, { bom: true })).toEqual(fromXlsx);
  });

  it("writes a workbook for a CSV input when --results ends .xlsx, holding the cells the CSV results hold", async () => {
    const dir = await tempDir();
    const sheet = join(dir, "numbers.csv");
    await writeFile(sheet, `number,pilot_number,${FORM_HEADER},note\n416-555-3021,4165550100,${FORM_CELLS},"a, b"\n4165553022,4165550100,${FORM_CELLS},=1+1\n41655,4165550100,${FORM_CELLS},short\n`);
    expect((await runCli(["plan", sheet, "--results", join(dir, "out.xlsx"), ...against(sandbox)])).code).toBe(1);
    expect((await runCli(["plan", sheet, ...against(sandbox)])).code).toBe(1);
    const csvRows = await readResults(join(dir, "numbers.plan.csv"));
    const { values } = sheetRows(await readWorkbook(join(dir, "out.xlsx")));
    expect(values.slice(1).map((row) => Object.fromEntries(row.map((cell, i) => [values[0]?.[i] ?? "", cell])))).toEqual(csvRows);
    expect(csvRows.map((r) => [r["number"], r["note"], r.result_status])).toEqual([
      ["416-555-3021", "a, b", "planned"],
      ["4165553022", "'=1+1", "planned"],
      ["41655", "short", "invalid"],
    ]);
  });
});

describe("workbooks that cannot be trusted", () => {
  it("refuses a password-protected workbook: one line, exit 2, no stack trace, nothing sent", async () => {
    const book = join(await tempDir(), "encrypted.xlsx");
    await copyFile(fixture("input/encrypted.xlsx"), book);
    const run = await runCli(["submit", book, ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("the workbook is password-protected (encrypted)");
    expect(sandbox.received()).toEqual([]);
  });

  it("refuses a workbook whose reading stops part-way, rather than leaving node to exit in silence", async () => {
    const dir = await tempDir();
    const whole = await readFile(await customerBook(dir));
    // Damage the compressed bytes of the workbook's relationships, which the reader reads before any row.
    const entry = whole.indexOf(Buffer.from("xl/_rels/workbook.xml.rels"));
    const damaged = Buffer.from(whole);
    damaged.fill(0x41, entry + 30, entry + 60);
    const path = join(dir, "damaged.xlsx");
    await writeFile(path, damaged);
    const run = await runCli(["plan", path, ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^portin: .*damaged\.xlsx: cannot be read as an \.xlsx workbook \(.+\); it may be damaged: save it again from Excel; nothing was sent\n$/);
  });

  it("reads a workbook whose worksheet comes before its shared strings with no temporary directory to keep it in", async () => {
    const dir = await tempDir();
    // exceljs's writer puts the worksheet before the shared strings: the reader reads the zip's
    // directory first and each part where it lies, never holding one aside in TMPDIR.
    const book = await customerBook(dir);
    const run = await runCli(["plan", book, "--results", "-", ...against(sandbox)], { env: { TMPDIR: join(dir, "no-such-dir") } });
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code).toBe(1);
    expect(parseResults(run.stdout).map((row) => [row["number"], row["result_status"]])).toEqual([
      ["4165553001", "planned"],
      ["4165553002", "planned"],
      ["4.16555E+09", "invalid"],
      ["8005553004", "planned"],
    ]);
  });

  it("refuses a truncated workbook", async () => {
    const dir = await tempDir();
    const whole = await readFile(await customerBook(dir));
    const path = join(dir, "cut.xlsx");
    await writeFile(path, whole.subarray(0, Math.floor(whole.length / 2)));
    const run = await runCli(["plan", path, ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`portin: ${path}: the workbook is cut short or damaged (its zip directory is missing); save it again from Excel or copy it again; nothing was sent\n`);
  });
});
