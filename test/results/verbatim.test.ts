import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { csvCell, verbatimTest } from "../../src/results/cells.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import { openResults } from "../../src/results/writer.js";

const unusedStdout = new Writable({ write: (_chunk, _encoding, callback) => callback() });
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-verbatim-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function outcome(overrides: Partial<RowOutcome> = {}): RowOutcome {
  return {
    status: "rejected",
    number: "4165550101",
    numberType: "regular",
    operation: "POST /v2/NumberPorts/Inbound/DIDs",
    sequence: 3,
    ticket: "",
    httpStatus: 400,
    message: 'PortForm.CustomerName: "x", required; see\nline two',
    ...overrides,
  };
}

const TRICKY = ["", "plain", "a,b", "a;b", "tab\there", 'say "hi"', "two\nlines", "cr\rhere", "=1+1", "+1 (416) 555-0101", "-", "@home", " spaced ", "Québec 📞"];

describe("copying rows the results do not change", () => {
  it("quotes each result cell exactly as csv-stringify does, for every delimiter", () => {
    for (const delimiter of [",", ";", "\t"]) {
      for (const value of TRICKY) expect(csvCell(value, delimiter) + "\n").toBe(stringify([[value]], { delimiter }));
    }
  });

  it("copies only rows of the header's width with nothing to mask or defuse", () => {
    const copyable = verbatimTest(["number", "item.SipPassword", "note"]);
    expect(copyable(["4165550101", "", "first"])).toBe(true);
    expect(copyable(["+1 (416) 555-0101", "", "-"])).toBe(true);
    expect(copyable(["4165550101", "secret", "first"])).toBe(false);
    expect(copyable(["4165550101", "", "=HYPERLINK(1)"])).toBe(false);
    expect(copyable(["4165550101", "", "＝1"])).toBe(false);
    expect(copyable(["4165550101", ""])).toBe(false);
    expect(copyable(["\nline", "", "x"])).toBe(false);
  });

  it.each([
    ["\n", false],
    ["\r\n", true],
  ])("writes a copied row exactly as it writes the same row from its cells, mixed in any order (line end %j, BOM %s)", async (lineEnd, bom) => {
    for (const delimiter of [",", ";", "\t"]) {
      const header = ["number", "note"];
      const rows: { cells: string[]; text: string; result: RowOutcome }[] = TRICKY.map((note, i) => ({
        cells: ["4165550101", note],
        text: stringify([["4165550101", note]], { delimiter, record_delimiter: lineEnd }).slice(0, -lineEnd.length),
        result: outcome({ sequence: i, message: TRICKY[(i + 3) % TRICKY.length] ?? "", ticket: TRICKY[(i + 5) % TRICKY.length] ?? "" }),
      }));
      const fromCells = join(dir, `cells-${rows.length}.csv`);
      const writer = await openResults(fromCells, header, { delimiter, bom, lineEnd, stdout: unusedStdout, rows: rows.length });
      for (const row of rows) await writer.write(row.cells, row.result);
      await writer.close();

      const mixed = join(dir, `mixed-${rows.length}.csv`);
      const other = await openResults(mixed, header, { delimiter, bom, lineEnd, stdout: unusedStdout, rows: rows.length });
      const copyable = verbatimTest(header);
      let copied = 0;
      for (const [i, row] of rows.entries()) {
        if (i % 3 !== 2 && copyable(row.cells)) {
          await other.writeVerbatim(Buffer.from(row.text), row.result);
          copied++;
        }
        else await other.write(row.cells, row.result);
      }
      await other.close();
      expect(copied).toBeGreaterThan(5);
      const written = await readFile(fromCells, "utf8");
      expect(await readFile(mixed, "utf8")).toBe(written);
      expect(written.startsWith("\uFEFF")).toBe(bom);
      expect(written.startsWith(`${bom ? "\uFEFF" : ""}number${delimiter}note${delimiter}result_status`)).toBe(true);
      expect(written.endsWith(lineEnd)).toBe(true);
    }
  });
});
