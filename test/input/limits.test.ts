/**
 * A cell, a row and a sheet each have a maximum (docs/limits.md); past it the file is
 * refused whole with one line naming the file and line, never an out-of-memory or a hang. Each
 * limit is read at exactly N and refused at N + 1.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { MAX_CELL_CHARS, MAX_FIELDS, MAX_ROW_CHARS, MAX_ROWS, MAX_SHEET_BYTES } from "../../src/input/limits.js";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetRow } from "../../src/input/types.js";
import { readAll, refusal, sheetFile } from "./helpers.js";

/** Reads standard input made of `chunks` to the end; the rows read, or the refusal. */
async function readStdin(chunks: Iterable<Buffer | string> | AsyncIterable<Buffer | string>, maxBytes?: number): Promise<SheetRow[]> {
  const sheet = await openSheet("-", { stdin: Readable.from(chunks), ...(maxBytes === undefined ? {} : { maxBytes }) });
  const rows: SheetRow[] = [];
  for await (const row of sheet.rows) rows.push(row);
  return rows;
}

describe("a cell", () => {
  it(`reads a cell of ${MAX_CELL_CHARS} characters and refuses one of a character more, naming line and column`, async () => {
    const rows = (await readAll(sheetFile(`number,note\n4165550101,${"x".repeat(MAX_CELL_CHARS)}\n`))).rows;
    expect(rows[0]?.cells[1]).toHaveLength(MAX_CELL_CHARS);
    const path = sheetFile(`number,note\n4165550101,ok\n4165550102,"${"é".repeat(MAX_CELL_CHARS + 1)}"\n`);
    const failure = await refusal(readAll(path));
    expect(failure).toEqual({
      name: "InputError",
      exitCode: 2,
      message: `${path}: line 3: the cell in column 2 has 65,537 characters, more than the 65,536 portin reads in a cell; nothing was sent`,
    });
  });
});

describe("a row", () => {
  it(`reads a row of ${MAX_ROW_CHARS} characters and refuses one of a character more, at the line where it starts`, async () => {
    const cells = MAX_ROW_CHARS / MAX_CELL_CHARS;
    const full = Array.from({ length: cells }, () => "y".repeat(MAX_CELL_CHARS)).join(",");
    const header = ["number", ...Array.from({ length: cells }, (_, i) => `c${i}`)].join(",");
    // The number cell counts too: the row at the limit leaves it empty.
    const rows = await readStdin([`${header}\n`, `,${full}\n`]);
    expect(rows).toHaveLength(1);
    const failure = await refusal(readStdin([`${header}\n4165550101,ok\n`, `1,${full}\n`]));
    expect(failure.message).toBe(
      "<stdin>: line 3: a row of more than 1,048,576 characters, the most portin reads in a row (a quote left open makes one); nothing was sent",
    );
  });

  it("refuses a quote left open at the start of a 5 MB file at its line, without reading the rest into one cell", async () => {
    const path = sheetFile(`number,note\n4165550101,"opened\n${"never closed, ".repeat(400_000)}\n`);
    const failure = await refusal(readAll(path));
    expect(failure.message).toMatch(new RegExp(`^${path.replace(/[/\\.]/g, "\\$&")}: line 2: a row of more than 1,048,576 characters`));
  });

  it(`reads a row of ${MAX_FIELDS} fields and refuses one more, even when every field is empty`, async () => {
    const rows = await readStdin(["number\n", `1${",".repeat(MAX_FIELDS - 1)}\n`]);
    expect(rows[0]?.cells).toHaveLength(MAX_FIELDS);
    const failure = await refusal(readStdin(["number\n", `1${",".repeat(MAX_FIELDS)}\n`]));
    expect(failure.message).toBe("<stdin>: line 2: a row of 16,385 fields, more than the 16,384 a spreadsheet has columns; nothing was sent");
  });

  it("stops a row of millions of empty fields while it is still being read", async () => {
    // Quoted line breaks keep the record open across lines; empty fields add no characters.
    const line = `"a\n"${",".repeat(60_000)}`;
    let fed = 0;
    function* endless(): Generator<string> {
      yield "number,note\n";
      for (;;) {
        fed++;
        yield line;
      }
    }
    const failure = await refusal(readStdin(endless()));
    expect(failure.message).toBe("<stdin>: line 2: a row of more than 16,384 fields, more than a spreadsheet has columns; nothing was sent");
    expect(fed).toBeLessThan(10);
  });

  it("refuses a file with no line break at line 1, having read a bounded head", async () => {
    let fed = 0;
    const chunk = Buffer.alloc(1 << 20, "a");
    function* noBreak(): Generator<Buffer> {
      for (;;) {
        fed++;
        yield chunk;
      }
    }
    const failure = await refusal(readStdin(noBreak()));
    expect(failure.message).toBe("<stdin>: line 1: a row of more than 1,048,576 characters, the most portin reads in a row (a quote left open makes one); nothing was sent");
    expect(fed).toBeLessThanOrEqual(5);
  });
});

describe("a sheet", () => {
  it("reads as many data rows as the limit and refuses the sheet at the next, naming its line", async () => {
    // The real limit is 2,000,000 rows, which take 10 s to read: the same code is run at 250,000,
    // still several of the 100,000-row chunks fed below, and of the parser's.
    expect(MAX_ROWS).toBe(2_000_000);
    const limit = 250_000;
    const block = "1\n".repeat(100_000);
    function* rows(count: number): Generator<string> {
      yield "number\n";
      for (let left = count; left > 0; left -= 100_000) yield left >= 100_000 ? block : "1\n".repeat(left);
    }
    const readRows = async (count: number): Promise<number> => {
      let read = 0;
      const sheet = await openSheet("-", { stdin: Readable.from(rows(count)), maxRows: limit });
      for await (const row of sheet.rows) read = row.index + 1;
      return read;
    };
    expect(await readRows(limit)).toBe(limit);
    // One pass shows both: the first row refused is data row N + 1, on line N + 2 (the header is line 1).
    let read = 0;
    const sheet = await openSheet("-", { stdin: Readable.from(rows(limit + 1)), maxRows: limit });
    const failure = await refusal(
      (async () => {
        for await (const row of sheet.rows) read = row.index + 1;
      })(),
    );
    // Rows parsed in the chunk that held the refused one are dropped with the stream.
    expect(read).toBeGreaterThan(limit - 100_000);
    expect(failure.message).toBe(`<stdin>: line ${limit + 2}: more than 250,000 data rows, the most portin reads in one sheet: split the sheet; nothing was sent`);
  });

  it("refuses a sheet past its size in bytes, counting before the parser", async () => {
    // The real limit is 256 MiB, which takes 7 s to read: the same code is run at 1 MiB.
    expect(MAX_SHEET_BYTES).toBe(256 * 1024 * 1024);
    const limit = 1024 * 1024;
    const text = "number,note\n" + "4165550101,padding\n".repeat(60_000);
    const exact = Buffer.from(text).subarray(0, limit);
    const atLimit = await readStdin([exact], limit).catch((e: unknown) => e);
    expect(atLimit).not.toBeInstanceOf(InputError);
    const failure = await refusal(readStdin([Buffer.concat([exact, Buffer.from("\n")])], limit));
    expect(failure.message).toMatch(/^<stdin>: line \d+: the sheet passes 1 MiB, the most portin reads in one sheet: split the sheet; nothing was sent$/);
  });
});
