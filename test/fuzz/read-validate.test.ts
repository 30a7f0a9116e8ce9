/**
 * Property tests of reading and validation, in process (docs/development.md, "Testing hostile input").
 * For any bytes:
 * - the sheet is either refused whole, with an InputError (exit 2) of one line naming the
 *   input and a line or column, or read into rows numbered in order;
 * - nothing else is thrown, and no run hangs (fast-check's per-run timeout);
 * - every row read gets exactly one verdict from the validator, an invalid one a one-line reason;
 * - the validator only ever reads files inside the sheet's folder;
 * - the planner puts every valid row in exactly one request, and no invalid one in any.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetLayout, SheetRow } from "../../src/input/types.js";
import { groupRequests } from "../../src/group/requests.js";
import { NO_DEFAULTS } from "../../src/validate/defaults.js";
import type { ReadFile } from "../../src/validate/files.js";
import { readRegularFile } from "../../src/validate/files.js";
import type { CheckedRow, Defaults, Lookups, ValidRow } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { PORT_FORM } from "../support/port-form.js";
import { fuzzParams, testTimeout } from "./settings.js";
import type { SheetText } from "./sheets.js";
import { chunked, chunkingArb, sheetArb } from "./sheets.js";

const LOOKUPS: Lookups = {
  trunks: [{ pilotNumber: "4165550100", label: "HQ" }, { pilotNumber: "5145550100", label: "Montreal" }],
  offerings: [
    { offeringId: "OFF-GEN-001", type: 1, name: "General" },
    { offeringId: "OFF-LEG-009", type: 9, name: "Legacy" },
  ],
  providers: [{ id: 17, name: "Bell Canada" }],
};

/** Runs in `npm test`; `npm run fuzz` multiplies them. */
const RUNS = 500;
/** A run is a few milliseconds; a tenth of a second past it is a hang. */
const RUN_TIMEOUT_MS = 5_000;

let dir = "";
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "portin-fuzz-")));
  await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 signed");
  await writeFile(join(dir, "..", "outside.pdf"), "SECRET").catch(() => undefined);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Read = { readonly refused: InputError } | { readonly layout: SheetLayout; readonly rows: SheetRow[] };

/** Reads the sheet from a file in `dir`, or from standard input in the given chunks. */
async function read(sheet: SheetText, chunks: readonly number[] | null): Promise<Read> {
  let path = "-";
  if (chunks === null) {
    path = join(dir, "sheet.csv");
    await writeFile(path, sheet.bytes);
  }
  try {
    const opened = await openSheet(path, { stdin: Readable.from(chunked(sheet.bytes, chunks ?? [])) });
    const rows: SheetRow[] = [];
    for await (const row of opened.rows) rows.push(row);
    return { layout: opened.layout, rows };
  } catch (error) {
    if (error instanceof InputError) return { refused: error };
    throw error;
  }
}

function expectRefusal(error: InputError, source: string): void {
  expect(error.exitCode).toBe(2);
  expect(error.message).not.toContain("\n");
  expect(error.message.startsWith(`${source}: `) || error.message.startsWith("cannot read ")).toBe(true);
  // Where: a line for what the parser met, a column for a header it refused.
  expect(error.message).toMatch(/: line \d+: |: column \d+ |: the file is empty|: no number column/);
}

function expectRowsInOrder(rows: readonly SheetRow[]): void {
  rows.forEach((row, i) => {
    expect(row.index).toBe(i);
    expect(row.line).toBeGreaterThanOrEqual(2);
    if (i > 0) expect(row.line).toBeGreaterThan((rows[i - 1] as SheetRow).line);
  });
}

/** Checks every row; the reader given to the validator records every path it is asked for. */
async function validate(layout: SheetLayout, rows: readonly SheetRow[], defaults: Defaults): Promise<{ checked: CheckedRow[]; reads: string[] }> {
  const reads: string[] = [];
  const spy: ReadFile = (path) => {
    reads.push(path);
    return readRegularFile(path);
  };
  const validator = createValidator({ layout, lookups: LOOKUPS, defaults, readFile: spy });
  const checked: CheckedRow[] = [];
  for (const row of rows) checked.push(await validator.check(row));
  return { checked, reads };
}

it(
  "refuses a sheet whole with one line naming where, or reads every row, and gives each row read one verdict",
  async () => {
    await fc.assert(
      fc.asyncProperty(sheetArb, fc.option(chunkingArb, { nil: null }), fc.boolean(), async (sheet, chunks, withDefaults) => {
        const outcome = await read(sheet, chunks);
        if ("refused" in outcome) {
          expectRefusal(outcome.refused, chunks === null ? join(dir, "sheet.csv") : "<stdin>");
          return;
        }
        const { layout, rows } = outcome;
        expectRowsInOrder(rows);
        const { checked, reads } = await validate(layout, rows, withDefaults ? { portForm: PORT_FORM, request: {}, item: {} } : NO_DEFAULTS);
        expect(checked).toHaveLength(rows.length);
        checked.forEach((verdict, i) => {
          expect(verdict.index).toBe(i);
          if (!verdict.valid) {
            expect(verdict.reason).not.toBe("");
            expect(verdict.reason).not.toContain("\n");
          }
        });
        // Files are read only inside the sheet's folder (the working directory for standard input).
        const base = await realpath(layout.baseDir);
        for (const path of reads) expect(relative(base, path).startsWith("..")).toBe(false);

        const valid = checked.filter((r): r is ValidRow => r.valid);
        const planned = groupRequests(valid, 3).flatMap((request) => request.numbers.map((row) => row.index));
        expect([...planned].sort((a, b) => a - b)).toEqual(valid.map((r) => r.index));
      }),
      fuzzParams(RUNS, RUN_TIMEOUT_MS),
    );
  },
  testTimeout(RUNS, 100),
);
