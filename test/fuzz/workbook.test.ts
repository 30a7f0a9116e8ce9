/**
 * Property tests of reading a workbook (docs/contract.md §3, "Workbooks"): a real workbook, an
 * .xlsx made here, or the .xls and .ods LibreOffice saved (fixtures/workbooks), truncated
 * anywhere or with bytes overwritten anywhere, is either refused whole with one
 * InputError line naming the file, or read into rows numbered in order. Nothing else is thrown,
 * and nothing hangs (fast-check's per-run timeout; the reader's own stall guard).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { openSheet } from "../../src/input/sheet.js";
import { fixture } from "../e2e/fixtures.js";
import { fuzzParams, testTimeout } from "./settings.js";

/** Each run unzips a workbook: fewer runs than the CSV properties, for the same time. */
const RUNS = 40;
const PER_RUN_MS = 10_000;

let dir: string;
/** The workbooks damaged, by their extension. */
const books = new Map<string, Buffer>();
const FORMATS = [".xlsx", ".xls", ".ods"] as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-fuzz-xlsx-"));
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Numbers");
  sheet.addRow(["number", "pilot_number", "portform.CustomerName", "note"]);
  for (let i = 0; i < 30; i++) sheet.addRow([4165552000 + i, 4165550100, `Customer ${i}`, i % 3 === 0 ? "=1+1" : "Montréal"]);
  books.set(".xlsx", Buffer.from(await workbook.xlsx.writeBuffer()));
  for (const format of [".xls", ".ods"] as const) books.set(format, await readFile(fixture(`workbooks/libreoffice-sample${format}`)));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Reads the workbook at `path` to the end: its rows' lines, or the one-line refusal. */
async function readAll(path: string): Promise<{ lines: number[] } | { refused: string }> {
  try {
    const opened = await openSheet(path);
    const lines: number[] = [];
    for await (const row of opened.rows) lines.push(row.line);
    return { lines };
  } catch (error) {
    if (error instanceof InputError) return { refused: error.message };
    throw error;
  }
}

function expectHonest(outcome: { lines: number[] } | { refused: string }, path: string): void {
  if ("refused" in outcome) {
    expect(outcome.refused).not.toContain("\n");
    expect(outcome.refused).toContain(path);
  } else {
    // Rows in order, each once.
    expect(outcome.lines).toEqual([...outcome.lines].sort((a, b) => a - b));
    expect(new Set(outcome.lines).size).toBe(outcome.lines.length);
  }
}

let run = 0;
const nextPath = (format: string): string => join(dir, `book-${run++}${format}`);
const bookOf = (format: string): Buffer => books.get(format) ?? Buffer.alloc(0);

it.each(FORMATS)(
  "refuses a truncated %s workbook in one line naming it, or reads its rows in order; never anything else",
  async (format) => {
    const book = bookOf(format);
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 1, noNaN: true }), async (share) => {
        const path = nextPath(format);
        await writeFile(path, book.subarray(0, Math.floor(book.length * share)));
        expectHonest(await readAll(path), path);
      }),
      fuzzParams(RUNS, PER_RUN_MS),
    );
  },
  testTimeout(RUNS, PER_RUN_MS),
);

it.each(FORMATS)(
  "refuses a %s workbook with bytes overwritten anywhere in one line naming it, or reads its rows in order",
  async (format) => {
    const book = bookOf(format);
    const damage = fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), byte: fc.integer({ min: 0, max: 255 }) }), {
      minLength: 1,
      maxLength: 8,
    });
    await fc.assert(
      fc.asyncProperty(damage, async (changes) => {
        const path = nextPath(format);
        const copy = Buffer.from(book);
        for (const { at, byte } of changes) copy[Math.floor(at * copy.length)] = byte;
        await writeFile(path, copy);
        expectHonest(await readAll(path), path);
      }),
      fuzzParams(RUNS, PER_RUN_MS),
    );
  },
  testTimeout(RUNS, PER_RUN_MS),
);
