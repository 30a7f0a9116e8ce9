/**
 * The one owner of a results row's own cells (results/input-copy.ts): which rows are copied
 * from the file as text, which are kept, and which data row a results row comes from once a
 * range has been written out as several rows.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import { InputCopy } from "../../src/results/input-copy.js";
import { withRangesExpanded } from "../../src/validate/ranges.js";
import type { ResultsWriter } from "../../src/results/encoder.js";
import { csvRowTexts } from "../../src/results/csv-writer.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import { openResults } from "../../src/results/writer.js";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { inputShaper } from "../../src/results/cells.js";
import { readWorkbook, sheetRows } from "../support/workbooks.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-input-copy-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What each results row was handed: the input's text, or cells. */
type Written = { readonly text: string; readonly outcome: number } | { readonly cells: readonly string[]; readonly outcome: number };

function recorder(): ResultsWriter<number> & { readonly written: Written[] } {
  const written: Written[] = [];
  return {
    written,
    write: (cells, outcome) => {
      written.push({ cells: [...cells], outcome });
      return Promise.resolve();
    },
    writeVerbatim: (text, outcome) => {
      written.push({ text: Buffer.from(text).toString("utf8"), outcome });
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

function io(): { readonly stdout: PassThrough; readonly stderr: PassThrough; readonly stdin: PassThrough; readonly signal: AbortSignal; readonly stderrText: () => string } {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stdout: new PassThrough(), stderr, stdin: new PassThrough(), signal: new AbortController().signal, stderrText: () => text };
}

const SHEET = "number,note\r\n4165550101,plain\r\n4165550102-04,a range\r\n4165550105,=1+1\r\n4165550106,after\r\n";

/** Reads every row of `sheet` through `copy`, as a run does. */
async function readAll(copy: InputCopy): Promise<void> {
  for await (const row of copy.reading().rows) expect(row.cells.length).toBeGreaterThan(0);
}

/** Reads `path` as a run does with --expand-ranges: a range row becomes one results row per number. */
async function readInto(path: string, destination: string): Promise<InputCopy> {
  const copy = new InputCopy(withRangesExpanded(await openSheet(path)), destination);
  await readAll(copy);
  return copy;
}

describe("the input's own cells of each results row", () => {
  it("copies the file's text for rows the results take as they stand, and the right row's after a range was written out; CSV results get every other row as text made of its shaped cells", async () => {
    const path = join(dir, "acme.csv");
    await writeFile(path, SHEET);
    const copy = await readInto(path, join(dir, "acme.results.csv"));
    const results = recorder();
    const out = io();
    await copy.writeTo(results, (index) => index * 10, out);
    expect(results.written).toEqual([
      { text: "4165550101,plain", outcome: 0 },
      { text: "4165550102,a range", outcome: 10 },
      { text: "4165550103,a range", outcome: 20 },
      { text: "4165550104,a range", outcome: 30 },
      // A formula to defuse: the results change it, so the file's text will not do.
      { text: "4165550105,'=1+1", outcome: 40 },
      { text: "4165550106,after", outcome: 50 },
    ]);
    expect(out.stderrText()).toBe("");
  });

  it("keeps every row's cells for results that are not the input's text followed by more", async () => {
    const path = join(dir, "acme.csv");
    await writeFile(path, SHEET);
    for (const destination of [join(dir, "acme.results.xlsx"), join(dir, "acme.results.jsonl")]) {
      const copy = await readInto(path, destination);
      const results = recorder();
      await copy.writeTo(results, (index) => index, io());
      expect(results.written.map((row) => ("cells" in row ? row.cells[0] : `text ${row.text}`))).toEqual(["4165550101", "4165550102", "4165550103", "4165550104", "4165550105", "4165550106"]);
    }
  });

  it("makes a kept row's text for CSV results as the writer would: the header's width, passwords masked, quoted by csv-stringify", async () => {
    const path = join(dir, "acme.csv");
    await writeFile(path, 'number;note;item.SipPassword\r\n4165550101;"two\nlines; one ""quote""";s3cret;extra\r\n4165550102\r\n');
    const copy = new InputCopy(await openSheet(path), join(dir, "acme.results.csv"));
    await readAll(copy);
    const results = recorder();
    await copy.writeTo(results, (index) => index, io());
    expect(results.written).toEqual([
      { text: '4165550101;"two\nlines; one ""quote""";***', outcome: 0 },
      { text: "4165550102;;", outcome: 1 },
    ]);
  });

  it("makes a batch of rows into the same text as csv-stringify makes of each row alone, a batch with a line break in a cell too", () => {
    const header = ["number", "note", "pin"];
    const texts = csvRowTexts(header, ";");
    // CSV's text does not depend on the row's place in the results.
    const rowTexts = (batch: string[][]): string[] => texts(batch, batch.map((_, at) => at));
    const rows = Array.from({ length: 300 }, (_, i) => [String(4165550000 + i), i === 150 ? "two\r\nlines" : i % 3 === 0 ? 'say "hi"; bye' : `note ${i}`, i % 5 === 0 ? "" : "=9"]);
    const alone = rows.map((cells) => stringify([[cells[0], cells[1], cells[2] === "" ? "" : "'=9"]], { delimiter: ";", quote_record_delimiter: true, eof: false }));
    expect(rowTexts(rows.slice(0, 100))).toEqual(alone.slice(0, 100));
    expect(rowTexts(rows.slice(100, 200))).toEqual(alone.slice(100, 200));
    expect(rowTexts([["4165550001"]])).toEqual(["4165550001;;"]);
  });

  it("makes any cells, of any width, under any delimiter, into the text csv-stringify makes of them", () => {
    const header = ["number", "note", "item.SipPassword", "pin"];
    // Cells made of the characters CSV and the shaping care about: quotes, delimiters, line breaks, formula leads.
    const cell = fc.string({ unit: fc.constantFrom("a", "1", " ", '"', ",", ";", "\t", "\n", "\r", "=", "+", "-", "@", "é", "📞"), maxLength: 6 });
    const rows = fc.array(fc.array(cell, { maxLength: 6 }), { minLength: 1, maxLength: 8 });
    // The shaping (masking, defusing, padding) is the example above's to assert; this one holds the quoting and the batching.
    const shape = inputShaper(header);
    fc.assert(
      fc.property(fc.constantFrom(",", ";", "\t"), rows, (delimiter, batch) => {
        const alone = batch.map((cells) => stringify([shape(cells)], { delimiter, quote_record_delimiter: true, eof: false }));
        expect(csvRowTexts(header, delimiter)(batch, batch.map((_, at) => at))).toEqual(alone);
      }),
    );
  });

  it("keeps the last rows waiting to be made into text once the sheet is read to its end, so the spool's temporary file is made and written before anything is sent", async () => {
    const spools = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith("portin-cells-"));
    const path = join(dir, "acme.csv");
    // Each row's text is 984 characters, 1,024 bytes as the spool counts them: 4,096 rows (16
    // batches) fill its 4 MiB in memory exactly, and the 4,097th, in the last batch of four, spills.
    const rows = Array.from({ length: 4100 }, (_, i) => `416${String(5550000 + i)},=${"x".repeat(971)}`);
    await writeFile(path, `number,note\n${rows.join("\n")}\n`);
    const copy = new InputCopy(await openSheet(path), join(dir, "acme.results.csv"));
    const before = new Set(spools());
    const reading = copy.reading().rows[Symbol.asyncIterator]();
    for (let read = 0; read < 4100; read++) expect((await reading.next()).done).toBe(false);
    expect(spools().filter((name) => !before.has(name))).toEqual([]);
    // The end of the sheet.
    expect((await reading.next()).done).toBe(true);
    const made = spools().filter((name) => !before.has(name));
    expect(made).toHaveLength(1);
    // And written whole: no write to TMPDIR is left for after sending, where a full disk would fail it.
    expect(statSync(join(tmpdir(), made[0] ?? "", "cells.jsonl")).size).toBeGreaterThanOrEqual(4100 * 984);
    await copy.close();
  });

  it("leaves a copied row's cells out, and says so, when the file changed during the run", async () => {
    const path = join(dir, "acme.csv");
    await writeFile(path, SHEET);
    const copy = await readInto(path, join(dir, "acme.results.csv"));
    await writeFile(path, `${SHEET}4165550107,added\r\n`);
    const results = recorder();
    const out = io();
    await copy.writeTo(results, (index) => index, out);
    expect(results.written.map((row) => ("cells" in row ? row.cells : row.text))).toEqual([[], "4165550102,a range", "4165550103,a range", "4165550104,a range", "4165550105,'=1+1", []]);
    expect(out.stderrText()).toBe(`portin: ${path} changed during the run: its cells are left out of the results\n`);
  });

  it("makes a workbook's rows past the first few hundred into their XML as the sheet is read, the same cells as the writer makes of their cells", async () => {
    // Cells to mask, defuse, escape or keep the spaces of, and cells of several UTF-8 lengths.
    const notes = ["plain", "=1+1", "a & b <c>", "  spaced  ", "_x0041_ literal", "bell\u0007", "é 名 😀", "", "two\nlines", "-cmd"];
    const rows = Array.from({ length: 700 }, (_, i) => [String(4165550000 + i), notes[i % notes.length] ?? "", i % 7 === 0 ? "s3cret" : ""]);
    const path = join(dir, "acme.csv");
    await writeFile(path, stringify([["number", "note", "item.SipPassword"], ...rows]));
    const outcomeOf = (index: number): RowOutcome => ({
      status: index % 3 === 0 ? "invalid" : "planned",
      number: String(4165550000 + index),
      numberType: "regular",
      operation: "POST /v2/NumberPorts/Inbound/DIDs",
      sequence: 1 + (index % 9),
      ticket: "",
      httpStatus: null,
      message: index % 3 === 0 ? "a <message> & more" : "",
    });
    const header = ["number", "note", "item.SipPassword"];
    const options = { delimiter: ",", bom: false, lineEnd: "\n", stdout: new PassThrough(), rows: rows.length };

    const kept = join(dir, "kept.xlsx");
    const copy = new InputCopy(await openSheet(path), kept);
    await readAll(copy);
    const recorded = recorder();
    const byCopy = await openResults(kept, header, options);
    await copy.writeTo(
      {
        write: (cells, outcome) => (recorded.write(cells, 0), byCopy.write(cells, outcome)),
        writeVerbatim: (text, outcome) => (recorded.writeVerbatim(text, 0), byCopy.writeVerbatim(text, outcome)),
        close: () => byCopy.close(),
      },
      outcomeOf,
      io(),
    );
    await byCopy.close();
    // The first rows size the columns, so they come as cells; every later one as its XML.
    expect(recorded.written.filter((row) => "text" in row)).toHaveLength(700 - 256);
    expect(recorded.written[256]).toEqual({
      text: '<row r="258"><c r="A258" s="2" t="inlineStr"><is><t>4165550256</t></is></c><c r="B258" s="2" t="inlineStr"><is><t>é 名 😀</t></is></c>',
      outcome: 0,
    });

    const direct = join(dir, "direct.xlsx");
    const byCells = await openResults(direct, header, options);
    for (const [index, cells] of rows.entries()) await byCells.write(cells, outcomeOf(index));
    await byCells.close();
    const [fromCopy, fromCells] = [await readWorkbook(kept), await readWorkbook(direct)];
    expect(sheetRows(fromCopy).values).toEqual(sheetRows(fromCells).values);
    // Sized to the same first rows, which stay cells.
    expect(fromCopy.columns.map((column) => column.width)).toEqual(fromCells.columns.map((column) => column.width));
  });
});
