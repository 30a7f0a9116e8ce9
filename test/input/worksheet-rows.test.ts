/**
 * A worksheet's rows read from its XML (src/input/worksheet-rows.ts, docs/contract.md §3,
 * "Workbooks"): each kind of cell as its text, and, for the workbooks other programs wrote, the
 * same cells as SheetJS, a reader written apart from this one, reads in them.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { cellText } from "../../src/input/cell-text.js";
import { openWithSheetJs } from "../../src/input/workbook-sheetjs.js";
import { openXlsx } from "../../src/input/workbook-xlsx.js";
import { eachSheetRow, SheetDamage } from "../../src/input/worksheet-rows.js";
import type { SheetRow, WorkbookParts } from "../../src/input/worksheet-rows.js";
import { fixture, SUITE_FIXTURES } from "../e2e/fixtures.js";

/** A row as cell-text.ts reads it: its number, then `column:text` for each cell. */
type ReadRow = [number, ...string[]];

function readRow(row: Pick<SheetRow, "number" | "eachCell">, date1904: boolean): ReadRow {
  const cells: string[] = [];
  row.eachCell((value, column) => {
    const read = cellText(value, date1904);
    cells.push(`${column}:${typeof read === "string" ? read : `${read.text} (${read.problem})`}`);
  });
  return [row.number, ...cells];
}

const FORMATS: Record<number, string> = { 1: "yyyy-mm-dd", 2: "0.00", 3: "YYYY" };
const parts: WorkbookParts = { sharedStrings: ["shared zero", "shared one"], numberFormat: (style) => FORMATS[style], date1904: false };

/** The sheet's XML as unzipped chunks, cut where the pieces end. */
function chunks(...pieces: (string | Buffer)[]): AsyncIterable<Buffer> {
  return Readable.from(pieces.map((piece) => (typeof piece === "string" ? Buffer.from(piece) : piece)));
}

async function rowsOf(...pieces: (string | Buffer)[]): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  await eachSheetRow(chunks(...pieces), parts, (row) => rows.push(readRow(row, parts.date1904)));
  return rows;
}

const sheet = (rows: string): string => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

