/**
 * Workbook input (docs/contract.md §3, "Workbooks"): .xlsx workbooks made here with exceljs, and
 * the .xls fixture, read through openSheet as the engine reads them.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, createWriteStream, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { openSheet } from "../../src/input/sheet.js";
import { AHEAD_BYTES, BATCH_ROWS } from "../../src/input/workbook.js";
import { MAX_WHOLE_BOOK_BYTES } from "../../src/input/workbook-book.js";
import type { SheetLayout, SheetRow } from "../../src/input/types.js";
import { fixture } from "../e2e/fixtures.js";
import { writeWorkbook } from "../support/workbooks.js";
import type { SheetSpec } from "../support/workbooks.js";
import { refusal } from "./helpers.js";
import { ensureNarrowBook, writeBookParts } from "../../bench/narrow-workbook.js";
import type { BookShape } from "../../bench/narrow-workbook.js";

const dir = mkdtempSync(join(tmpdir(), "portin-workbook-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let made = 0;

async function book(sheets: readonly SheetSpec[]): Promise<string> {
  return writeWorkbook(join(dir, `book-${made++}.xlsx`), sheets);
}

async function readAll(path: string, sheet?: string): Promise<{ layout: SheetLayout; rows: SheetRow[] }> {
  const opened = await openSheet(path, { sheet });
  const rows: SheetRow[] = [];
  for await (const row of opened.rows) rows.push(row);
  return { layout: opened.layout, rows };
}

const utc = (iso: string): Date => new Date(`${iso}Z`);

/** A note so long that two batches of rows holding it fill what the reading thread may read ahead. */
function longNote(i: number): string {
  return `n${i}`.padEnd(Math.ceil(AHEAD_BYTES / BATCH_ROWS / 2), ".");
}

describe("reading a workbook's cells", () => {
  it("gives number cells exactly, text as written, dates as YYYY-MM-DD and times as HH:MM", async () => {
    const path = await book([
      {
        name: "Numbers",
        rows: [
          ["number", "pilot_number", "portform.RequestedPortDate", "portform.RequestedPortTime", "when", "item.Account", "item.Enabled", "ratio"],
          [
            4165550101,
            "416-555-0100",
            { value: utc("2026-12-08T00:00:00"), numFmt: "yyyy-mm-dd" },
            { value: utc("1899-12-30T09:30:00"), numFmt: "h:mm" },
            { value: utc("2026-12-08T17:45:00"), numFmt: "d/m/yyyy h:mm" },
            300451,
            true,
            12.5,
          ],
          [8005550199, 4165550100, { value: utc("2027-01-11T00:00:00"), numFmt: "dd/mm/yyyy" }, "", "", "", false, 0.1],
        ],
      },
    ]);
    const { layout, rows } = await readAll(path);
    expect(layout.header).toEqual(["number", "pilot_number", "portform.RequestedPortDate", "portform.RequestedPortTime", "when", "item.Account", "item.Enabled", "ratio"]);
    expect(layout.columns.map((c) => c.role.kind)).toEqual(["number", "pilot", "member", "member", "passthrough", "member", "member", "passthrough"]);
    expect(rows.map((r) => [...r.cells])).toEqual([
      ["4165550101", "416-555-0100", "2026-12-08", "09:30", "2026-12-08 17:45", "300451", "TRUE", "12.5"],
      ["8005550199", "4165550100", "2027-01-11", "", "", "", "FALSE", "0.1"],
    ]);
    expect(rows.every((r) => r.problem === undefined)).toBe(true);
  });

  it("numbers rows by their Excel row, skips empty rows, and takes the first row with a value as the header", async () => {
    const path = await book([{ name: "Numbers", rows: [null, ["number", "note"], [4165550101, "a"], null, ["", ""], ["  ", ""], [4165550102, "b"]] }]);
    const { rows } = await readAll(path);
    expect(rows.map((r) => [r.index, r.line, r.cells[0]])).toEqual([
      [0, 3, "4165550101"],
      [1, 7, "4165550102"],
    ]);
  });

  it("gives a formula's saved result: a number, a date when formatted as one, text, a shared formula's copy", async () => {
    const path = await book([
      {
        name: "Numbers",
        rows: [
          ["number", "portform.RequestedPortDate", "portform.CustomerName", "copy"],
          [
            { formula: "4165550000+101", result: 4165550101 },
            { value: { formula: "DATE(2026,12,8)", result: 46364 }, numFmt: "yyyy-mm-dd" },
            { formula: 'CONCAT("Acme"," Plumbing")', result: "Acme Plumbing" },
            { formula: "A2*1", result: 4165550101 },
          ],
          [{ formula: "4165550000+102", result: 4165550102 }, "", "", { sharedFormula: "D2", result: 4165550102 }],
        ],
      },
    ]);
    const { rows } = await readAll(path);
    expect(rows.map((r) => [...r.cells])).toEqual([
      ["4165550101", "2026-12-08", "Acme Plumbing", "4165550101"],
      ["4165550102", "", "", "4165550102"],
    ]);
  });

  it("gives rich text and a hyperlink as their text", async () => {
    const path = await book([
      {
        name: "Numbers",
        rows: [
          ["number", "portform.CustomerName", "site"],
          [{ text: "416-555-0101", hyperlink: "tel:+14165550101" }, { richText: [{ text: "Acme " }, { text: "Plumbing", font: { bold: true } }] }, { text: "map", hyperlink: "https://example.ca" }],
        ],
      },
    ]);
    const { rows } = await readAll(path);
    expect(rows.map((r) => [...r.cells])).toEqual([["416-555-0101", "Acme Plumbing", "map"]]);
  });
});

