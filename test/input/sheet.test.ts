import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetRow } from "../../src/input/types.js";
import { fixture as suiteFixture, type FixtureIn } from "../e2e/fixtures.js";
import { readAll, refusal, sheetFile } from "./helpers.js";

const fixture = (name: FixtureIn<"input">) => suiteFixture(`input/${name}`);

describe("reading a sheet", () => {
  it("reads a comma-separated sheet as cells, with each row's index and line", async () => {
    const path = sheetFile("number,note\n4165550101,first\n4165550102,second\n");
    const { layout, rows } = await readAll(path);
    expect(layout.delimiter).toBe(",");
    expect(layout.header).toEqual(["number", "note"]);
    expect(rows).toEqual([
      { index: 0, line: 2, cells: ["4165550101", "first"] },
      { index: 1, line: 3, cells: ["4165550102", "second"] },
    ]);
  });

  it("strips a UTF-8 BOM and detects the ; delimiter from the header line", async () => {
    const { layout, rows } = await readAll(fixture("bom-semicolon.csv"));
    expect(layout.delimiter).toBe(";");
    expect(layout.header).toEqual(["number", "pilot_number", "portform.CustomerName", "note"]);
    expect(layout.columns[0]?.role).toEqual({ kind: "number" });
    expect(rows.map((r) => r.cells)).toEqual([
      ["4165550101", "4165550000", "Acme; Inc.", "first"],
      ["4165550102", "4165550000", "Acme", "second"],
    ]);
  });

  it("detects the tab delimiter and keeps commas inside cells", async () => {
    const { layout, rows } = await readAll(fixture("tab-delimited.csv"));
    expect(layout.delimiter).toBe("\t");
    expect(layout.columns.map((c) => c.role.kind)).toEqual(["number", "offering", "member"]);
    expect(rows.map((r) => r.cells)).toEqual([
      ["4165550101", "offer-1", "Front desk"],
      ["4165550102", "offer-1", "Back, office"],
    ]);
  });

  it("ignores delimiters inside quoted header cells when detecting the delimiter", async () => {
    const { layout } = await readAll(sheetFile('"a;b;c",number,note\n1,2,3\n'));
    expect(layout.delimiter).toBe(",");
    expect(layout.header).toEqual(["a;b;c", "number", "note"]);
  });

  it("reads a one-column sheet with the comma delimiter", async () => {
    const { layout, rows } = await readAll(sheetFile("number\n4165550101\n"));
    expect(layout.delimiter).toBe(",");
    expect(rows.map((r) => r.cells)).toEqual([["4165550101"]]);
  });

  it("leaves cell values as written, spaces included", async () => {
    const { rows } = await readAll(sheetFile("number,note\n 4165550101 ,  padded  \n"));
    expect(rows[0]?.cells).toEqual([" 4165550101 ", "  padded  "]);
  });

  it("numbers rows by the line they start on, after CRLF, quoted newlines and blank lines", async () => {
    const { rows } = await readAll(fixture("crlf-multiline.csv"));
    expect(rows).toEqual([
      { index: 0, line: 2, cells: ["4165550101", "a", "two\r\nlines"] },
      { index: 1, line: 5, cells: ["4165550102", "b", "plain"] },
    ]);
  });

  it("counts a CRLF inside a quoted cell as one line break", async () => {
    const text = 'number,note\r\n4165550101,"a\r\nb\r\nc"\r\n4165550102,"d\re"\r\n4165550103,x\r\n4165550104,"open\r\n';
    const path = sheetFile(text);
    const { rows } = await openSheet(path);
    const lines: number[] = [];
    const failure = await refusal(
      (async () => {
        for await (const row of rows) lines.push(row.line);
      })(),
    );
    expect(lines).toEqual([2, 5, 7]);
    expect(failure.message).toContain(": line 8: unclosed quote");
  });

  it("gives the starting line of records that follow multi-line quoted cells", async () => {
    const text = [
      "number,note",
      '4165550101,"one',
      "two",
      'three"',
      "",
      "",
      "4165550102,after blank lines",
      '4165550103,"a',
      'b"',
      "4165550104,last",
    ].join("\n");
    const { rows } = await readAll(sheetFile(text));
    expect(rows.map((r) => [r.index, r.line])).toEqual([
      [0, 2],
      [1, 7],
      [2, 8],
      [3, 10],
    ]);
  });

  it("skips blank lines before the header", async () => {
    const { layout, rows } = await readAll(sheetFile("\n\nnumber;note\n4165550101;x\n"));
    expect(layout.delimiter).toBe(";");
    expect(rows).toEqual([{ index: 0, line: 4, cells: ["4165550101", "x"] }]);
  });

  it("returns ragged rows as they are, for the validator to mark invalid", async () => {
    const { rows } = await readAll(sheetFile("number,note,extra\n4165550101\n4165550102,a,b,c,d\n4165550103,a,b\n"));
    expect(rows.map((r) => r.cells)).toEqual([["4165550101"], ["4165550102", "a", "b", "c", "d"], ["4165550103", "a", "b"]]);
  });

  it("lets a reader stop early, without reading the rest of the sheet", async () => {
    const path = sheetFile("number\n" + "4165550101\n".repeat(50_000));
    const { rows } = await openSheet(path);
    const first: SheetRow[] = [];
    for await (const row of rows) {
      first.push(row);
      if (first.length === 2) break;
    }
    expect(first.map((r) => r.line)).toEqual([2, 3]);
  });

  it("accepts a sheet with only a header: zero rows", async () => {
    const { layout, rows } = await readAll(sheetFile("number,pilot_number"));
    expect(layout.header).toEqual(["number", "pilot_number"]);
    expect(rows).toEqual([]);
  });

  it("reads standard input for -, naming it <stdin> and resolving files against the working directory", async () => {
    const stdin = Readable.from(["number;no", "te\n4165550101;from ", "stdin\n"]);
    const { layout, rows } = await openSheet("-", { stdin });
    const all: SheetRow[] = [];
    for await (const row of rows) all.push(row);
    expect(layout.source).toBe("<stdin>");
    expect(layout.baseDir).toBe(process.cwd());
    expect(layout.delimiter).toBe(";");
    expect(all).toEqual([{ index: 0, line: 2, cells: ["4165550101", "from stdin"] }]);
  });

  it("names the input by the path as given and resolves files against its directory", async () => {
    const path = sheetFile("number\n1\n");
    const { layout } = await readAll(path);
    expect(layout.source).toBe(path);
    expect(layout.baseDir).toBe(dirname(path));
  });
});

