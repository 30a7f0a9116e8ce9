import { writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetRow } from "../../src/input/types.js";
import { sheetFile } from "./helpers.js";

/** Reads every row, then re-reads each row's text from the file and parses it alone. */
async function rereadRows(path: string): Promise<{ rows: SheetRow[]; texts: (string[] | null)[] }> {
  const sheet = await openSheet(path);
  const rows: SheetRow[] = [];
  for await (const row of sheet.rows) rows.push(row);
  const raw = await sheet.reread();
  if (raw === null) throw new Error("the sheet could not be re-read");
  const texts: (string[] | null)[] = [];
  try {
    for (let i = 0; i < rows.length; i++) {
      const bytes = raw.rowAt(i) ?? (await raw.read(i));
      const records: string[][] = bytes === null ? [] : parse(Buffer.from(bytes), { delimiter: sheet.layout.delimiter, relax_column_count: true });
      texts.push(bytes === null ? null : (records[0] ?? [""]));
    }
  } finally {
    await raw.close();
  }
  return { rows, texts };
}

describe("re-reading the rows of a sheet file", () => {
  const sheets: Record<string, string | Buffer> = {
    "LF line ends": "number,note\n4165550101,first\n4165550102,second\n",
    "CRLF line ends": "number,note\r\n4165550101,first\r\n4165550102,second\r\n",
    "CR line ends": "number,note\r4165550101,first\r4165550102,second\r",
    "no line end after the last row": "number,note\n4165550101,first\n4165550102,second",
    "blank lines before, between and after rows": "\n\nnumber,note\n\n4165550101,first\n\n\n4165550102,second\n\n",
    "a row of empty cells between rows": "number,note\n4165550101,first\n,\n4165550102,second\n",
    "quoted cells holding delimiters, quotes and line breaks": 'number,note\n4165550101,"a, b"\n"4165550102","two\nlines ""quoted"""\n4165550103,"crlf\r\ninside"\n',
    "quoted cells with CRLF line ends": 'number,note\r\n4165550101,"one\r\ntwo"\r\n4165550102,x\r\n',
    "a UTF-8 BOM and multi-byte characters": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("number;note\n4165550101;Montréal 📞\n4165550102;Québec\n")]),
    "ragged rows": "number,note\n4165550101\n4165550102,b,extra\n",
  };
  for (const [name, text] of Object.entries(sheets)) {
    it(`gives back each row's own cells for a sheet with ${name}`, async () => {
      const { rows, texts } = await rereadRows(sheetFile(text));
      expect(rows.length).toBeGreaterThan(0);
      expect(texts).toEqual(rows.map((row) => [...row.cells]));
    });
  }

  it("gives back each row of a sheet larger than one read, across read boundaries", async () => {
    const lines = ["number,note"];
    for (let i = 0; i < 30_000; i++) lines.push(`416555${String(i).padStart(4, "0")},"row ${i}${i % 7 === 0 ? "\nsecond line" : ""}, padded ${"x".repeat(i % 50)}"`);
    const { rows, texts } = await rereadRows(sheetFile(lines.join("\r\n") + "\r\n"));
    expect(rows).toHaveLength(30_000);
    expect(texts).toEqual(rows.map((row) => [...row.cells]));
  });

  it("declines to re-read a file changed since it was read", async () => {
    const path = sheetFile("number,note\n4165550101,first\n");
    const sheet = await openSheet(path);
    for await (const row of sheet.rows) expect(row.cells).toEqual(["4165550101", "first"]);
    writeFileSync(path, "number,note\n4165550101,first, and longer now\n");
    expect(sheet.rereadable).toBe(true);
    expect(await sheet.reread()).toBeNull();
  });

  it("cannot re-read standard input", async () => {
    const sheet = await openSheet("-", { stdin: Readable.from(["number\n4165550101\n"]) });
    for await (const row of sheet.rows) expect(row.cells).toEqual(["4165550101"]);
    expect(sheet.rereadable).toBe(false);
    expect(await sheet.reread()).toBeNull();
  });
});