describe("cells a row cannot use", () => {
  it("marks a number Excel already turned into 4.16556E+09 text, naming the cell and the fix", async () => {
    const path = await book([{ name: "Numbers", rows: [["number", "pilot_number"], [4165550101, 4165550100], ["4.16556E+09", 4165550100]] }]);
    const { rows } = await readAll(path);
    expect(rows[0]?.problem).toBeUndefined();
    expect(rows[1]?.cells[0]).toBe("4.16556E+09");
    expect(rows[1]?.problem).toMatch(/^Numbers!A3 holds the text "4\.16556E\+09": Excel showed a long number in scientific notation .*format the column as Text/);
  });

  it("marks an error value, and a formula without a saved result, in a column that is sent", async () => {
    const path = await book([
      {
        name: "Numbers",
        rows: [
          ["number", "portform.CustomerName"],
          [4165550101, { error: "#N/A" }],
          [{ formula: "4165550000+102" }, "Acme"],
        ],
      },
    ]);
    const { rows } = await readAll(path);
    expect(rows.map((r) => r.problem)).toEqual([
      "Numbers!B2 holds #N/A, an error in the source sheet: fix the formula or the value",
      "Numbers!A3 is a formula without a saved result (open the workbook in Excel and save it, or type the value)",
    ]);
  });

  it("copies such cells in a column that is never sent without marking the row", async () => {
    const path = await book([{ name: "Numbers", rows: [["number", "note", "account #"], [4165550101, { error: "#REF!" }, "7.74122E+11"]] }]);
    const { rows } = await readAll(path);
    expect(rows.map((r) => [[...r.cells], r.problem])).toEqual([[["4165550101", "#REF!", "7.74122E+11"], undefined]]);
  });

  it("reads inline strings as shared ones, as other writers than exceljs store them", async () => {
    // The bench's narrow workbook, its XML written by hand: each cell kind in each column.
    const shapes: BookShape[] = [
      { number: "number", pilot: "number", reference: "shared", note: "inline", stringsFirst: true },
      { number: "inline", pilot: "shared", reference: "inline", note: "shared", stringsFirst: true },
      { number: "shared", pilot: "inline", reference: "shared", note: "inline", stringsFirst: true },
    ];
    const read = await Promise.all(shapes.map(async (shape, at) => readAll(await ensureNarrowBook(join(dir, `narrow-${at}.xlsx`), shape, 6))));
    for (const { layout, rows } of read) {
      expect(layout.header).toEqual(["number", "pilot_number", "portform.CustomerReferenceNumber", "note"]);
      expect(rows.map((row) => [row.line, ...row.cells, row.problem])).toEqual([
        [2, "4162000000", "4165550100", "PO-0008", "moved from Bell, desk 0", undefined],
        [3, "6472000000", "5145550100", "PO-0009", "desk 1", undefined],
        [4, "4372000000", "6045550100", expect.stringMatching(/^PO-00\d\d$/), "desk 2", undefined],
        [5, "9052000000", "4165550100", expect.stringMatching(/^PO-00\d\d$/), "desk 3", undefined],
        [6, "2892000000", "5145550100", expect.stringMatching(/^PO-00\d\d$/), "desk 4", undefined],
        [7, "3652000000", "6045550100", expect.stringMatching(/^PO-00\d\d$/), "moved from Bell, desk 5", undefined],
      ]);
    }
    // Whatever the cell kinds, the same text.
    expect(read[1]?.rows.map((row) => row.cells)).toEqual(read[0]?.rows.map((row) => row.cells));
    expect(read[2]?.rows.map((row) => row.cells)).toEqual(read[0]?.rows.map((row) => row.cells));
  });

  it("reads a shared string's ST_Xstring escapes as the characters Excel shows (_x000A_ a line feed)", async () => {
    const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2"><v>4165550101</v></c><c r="B2" t="s"><v>2</v></c></row></sheetData></worksheet>`;
    const strings = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>number</t></si><si><t>note</t></si><si><t>Suite 4_x000A_rear door, _x005F_x0041_</t></si></sst>';
    const path = await writeBookParts(join(dir, `escaped-${made++}.xlsx`), Buffer.from(sheet), strings, false);
    const { rows } = await readAll(path);
    expect(rows.map((r) => [...r.cells])).toEqual([["4165550101", "Suite 4\nrear door, _x0041_"]]);
  });

  it("reads accented text whole wherever the unzipped chunks cut a character's bytes", async () => {
    // Shared strings of two- and three-byte characters: some of the chunks they are unzipped in
    // end inside one, where a decoder per chunk read six of these as "\uFFFD".
    const notes = Array.from({ length: 20_000 }, (_, i) => `Café Élodie ☎ ${i}`);
    const path = await book([{ name: "Numbers", rows: [["number", "note"], ...notes.map((note, i) => [4165550000 + i, note])] }]);
    const { rows } = await readAll(path);
    expect(rows.map((row) => row.cells[1])).toEqual(notes);
  });

  it("reads a sheet longer than the reading thread's batches: every row in order, each problem on its own row", async () => {
    // Several batches, and more than the thread reads ahead (workbook.ts BATCH_ROWS, AHEAD_BYTES).
    const count = BATCH_ROWS * 6 + 500;
    // Data rows with an unusable cell where it is sent: either side of a batch's end, and two in one batch.
    const sentProblems = new Set([BATCH_ROWS - 1, BATCH_ROWS, 2 * BATCH_ROWS + 10, 2 * BATCH_ROWS + 11]);
    // A row whose unusable cell is in a column never sent, before one that is: only the latter counts.
    const both = 3 * BATCH_ROWS + 7;
    const rows: (unknown[] | null)[] = [["number", "note", "portform.CustomerName"]];
    for (let i = 0; i < count; i++) {
      if (i % 1000 === 999) rows.push(null);
      const note = i === both || i === 5 ? { error: "#REF!" } : longNote(i);
      rows.push([4165560000 + i, note, sentProblems.has(i) || i === both ? { error: "#N/A" } : "Acme"]);
    }
    const path = await book([{ name: "Numbers", rows: rows as SheetSpec["rows"] }]);
    const read = await readAll(path);
    expect(read.rows.map((r) => r.index)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(read.rows.map((r) => r.cells[0])).toEqual(Array.from({ length: count }, (_, i) => String(4165560000 + i)));
    // Excel rows: the header is row 1, and a blank row comes before every thousandth data row.
    const lineOf = (i: number): number => i + 2 + Math.floor((i + 1) / 1000);
    expect(read.rows.map((r) => r.line)).toEqual(Array.from({ length: count }, (_, i) => lineOf(i)));
    const expected = [...sentProblems, both].sort((x, y) => x - y).map((i) => [i, `Numbers!C${lineOf(i)} holds #N/A, an error in the source sheet: fix the formula or the value`]);
    expect(read.rows.filter((r) => r.problem !== undefined).map((r) => [r.index, r.problem])).toEqual(expected);
    expect(read.rows[5]?.cells[1]).toBe("#REF!");
  });

  it("lets the process end when a long sheet's rows are never read, or read only in part", async () => {
    const rows = [["number", "note"], ...Array.from({ length: BATCH_ROWS * 6 }, (_, i) => [4165560000 + i, longNote(i)])];
    const path = await book([{ name: "Numbers", rows }]);
    // The build's own reader, as the CLI runs it; vitest would keep a left thread alive itself.
    const sheetModule = new URL("../../dist/src/input/sheet.js", import.meta.url).href;
    const open = `const { openSheet } = await import(${JSON.stringify(sheetModule)}); const sheet = await openSheet(${JSON.stringify(path)});`;
    const scripts = [
      `${open} console.log(sheet.layout.header.join());`,
      `${open} let n = 0; for await (const row of sheet.rows) if (++n === 10) break; console.log(n);`,
    ];
    const runs = scripts.map((script) => spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 }));
    expect(runs.map((run) => [run.signal, run.status, run.stdout.trim(), run.stderr])).toEqual([
      [null, 0, "number,note", ""],
      [null, 0, "10", ""],
    ]);
  });

  it("passes over a title row above the header, as the CSV reader does", async () => {
    const path = await book([{ name: "Numbers", rows: [["Acme Plumbing - numbers to port (wave 3)"], null, ["Phone #", "note"], ["number", "note"], [4165550101, "a"]] }]);
    // "Phone #" is not a number column without a mapping: that row is passed over too.
    const { layout, rows } = await readAll(path);
    expect([layout.header, layout.headerLine]).toEqual([["number", "note"], 4]);
    expect(rows.map((r) => [r.line, [...r.cells]])).toEqual([[5, ["4165550101", "a"]]]);
  });

  it("names the title row when no row of the first ten has a number column", async () => {
    const rows = [["Acme Plumbing - wave 3"], ...Array.from({ length: 12 }, (_, i) => [`note ${i}`, "x"])];
    const path = await book([{ name: "Numbers", rows }]);
    expect(await refusal(readAll(path))).toMatchObject({
      name: "InputError",
      exitCode: 2,
      message: `${path}, worksheet "Numbers": no number column in lines 1-10 (line 1 reads "Acme Plumbing - wave 3"); name the column of numbers to port one of "number", "telephone_number", "phone_number", "tn", or map yours in --defaults "columns"`,
    });
  });

  it("refuses a cell past the cell limit, as a CSV's, naming it", async () => {
    const path = await book([{ name: "Numbers", rows: [["number", "note"], [4165550101, "x".repeat(70_000)]] }]);
    expect(await refusal(readAll(path))).toMatchObject({
      name: "InputError",
      exitCode: 2,
      message: `${path}: Numbers!B2 has 70,000 characters, more than the 65,536 portin reads in a cell; nothing was sent`,
    });
  });

  it("marks a value in a column with no header above it", async () => {
    const path = await book([{ name: "Numbers", rows: [["number", "note"], [4165550101, "a", "", "stray"], [4165550102, "b", "", ""]] }]);
    const { layout, rows } = await readAll(path);
    expect(layout.header).toEqual(["number", "note"]);
    expect(rows.map((r) => r.problem)).toEqual(["Numbers!D2 has a value but no header above it: name the column in the header row or clear the cell", undefined]);
  });
});

