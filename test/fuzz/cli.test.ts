/**
 * A few fuzz runs of the built CLI end to end (docs/development.md, "Testing hostile input"): `submit` of
 * an arbitrary sheet to a sandbox. Whatever the sheet:
 * - the exit code is 0, 1 or 2, and stderr never holds a stack trace or an internal error;
 * - exit 2 means the sheet was refused whole: one line, no results file, nothing sent;
 * - otherwise every data row has exactly one results row with a status, and every number
 *   the sandbox received belongs to a row that is not `invalid`.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { openSheet } from "../../src/input/sheet.js";
import { RESULT_COLUMN_NAMES } from "../../src/results/columns.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, runCli, tempDir } from "../e2e/harness.js";
import { postedNumbers } from "../e2e/ledger.js";
import { TOLL_FREE_PORT_FORM } from "../support/port-form.js";
import { fuzzParams, testTimeout } from "./settings.js";
import { plausibleArb, sheetArb } from "./sheets.js";

/** Spawning the CLI costs about a second a run: a few runs in `npm test`, more in `npm run fuzz`. */
const RUNS = 6;
const RUN_TIMEOUT_MS = 20_000;
const STATUSES = ["submitted", "planned", "skipped", "invalid", "rejected", "failed", "unknown"];

let sandbox: RunningSandbox;
let root = "";
let run = 0;
beforeAll(async () => {
  sandbox = await startSandbox();
  root = await tempDir();
});
afterAll(async () => {
  await sandbox.close();
});

/** The data rows the reader finds in the sheet and its delimiter (the results keep it), or null when it refuses the sheet. */
async function dataRows(path: string): Promise<{ rows: number; delimiter: string } | null> {
  try {
    const sheet = await openSheet(path);
    let rows = 0;
    for await (const row of sheet.rows) rows = row.index + 1;
    return { rows, delimiter: sheet.layout.delimiter };
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
}

it(
  "submits any sheet to one of three ends: refused whole, or one results row per data row, and nothing of an invalid row sent",
  async () => {
    await fc.assert(
      // Mostly sheets that get as far as sending: refusals are cheaper to find in process.
      fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: plausibleArb }, { weight: 1, arbitrary: sheetArb }), async (sheet) => {
        const dir = join(root, `run-${++run}`);
        await mkdir(dir);
        const input = join(dir, "sheet.csv");
        await writeFile(input, sheet.bytes);
        await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 signed");
        // The rest of the PortForm from defaults beside the sheet, so that plausible rows can be valid.
        await writeFile(join(dir, "sheet.defaults.json"), JSON.stringify({ portForm: { ...TOLL_FREE_PORT_FORM, CurrentProvider: 17 } }));
        const results = join(dir, "results.csv");
        const before = sandbox.received().length;

        const cli = await runCli(["submit", input, ...against(sandbox), "--results", results, "--state", join(dir, "state.jsonl")]);
        const posted = postedNumbers(sandbox, before);

        expect([0, 1, 2]).toContain(cli.code);
        expect(cli.stderr).not.toMatch(/^\s+at /m);
        expect(cli.stderr).not.toContain("internal error");
        const read = await dataRows(input);
        if (cli.code === 2) {
          expect(read).toBeNull();
          const lines = cli.stderr.trimEnd().split("\n").filter((l) => !l.startsWith("portin: using defaults from"));
          expect(lines).toHaveLength(1);
          expect(lines[0]).toMatch(/^portin: .*(line \d+|column \d+|the file is empty|no number column)/);
          expect(existsSync(results)).toBe(false);
          expect(posted).toEqual([]);
          return;
        }
        if (read === null) throw new Error(`the reader refuses the sheet, but the CLI exited ${cli.code}`);
        const records: string[][] = parse(await readFile(results), { bom: true, delimiter: read.delimiter, relax_column_count: true });
        const header = records[0] ?? [];
        const width = header.length - RESULT_COLUMN_NAMES.length;
        expect(header.slice(width)).toEqual([...RESULT_COLUMN_NAMES]);
        const rows = records.slice(1);
        expect(rows).toHaveLength(read.rows);
        const sendable = new Set<string>();
        for (const row of rows) {
          expect(row).toHaveLength(header.length);
          const status = row[width] ?? "";
          expect(STATUSES).toContain(status);
          if (status !== "invalid") sendable.add(row[width + 1] ?? "");
          if (status === "submitted") expect(posted).toContain(row[width + 1]);
        }
        for (const number of posted) expect(sendable).toContain(number);
      }),
      fuzzParams(RUNS, RUN_TIMEOUT_MS),
    );
  },
  testTimeout(RUNS, 5_000),
);