describe("refusing a file that cannot be read as CSV", () => {
  it("reports an unclosed quote at line 3 of a 10-line file as line 3", async () => {
    const lines = ["number,note", "4165550101,ok", '4165550102,"never closed'];
    for (let i = 4; i <= 10; i++) lines.push(`41655501${String(i).padStart(2, "0")},row ${i}`);
    const path = sheetFile(lines.join("\n") + "\n");
    const seen: number[] = [];
    const { rows } = await openSheet(path);
    const failure = await refusal(
      (async () => {
        for await (const row of rows) seen.push(row.line);
      })(),
    );
    expect(seen).toEqual([2]);
    expect(failure).toMatchObject({ name: "InputError", exitCode: 2 });
    expect(failure.message).toBe(
      `${path}: line 3: unclosed quote in the record starting here; close the quoted cell (a quote inside a cell is written "") and run again; nothing was sent`,
    );
  });

  it("reports the opening line of an unclosed quote even after a quoted newline and blank lines earlier", async () => {
    const text = ["number,note", '4165550101,"multi', 'line"', "", "4165550102,fine", '4165550103,"open', "4165550104,x", "4165550105,y"].join("\n");
    const path = sheetFile(text);
    const failure = await refusal(readAll(path));
    expect(failure.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: line 6: unclosed quote`));
  });

  it("reports an unclosed quote in the header as line 1", async () => {
    const failure = await refusal(openSheet(sheetFile('number,"note\n4165550101,x\n')));
    expect(failure.message).toContain(": line 1: unclosed quote");
  });

  it("reports text after a closing quote with the line of its record", async () => {
    const path = sheetFile('number,note\n4165550101,a\n4165550102,b\n4165550103,"abc"def\n');
    const failure = await refusal(readAll(path));
    expect(failure.name).toBe("InputError");
    expect(failure.message).toBe(
      `${path}: line 4: a quoted cell goes on after its closing quote (column 2); quote the whole cell and write inner quotes as "", then run again; nothing was sent`,
    );
  });

  it("refuses an empty file, which has no header", async () => {
    const path = sheetFile("");
    expect(await refusal(openSheet(path))).toEqual({
      name: "InputError",
      exitCode: 2,
      message: `${path}: the file is empty; it needs a header row with a number column`,
    });
  });

  it("refuses a path that does not exist", async () => {
    expect(await refusal(openSheet("fixtures/nope.csv"))).toEqual({
      name: "InputError",
      exitCode: 2,
      message: "cannot read fixtures/nope.csv: no such file",
    });
  });

  it("refuses a directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portin-input-dir-"));
    try {
      expect((await refusal(openSheet(dir))).message).toBe(`cannot read ${dir}: it is a directory`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it("refuses a quote in the middle of an unquoted cell, naming its line and column", async () => {
    const path = sheetFile('number,note\n4165550101,12" monitor\n');
    expect((await refusal(readAll(path))).message).toBe(
      `${path}: line 2: a quote in the middle of an unquoted cell (column 2); quote the whole cell and write inner quotes as "", then run again; nothing was sent`,
    );
  });
});

describe("skipping lines that carry nothing", () => {
  it("skips lines whose cells are all empty or spaces, numbering later rows by their own lines", async () => {
    const text = ["number,note,extra", "4165550101,a,b", ",,", " , ,\t", "4165550102,c,d", ",", ",,,,", "4165550103,e,f", ",,", ",,"].join("\r\n");
    const { rows } = await readAll(sheetFile(text + "\r\n"));
    expect(rows).toEqual([
      { index: 0, line: 2, cells: ["4165550101", "a", "b"] },
      { index: 1, line: 5, cells: ["4165550102", "c", "d"] },
      { index: 2, line: 8, cells: ["4165550103", "e", "f"] },
    ]);
  });

  it("skips a blank-looking record that spans lines inside quotes, and counts its lines", async () => {
    const { rows } = await readAll(sheetFile('number,note\r\n" \r\n ",""\r\n4165550101,x\r\n'));
    expect(rows).toEqual([{ index: 0, line: 4, cells: ["4165550101", "x"] }]);
  });

  it("keeps a row with only its number, or with only a passthrough cell, for the validator", async () => {
    const { rows } = await readAll(sheetFile("number,note\n4165550101,\n,only a note\n"));
    expect(rows.map((r) => [r.line, r.cells])).toEqual([
      [2, ["4165550101", ""]],
      [3, ["", "only a note"]],
    ]);
  });

  it("rereads each row's own text after skipped lines", async () => {
    const path = sheetFile("number,note\n,,\n4165550101,a\n,\n,\n4165550102,b\n");
    const sheet = await openSheet(path);
    for await (const row of sheet.rows) void row;
    const raw = await sheet.reread();
    if (raw === null) throw new Error("expected the file to be rereadable");
    try {
      expect([(await raw.read(0))?.toString(), (await raw.read(1))?.toString()]).toEqual(["4165550101,a", "4165550102,b"]);
    } finally {
      await raw.close();
    }
  });
});

describe("refusing a sheet that is not UTF-8", () => {
  const windows1252 = (text: string): Buffer => Buffer.from(text, "latin1");
  /** The refusal of a Windows-1252 sheet: its line as it reads in Windows-1252, and the encoding to give. */
  const notUtf8 = (source: string, line: number, reads: string) =>
    `${source}: line ${line}: not UTF-8 text; read as windows-1252 (Excel's plain "CSV" on Windows) it says "${reads}" (save the sheet as "CSV UTF-8", or give --encoding windows-1252); nothing was sent`;

  it("refuses a Windows-1252 sheet whole, naming the line of the first accented letter", async () => {
    const text = ["number,portform.CustomerName", "4165550101,Acme", "4165550102,Acme", "4165550103,Acme", "4165550104,Café Montréal", "4165550105,Acme"].join("\r\n");
    const path = sheetFile(windows1252(text));
    expect(await refusal(readAll(path))).toEqual({ name: "InputError", exitCode: 2, message: notUtf8(path, 5, "4165550104,Café Montréal") });
  });

  it("refuses a header that is not UTF-8 before reading any row", async () => {
    const path = sheetFile(windows1252("number,Société\n4165550101,x\n"));
    expect((await refusal(openSheet(path))).message).toBe(notUtf8(path, 1, "number,Société"));
  });

  it("counts lines across chunks of a large sheet, and in a sheet whose lines end in CR alone", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `${4165560000 + i},réseau ${i}`);
    const bad = Buffer.concat([Buffer.from(["number,note", ...rows.slice(0, 15_000)].join("\n") + "\n"), windows1252("4165590000,Montréal\n")]);
    const big = sheetFile(bad);
    expect((await refusal(readAll(big))).message).toBe(notUtf8(big, 15_002, "4165590000,Montréal"));
    const mac = sheetFile(windows1252("number,note\r4165550101,a\r4165550102,Québec\r"));
    expect((await refusal(readAll(mac))).message).toBe(notUtf8(mac, 3, "4165550102,Québec"));
  });

  it("refuses a sheet that ends in the middle of a multi-byte character", async () => {
    const path = sheetFile(Buffer.concat([Buffer.from("number,note\n4165550101,caf"), Buffer.from("é").subarray(0, 1)]));
    expect((await refusal(readAll(path))).message).toBe(
      `${path}: line 2: not UTF-8 text (save the sheet as "CSV UTF-8", or give --encoding with the encoding it was saved in); nothing was sent`,
    );
  });

  it("reads a UTF-16 sheet with a byte order mark, as spreadsheet programs save 'Unicode text', without being told", async () => {
    const text = "number\tnote\r\n4165550101\tCafé Montréal\r\n";
    const le = sheetFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    const be = sheetFile(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]));
    for (const path of [le, be]) {
      const { layout, rows } = await readAll(path);
      expect(layout.delimiter).toBe("\t");
      expect(rows.map((r) => r.cells)).toEqual([["4165550101", "Café Montréal"]]);
    }
    // Its byte offsets are not the file's: the results copy its cells, never its bytes.
    expect((await openSheet(le)).rereadable).toBe(false);
  });

  it("reads a Windows-1252 sheet with --encoding, accents and all, across chunks", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `${4165560000 + i},Société ${i}`);
    const path = sheetFile(windows1252(["number,portform.CustomerName", ...rows].join("\r\n")));
    const sheet = await openSheet(path, { encoding: "windows-1252" });
    const read: string[] = [];
    for await (const row of sheet.rows) read.push(row.cells[1] ?? "");
    expect(read).toHaveLength(20_000);
    expect(read[19_999]).toBe("Société 19999");
    expect(sheet.rereadable).toBe(false);
    expect(sheet.textFormat()).toEqual({ bom: true, lineEnd: "\r\n" });
  });

  it("reads Windows-1252's bytes 0x80-0x9F as the quotes, dashes and letters they are, not as control characters", async () => {
    const path = sheetFile(Buffer.concat([Buffer.from("number,note\r\n4165550101,O"), Buffer.from([0x92]), Buffer.from("Brien "), Buffer.from([0x96, 0x20, 0x80, 0x35, 0x20, 0x8c, 0x9c])]));
    const sheet = await openSheet(path, { encoding: "windows-1252" });
    const read: string[] = [];
    for await (const row of sheet.rows) read.push(row.cells[1] ?? "");
    expect(read).toEqual(["O’Brien – €5 Œœ"]);
  });

  it("refuses UTF-16 that breaks off in the middle of a character, naming its line", async () => {
    const path = sheetFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("number\n4165550101\n", "utf16le"), Buffer.from([0x00, 0xd8])]));
    expect((await refusal(readAll(path))).message).toBe(`${path}: line 3: not utf-16le text (check --encoding); nothing was sent`);
  });

  it("reads UTF-8 characters cut across chunk boundaries, and a U+FFFD written in the sheet, as they are", async () => {
    const text = "number;note\n4165550101;Montréal € 😀 \uFFFD\n";
    const bytes = Buffer.from(text);
    // One byte a chunk: every multi-byte character is cut at every possible place.
    const stdin = Readable.from([...bytes].map((byte) => Buffer.from([byte])));
    const { rows } = await openSheet("-", { stdin });
    const all: SheetRow[] = [];
    for await (const row of rows) all.push(row);
    expect(all).toEqual([{ index: 0, line: 2, cells: ["4165550101", "Montréal € 😀 \uFFFD"] }]);
  });
});