describe("choosing the worksheet", () => {
  const sheets: readonly SheetSpec[] = [
    { name: "Lists", state: "hidden", rows: [["number", "provider"], [4165550199, "Bell Canada"]] },
    { name: "Port list", rows: [["number"], [4165550101]] },
    { name: "Toll free", rows: [["tn"], [8005550199], [8005550198]] },
  ];

  // LibreOffice's workbook re-packed by fixtures/workbooks/reorder.py: each part a worksheet
  // depends on after it, and last in the zip (docs/contract.md §3, "Workbooks"); test/e2e/xlsx.test.ts
  // runs one of them through the CLI.
  it.each(["strings-last", "styles-last", "workbook-last", "rels-last", "sheet-first"] as const)("reads a workbook whose zip holds its parts in another order (%s): strings and dates as written", async (order) => {
    const { layout, rows } = await readAll(fixture(`workbooks/reordered-${order}.xlsx`));
    expect(layout.header).toEqual(["number", "pilot_number", "portform.CustomerName", "note"]);
    expect(rows.map((row) => row.cells)).toEqual([
      ["4165550101", "4165550100", "Maple Leaf Dental", "2026-11-30"],
      ["4165550102", "4165550100", "Maple Leaf Dental", "2026-12-01"],
    ]);
  });

  it("reads the first visible worksheet by default", async () => {
    const { rows } = await readAll(await book(sheets));
    expect(rows.map((r) => r.cells[0])).toEqual(["4165550101"]);
  });

  it("reads an .ods's first visible sheet, past one LibreOffice hides by its table style", async () => {
    const table = (name: string, style: string, rows: string): string => `<table:table table:name="${name}" table:style-name="${style}">${rows}</table:table>`;
    const cells = (...texts: string[]): string => `<table:table-row>${texts.map((text) => `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`).join("")}</table:table-row>`;
    const content =
      '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">' +
      '<office:automatic-styles><style:style style:name="ta1" style:family="table"><style:table-properties table:display="false"/></style:style><style:style style:name="ta2" style:family="table"><style:table-properties table:display="true"/></style:style></office:automatic-styles>' +
      `<office:body><office:spreadsheet>${table("Lists", "ta1", cells("providers") + cells("Bell Canada"))}${table("Numbers", "ta2", cells("number", "note") + cells("4165550101", "first"))}</office:spreadsheet></office:body></office:document-content>`;
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from("application/vnd.oasis.opendocument.spreadsheet"), "mimetype", { compress: false });
    zip.addBuffer(Buffer.from(content), "content.xml");
    zip.addBuffer(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>'), "styles.xml");
    zip.addBuffer(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'), "META-INF/manifest.xml");
    zip.end();
    const path = join(dir, "hidden-first.ods");
    await pipeline(zip.outputStream, createWriteStream(path));
    const { layout, rows } = await readAll(path);
    expect(layout.header).toEqual(["number", "note"]);
    expect(rows.map((r) => [r.line, ...r.cells])).toEqual([[2, "4165550101", "first"]]);
    // --sheet still reaches the hidden one.
    expect((await refusal(readAll(path, "lists"))).message).toContain(`${path}, worksheet "Lists": no number column`);
  });

  it("reads the worksheet --sheet names, in any case", async () => {
    const path = await book(sheets);
    expect((await readAll(path, "toll FREE")).rows.map((r) => r.cells[0])).toEqual(["8005550199", "8005550198"]);
    expect((await readAll(path, "Lists")).rows.map((r) => [...r.cells])).toEqual([["4165550199", "Bell Canada"]]);
  });

  it("refuses a --sheet the workbook lacks, listing the ones it has", async () => {
    const path = await book(sheets);
    expect(await refusal(readAll(path, "Numbers"))).toEqual({
      name: "InputError",
      exitCode: 2,
      message: `${path}: no worksheet named "Numbers" (it has "Lists", "Port list", "Toll free"); name one with --sheet`,
    });
  });

  it("refuses --sheet for a CSV input", async () => {
    const csv = join(dir, "plain.csv");
    writeFileSync(csv, "number\n4165550101\n");
    expect((await refusal(readAll(csv, "Numbers"))).message).toBe(`--sheet names a worksheet of a workbook (.xlsx, .xls, .ods), and ${csv} is read as CSV`);
  });
});

describe("refused workbooks", () => {
  it("names the worksheet and the header cell of an unknown member", async () => {
    const path = await book([{ name: "Port list", rows: [["number", "pilot_number", "portform.CustomerNme"], [4165550101, 4165550100, "Acme"]] }]);
    expect(await refusal(readAll(path))).toEqual({
      name: "InputError",
      exitCode: 2,
      message: `${path}, worksheet "Port list": 'Port list'!C1 "portform.CustomerNme" names no PortForm member; did you mean "portform.CustomerName"?`,
    });
  });

  it("refuses a worksheet without a number column, naming it", async () => {
    const path = await book([{ name: "Numbers", rows: [["phone #"], [4165550101]] }]);
    expect((await refusal(readAll(path))).message).toMatch(/^.*\.xlsx, worksheet "Numbers": no number column/);
  });

  it("refuses an empty worksheet", async () => {
    const path = await book([{ name: "Numbers", rows: [] }]);
    expect((await refusal(readAll(path))).message).toBe(`${path}: worksheet "Numbers" is empty; it needs a header row with a number column; nothing was sent`);
  });

  it("refuses a password-protected workbook in one line", async () => {
    // fixtures/input/encrypted.xlsx: a two-row workbook encrypted by Excel's standard (ECMA-376
    // agile) scheme with the password "portin"; msoffcrypto-tool decrypts it.
    const path = fixture("input/encrypted.xlsx");
    const refused = await refusal(readAll(path));
    expect(refused).toMatchObject({ name: "InputError", exitCode: 2 });
    expect(refused.message).toBe(
      `${path}: the workbook is password-protected (encrypted), so it cannot be read; save a copy without a password (File > Info > Protect Workbook > Encrypt with Password, clear it) and run that; nothing was sent`,
    );
  });

  it("refuses a workbook cut short, before reading any row", async () => {
    const whole = await book([{ name: "Numbers", rows: [["number"], [4165550101]] }]);
    const cut = join(dir, "cut.xlsx");
    const bytes = readFileSync(whole);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 200));
    expect((await refusal(readAll(cut))).message).toBe(
      `${cut}: the workbook is cut short or damaged (its zip directory is missing); save it again from Excel or copy it again; nothing was sent`,
    );
  });

  it("refuses a damaged workbook whose worksheet does not inflate", async () => {
    const whole = await book([{ name: "Numbers", rows: [["number"], [4165550101]] }]);
    const bytes = Buffer.from(readFileSync(whole));
    // Past the worksheet's local header (30 bytes and its name), its deflated data: a stored
    // block of 'A's, whose lengths do not match.
    const name = Buffer.from("xl/worksheets/sheet1.xml");
    const data = bytes.indexOf(name) + name.length;
    bytes.fill(0x41, data, data + 40);
    const damaged = join(dir, "damaged.xlsx");
    writeFileSync(damaged, bytes);
    const refused = await refusal(readAll(damaged));
    expect(refused).toMatchObject({ name: "InputError", exitCode: 2 });
    expect(refused.message).toMatch(/damaged\.xlsx: cannot be read as an \.xlsx workbook \(.+\); it may be damaged: save it again from Excel; nothing was sent$/);
  });

  it.each([
    ["is cut short", '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>4165550101</v>', "1:\\d+: unclosed tag: c"],
    ["refers to a shared string the workbook lacks", '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>7</v></c></row></sheetData></worksheet>', "cell A2 refers to shared string 7, which the workbook does not hold"],
  ])("refuses a workbook whose worksheet %s as damaged, in one line, rather than reading part of it", async (_, rows, why) => {
    const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}`;
    const strings = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>number</t></si></sst>';
    const path = await writeBookParts(join(dir, `damaged-sheet-${made++}.xlsx`), Buffer.from(sheet), strings, true);
    const refused = await refusal(readAll(path));
    expect(refused).toMatchObject({ name: "InputError", exitCode: 2 });
    expect(refused.message).toMatch(new RegExp(`^${path.replace(/[.\\/]/g, "\\$&")}: cannot be read as an \\.xlsx workbook \\(${why}\\); it may be damaged: save it again from Excel; nothing was sent$`));
  });

  it("refuses an .xls past what it reads whole, in one line, before reading it", async () => {
    // The .xls fixture, grown to 65 MiB with a hole: its directory still says it is an Excel workbook.
    const big = join(dir, "big.xls");
    copyFileSync(fixture("workbooks/libreoffice-sample.xls"), big);
    truncateSync(big, MAX_WHOLE_BOOK_BYTES + 1024 * 1024);
    expect((await refusal(readAll(big))).message).toBe(
      `${big}: portin reads an .xls workbook whole, at most 64 MiB, and this one holds 65 MiB: save it as .xlsx (read as it streams) and run that; nothing was sent`,
    );
  });

  it("refuses an .ods whose content is past what it reads whole, from the zip's directory, before inflating it", async () => {
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from("application/vnd.oasis.opendocument.spreadsheet"), "mimetype", { compress: false });
    zip.addBuffer(Buffer.alloc(MAX_WHOLE_BOOK_BYTES + 1024 * 1024, " "), "content.xml");
    zip.end();
    const big = join(dir, "big.ods");
    await pipeline(zip.outputStream, createWriteStream(big));
    expect((await refusal(readAll(big))).message).toBe(
      `${big}: portin reads an .ods workbook whole, at most 64 MiB, and this one holds 65 MiB unzipped: save it as .xlsx (read as it streams) and run that; nothing was sent`,
    );
  });

  it("refuses a file that is not a workbook at all", async () => {
    const text = join(dir, "numbers.xlsx");
    writeFileSync(text, "number\n4165550101\n");
    expect((await refusal(readAll(text))).message).toBe(
      `${text}: not an .xlsx workbook (it does not begin as one; a CSV file must be named .csv); nothing was sent`,
    );
  });

  it("refuses an empty file", async () => {
    const empty = join(dir, "empty.xlsx");
    writeFileSync(empty, "");
    expect((await refusal(readAll(empty))).message).toBe(`${empty}: the file is empty; it needs a worksheet with a header row and a number column`);
  });
});