describe("a worksheet's cells", () => {
  it("reads each kind of cell", async () => {
    const rows = await rowsOf(
      sheet(
        '<row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1"><v>4165550101</v></c><c r="C1" s="1"><v>46364</v></c><c r="D1" s="2"><v>12.5</v></c></row>' +
          '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="e"><v>#N/A</v></c><c r="C3" t="str"><f>A1</f><v>x</v></c><c r="D3"><f>1+1</f><v>2</v></c><c r="E3"><f>1+1</f></c><c r="F3" s="5"/></row>',
      ),
    );
    expect(rows).toEqual([
      [1, "1:shared one", "2:4165550101", "3:2026-12-08", "4:12.5"],
      [3, "1:TRUE", "2:#N/A (holds #N/A, an error in the source sheet: fix the formula or the value)", "3:x", "4:2", "5: (is a formula without a saved result (open the workbook in Excel and save it, or type the value))"],
    ]);
  });

  it("reads a date format in capitals, an ISO date cell, a formula never calculated", async () => {
    const rows = await rowsOf(
      sheet(
        '<row r="1"><c r="A1" s="3"><v>46364</v></c><c r="B1" t="d"><v>2026-12-08T09:30:00</v></c><c r="C1" t="d"><v>2026-12-08</v></c>' +
          '<c r="D1"><f>A1</f><v></v></c><c r="E1" t="str"><f>A1</f><v></v></c><c r="F1" s="1"><v>46364.077170138604</v></c></row>',
      ),
    );
    expect(rows).toEqual([[1, "1:2026-12-08", "2:2026-12-08 09:30", "3:2026-12-08", "4: (is a formula without a saved result (open the workbook in Excel and save it, or type the value))", "5:", "6:2026-12-08 01:51:08"]]);
  });

  it("lends a row's style to none of its cells: a cell without s has style 0, as ECMA-376 says ", async () => {
    const rows = await rowsOf(sheet('<row r="1" s="1" customFormat="1"><c r="A1"><v>46364</v></c><c r="B1" s="1"><v>46364</v></c></row>'));
    expect(rows).toEqual([[1, "1:46364", "2:2026-12-08"]]);
  });

  it("gives a row's cells in column order, the last of two in one column kept", async () => {
    const rows = await rowsOf(sheet('<row r="1"><c r="C1"><v>3</v></c><c r="A1" t="e"><v>#N/A</v></c><c r="B1"><v>2</v></c><c r="A1"><v>1</v></c><c r="D1"><v>4</v></c></row>'));
    expect(rows).toEqual([[1, "1:1", "2:2", "3:3", "4:4"]]);
  });

  it("reads an inline string of several runs whole, leaving out its phonetic guide", async () => {
    const rows = await rowsOf(sheet('<row r="2"><c r="C2" t="inlineStr"><is><r><t>Maple </t></r><r><rPr><b/></rPr><t>Leaf</t></r><rPh sb="0" eb="1"><t>メープル</t></rPh></is></c></row>'));
    expect(rows).toEqual([[2, "3:Maple Leaf"]]);
  });

  it("decodes text once: the typed text &lt; stays &lt;", async () => {
    const rows = await rowsOf(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>&amp;lt; &amp; &lt;</t></is></c><c r="B1" t="str"><f>A1</f><v>&amp;amp;</v></c><c r="C1" t="inlineStr"><is><t><![CDATA[<raw>]]></t></is></c></row>'));
    expect(rows).toEqual([[1, "1:&lt; & <", "2:&amp;", "3:<raw>"]]);
  });

  it("reads ST_Xstring escapes as the characters Excel shows: _x000D_ a carriage return, _x005F_ an underscore", async () => {
    const rows = await rowsOf(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>a_x000D_b _x005F_x0041_ _x</t></is></c><c r="B1" t="str"><f>A1</f><v>c_x000A_d</v></c></row>'));
    expect(rows).toEqual([[1, "1:a\rb _x0041_ _x", "2:c\nd"]]);
  });

  it("reads a character whose bytes are split between two chunks", async () => {
    const xml = Buffer.from(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>Café ☎</t></is></c></row>'));
    for (const character of ["é", "☎"]) {
      const at = xml.indexOf(character) + 1;
      expect(await rowsOf(xml.subarray(0, at), xml.subarray(at))).toEqual([[1, "1:Café ☎"]]);
    }
  });

  it("numbers a row or cell without its reference after the one before", async () => {
    const rows = await rowsOf(sheet('<row r="4"><c r="B4"><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c><c r="D5"><v>4</v></c><c><v>5</v></c><c r="7"><v>6</v></c><c r="aa5"><v>7</v></c></row>'));
    expect(rows).toEqual([
      [4, "2:1", "3:2"],
      [5, "1:3", "4:4", "5:5", "6:6", "27:7"],
    ]);
  });

  it("hands over blank rows, and rows only within sheetData", async () => {
    const rows = await rowsOf(sheet('<row r="1"/><row r="2"><c r="A2" s="2"/></row>').replace("<sheetData>", '<sheetPr><row r="9"/></sheetPr><sheetData>'));
    expect(rows).toEqual([[1], [2]]);
  });

  it.each([
    ["cut short", sheet('<row r="1"><c r="A1"><v>1</v></c></row>').slice(0, -40), /^1:\d+: unclosed tag: c$/],
    ["malformed", sheet('<row r="1"><c r="A1"><v>1</c></row>'), /unexpected close tag/],
    ["refers to a shared string the workbook lacks", sheet('<row r="7"><c r="C7" t="s"><v>2</v></c></row>'), /^cell C7 refers to shared string 2, which the workbook does not hold$/],
    ["past Excel's last column", sheet('<row r="1"><c r="XFE1"><v>1</v></c></row>'), /^cell XFE1 is past Excel's last column, XFD$/],
  ])("refuses a sheet whose XML is %s as damage", async (_, xml, message) => {
    const refused = rowsOf(xml);
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toBeInstanceOf(SheetDamage);
  });

  it("refuses a sheet whose stream fails as damage, the stream's error its cause; what onRow throws rejects as it is", async () => {
    const broken = new Error("invalid distance too far back");
    // A stream that fails after its first chunk, as a zip entry that stops inflating does.
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from(sheet('<row r="1"><c r="A1"><v>1</v></c></row>').slice(0, 80)));
    setImmediate(() => failing.destroy(broken));
    await expect(eachSheetRow(failing, parts, () => undefined)).rejects.toMatchObject({ constructor: SheetDamage, message: broken.message, cause: broken });
    const mine = new TypeError("a bug of the caller's");
    await expect(
      eachSheetRow(chunks(sheet('<row r="1"><c r="A1"><v>1</v></c></row>')), parts, () => {
        throw mine;
      }),
    ).rejects.toBe(mine);
  });
});

/** Every worksheet's rows with a value, by this reader (workbook-xlsx.ts over worksheet-rows.ts) or by SheetJS reading the file whole. */
async function sheetsOf(path: string, by: "sheetjs" | "portin"): Promise<[string, ReadRow[]][]> {
  const book = by === "portin" ? await openXlsx(path) : await openWithSheetJs(path, ".xlsx");
  if ("contentBytes" in book) throw new Error(`${path} is not an .xlsx`);
  const sheets: [string, ReadRow[]][] = [];
  try {
    for (const sheet of book.sheets) {
      const rows: ReadRow[] = [];
      await book.eachRow(sheet, (row) => {
        const read = readRow(row, book.date1904);
        if (read.length > 1) rows.push(read);
      });
      sheets.push([sheet.name, rows]);
    }
  } finally {
    book.close();
  }
  return sheets;
}

describe("workbooks other programs wrote (fixtures/workbooks)", () => {
  // Named, not listed from the folder: a user's run of one of them writes its results beside it as a workbook.
  const books = SUITE_FIXTURES.filter((name) => name.startsWith("workbooks/") && name.endsWith(".xlsx"));

  it.each(books)("gives the same cells as SheetJS, another reader, in %s", async (name) => {
    const path = fixture(name);
    const expected = await sheetsOf(path, "sheetjs");
    expect(expected.flatMap(([, rows]) => rows).length).toBeGreaterThan(2);
    expect(await sheetsOf(path, "portin")).toEqual(expected);
  });
});
