/**
 * records.ts's scanner must find the records csv-parse finds (docs/contract.md §3): each one's
 * end is where the results copy its row from (input/raw.ts), and its start line is what every
 * message about it names. Checked against csv-parse itself on sheets of quoted cells holding
 * delimiters, quotes and line breaks, blank lines, a BOM, each record delimiter, cut into chunks
 * anywhere.
 */
import { parse } from "csv-parse";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecordScanner } from "../../src/input/records.js";

/** What csv-parse says of each record: the byte after it (its `info.bytes` as it is given), and its cells. */
async function csvParseRecords(bytes: Buffer): Promise<{ ends: number[]; records: string[][] }> {
  const ends: number[] = [];
  const records: string[][] = [];
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, on_record: (record: string[], context) => (ends.push(context.bytes), record) });
  parser.end(bytes);
  for await (const record of parser) records.push(record as string[]);
  return { ends, records };
}

/** Lines as an editor counts them up to `offset`: each LF, each CR not followed by an LF. */
function lineAt(text: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (text[i] === 0x0a || (text[i] === 0x0d && text[i + 1] !== 0x0a)) line++;
  }
  return line;
}

const cell = fc.array(fc.constantFrom("a", "é", ",", '"', " ", "\n", "\r", "\r\n", "1"), { maxLength: 6 }).map((parts) => parts.join(""));
const quote = (text: string): string => (/[",\r\n]/.test(text) || text === "" ? `"${text.replace(/"/g, '""')}"` : text);

const sheet = fc.record({
  rows: fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
  delimiter: fc.constantFrom("\n", "\r\n", "\r"),
  blanks: fc.array(fc.nat(2), { minLength: 9, maxLength: 9 }),
  bom: fc.boolean(),
  lastBreak: fc.boolean(),
  cuts: fc.array(fc.nat(200), { maxLength: 6 }),
});

describe("the record scanner", () => {
  it("finds the records csv-parse finds, where each ends, and the line each starts on", async () => {
    await fc.assert(
      fc.asyncProperty(sheet, async ({ rows, delimiter, blanks, bom, lastBreak, cuts }) => {
        const lines = rows.map((cells) => cells.map(quote).join(","));
        let text = bom ? "\uFEFF" : "";
        lines.forEach((line, at) => {
          text += delimiter.repeat(blanks[at] ?? 0) + line + (at < lines.length - 1 || lastBreak ? delimiter : "");
        });
        const bytes = Buffer.from(text, "utf8");
        const expected = await csvParseRecords(bytes);

        const scanner = new RecordScanner();
        scanner.setDelimiter(",");
        let from = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          const to = Math.min(bytes.length, cut);
          if (to <= from) continue;
          scanner.feed(bytes.subarray(from, to));
          from = to;
        }
        scanner.feed(bytes.subarray(from));
        scanner.end();

        expect(scanner.records()).toBe(expected.records.length);
        const ends = expected.records.map((_, record) => scanner.endOf(record));
        expect(ends).toEqual(expected.ends);
        // A record starts after the one before and the blank lines csv-parse skipped.
        const starts = expected.records.map((_, record) => scanner.lineOf(record));
        const expectedStarts = expected.ends.map((_, record) => {
          let start = record === 0 ? (bom ? 3 : 0) : (expected.ends[record - 1] ?? 0);
          while (bytes.subarray(start, start + delimiter.length).toString() === delimiter) start += delimiter.length;
          return lineAt(bytes, start);
        });
        expect(starts).toEqual(expectedStarts);
        // The delimiter is known once one is written: the first line break outside quotes.
        if (lines.length > 1 || lastBreak || (blanks[0] ?? 0) > 0) expect(scanner.recordDelimiter()?.toString()).toBe(delimiter);
      }),
      { numRuns: 300 },
    );
  });
});
