import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OutputError } from "../../src/errors.js";
import { RESULT_COLUMN_NAMES, RESULT_COLUMN_SET } from "../../src/results/columns.js";
import type { ResultsWriter } from "../../src/results/encoder.js";
import { openJsonlResults } from "../../src/results/jsonl-writer.js";
import { STATUS_COLUMN_SET } from "../../src/results/order-status.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import { openReport, openResults } from "../../src/results/writer.js";
import { defaultResultsPath } from "../../src/paths.js";

function outcome(overrides: Partial<RowOutcome> = {}): RowOutcome {
  return {
    status: "submitted",
    number: "4165550101",
    numberType: "regular",
    operation: "POST /v2/NumberPorts/Inbound/DIDs",
    sequence: 1,
    ticket: "T-1",
    httpStatus: 200,
    message: "",
    ...overrides,
  };
}

/** A stdout stand-in that keeps what it is given. */
class Collector extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    callback();
  }
}

const unusedStdout = new Collector();
// A few rows follow in each test.
const LF_NO_BOM = { bom: false, lineEnd: "\n", rows: 10 };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-results-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeRows(path: string, header: string[], rows: [string[], RowOutcome][], delimiter = ","): Promise<string> {
  const writer = await openResults(path, header, { ...LF_NO_BOM, delimiter, stdout: unusedStdout });
  for (const [cells, result] of rows) await writer.write(cells, result);
  await writer.close();
  return readFile(path, "utf8");
}

describe("openResults to a file", () => {
  it("writes the input's header then the result columns, and one row per input row in input order", async () => {
    const path = join(dir, "in.results.csv");
    const text = await writeRows(path, ["number", "note"], [
      [["4165550101", "first"], outcome({ sequence: 2 })],
      [["bad", "second"], outcome({ status: "invalid", number: "", numberType: null, operation: "", sequence: null, ticket: "", httpStatus: null, message: "not a NANP number: bad" })],
      [["8005550199", "third"], outcome({ status: "planned", number: "8005550199", numberType: "toll-free", ticket: "", httpStatus: null })],
    ]);
    expect(parse(text)).toEqual([
      ["number", "note", ...RESULT_COLUMN_NAMES],
      ["4165550101", "first", "submitted", "4165550101", "regular", "POST /v2/NumberPorts/Inbound/DIDs", "2", "T-1", "200", ""],
      ["bad", "second", "invalid", "", "", "", "", "", "", "not a NANP number: bad"],
      ["8005550199", "third", "planned", "8005550199", "toll-free", "POST /v2/NumberPorts/Inbound/DIDs", "1", "", "", ""],
    ]);
  });

  it("keeps 1,000 rows in input order across the writer's internal batches", async () => {
    const path = join(dir, "many.results.csv");
    const rows = Array.from({ length: 1000 }, (_, i): [string[], RowOutcome] => [[String(i)], outcome({ sequence: i })]);
    const records = parse(await writeRows(path, ["row"], rows));
    expect(records).toHaveLength(1001);
    expect(records.slice(1).map((record) => record[0])).toEqual(rows.map(([cells]) => cells[0]));
  });

  it("masks password columns in the file", async () => {
    const path = join(dir, "pw.results.csv");
    const text = await writeRows(path, ["number", "item.SipPassword", "note"], [[["4165550101", "s3cret", "my password is s3cret"], outcome()]]);
    expect(parse(text)[1]?.slice(0, 3)).toEqual(["4165550101", "***", "my password is s3cret"]);
  });

  it("escapes formulas but leaves phone numbers readable in the file", async () => {
    const path = join(dir, "f.results.csv");
    const text = await writeRows(path, ["number", "a", "b", "c"], [[["+1 (416) 555-0101", "=SUM(A1)", "-cmd", "@x"], outcome()]]);
    expect(parse(text)[1]?.slice(0, 4)).toEqual(["+1 (416) 555-0101", "'=SUM(A1)", "'-cmd", "'@x"]);
  });

  it.each([
    [";", "semicolon"],
    ["\t", "tab"],
  ])("uses the input's %j delimiter (%s)", async (delimiter) => {
    const path = join(dir, "d.results.csv");
    const text = await writeRows(path, ["number", "note"], [[["4165550101", "a,b"], outcome()]], delimiter);
    expect(text.split("\n")[0]).toBe(["number", "note", ...RESULT_COLUMN_NAMES].join(delimiter));
    expect(text.split("\n")[1]?.startsWith(`4165550101${delimiter}a,b${delimiter}submitted`)).toBe(true);
    expect(parse(text, { delimiter })[1]?.[1]).toBe("a,b");
  });

  it("quotes cells holding the delimiter, quotes or newlines so they read back unchanged", async () => {
    const path = join(dir, "q.results.csv");
    const tricky = ["a;b", 'say "hi"', "line one\nline two", "cr\rhere", "plain"];
    for (const delimiter of [",", ";"]) {
      const text = await writeRows(path, ["number", "c1", "c2", "c3", "c4", "c5"], [[["4165550101", ...tricky], outcome({ message: 'service said "no", twice;\nsorry' })]], delimiter);
      const record = parse(text, { delimiter })[1];
      expect(record?.slice(1, 6)).toEqual(tricky);
      expect(record?.at(-1)).toBe('service said "no", twice;\nsorry');
    }
  });

  it("pads a short ragged row and cuts a long one so the result columns stay aligned", async () => {
    const path = join(dir, "r.results.csv");
    const ragged = outcome({ status: "invalid", message: "row has 1 field, the header has 3" });
    const text = await writeRows(path, ["number", "a", "b"], [
      [["4165550101"], ragged],
      [["4165550102", "x", "y", "extra"], ragged],
    ]);
    const records = parse(text);
    expect(records.map((r) => r.length)).toEqual([11, 11, 11]);
    expect(records[1]?.slice(0, 4)).toEqual(["4165550101", "", "", "invalid"]);
    expect(records[2]?.slice(0, 4)).toEqual(["4165550102", "x", "y", "invalid"]);
  });

  it("writes nothing at the destination until close, then renames the finished file into place", async () => {
    const path = join(dir, "atomic.results.csv");
    await writeFile(path, "an earlier run's results\n");
    const writer = await openResults(path, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout });
    await writer.write(["4165550101"], outcome());
    expect(await readFile(path, "utf8")).toBe("an earlier run's results\n");
    expect(await readdir(dir)).toContain(`atomic.results.csv.tmp-${process.pid}`);
    await writer.close();
    expect(await readFile(path, "utf8")).toContain("4165550101,submitted");
    expect(await readdir(dir)).toEqual(["atomic.results.csv"]);
  });

  it("writes a header-only file when there are no rows", async () => {
    const path = join(dir, "empty.results.csv");
    expect(await writeRows(path, ["number"], [])).toBe(["number", ...RESULT_COLUMN_NAMES].join(",") + "\n");
  });

  it("can be closed twice", async () => {
    const path = join(dir, "twice.results.csv");
    const writer = await openResults(path, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout });
    await writer.close();
    await writer.close();
    expect(await readFile(path, "utf8")).toContain("result_status");
  });
});

describe("openResults to an unwritable destination", () => {
  it("refuses a path in a missing directory with an OutputError naming the path (exit 2)", async () => {
    const path = join(dir, "missing", "x.results.csv");
    const opening = openResults(path, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout });
    await expect(opening).rejects.toBeInstanceOf(OutputError);
    await expect(opening).rejects.toMatchObject({
      exitCode: 2,
      message: `cannot write results to ${path}: no such directory (use --results PATH)`,
    });
  });

  it("refuses a destination that is a directory", async () => {
    const folder = join(dir, "results.csv");
    await mkdir(folder);
    await expect(openResults(folder, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout })).rejects.toMatchObject({
      name: "OutputError",
      message: `cannot write results to ${folder}: it is a directory (use --results PATH)`,
    });
    expect(await readdir(dir)).toEqual(["results.csv"]);
  });

  it.each(["csv", "jsonl", "xlsx"])("names the status report and --output for a .%s report whose destination is a directory", async (ext) => {
    const folder = join(dir, `acme.status.${ext}`);
    await mkdir(folder);
    await expect(openReport(folder, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout, option: "--output" }, STATUS_COLUMN_SET)).rejects.toMatchObject({
      name: "OutputError",
      message: `cannot write the status report to ${folder}: it is a directory (use --output PATH)`,
    });
  });

  it("refuses a path under a regular file", async () => {
    const file = join(dir, "plain");
    await writeFile(file, "");
    const path = join(file, "x.results.csv");
    await expect(openResults(path, ["number"], { ...LF_NO_BOM, delimiter: ",", stdout: unusedStdout })).rejects.toThrow(
      `cannot write results to ${path}: a part of the path is not a directory (use --results PATH)`,
    );
  });
});

describe("openResults to standard output", () => {
  it("writes to the given stdout stream and leaves it open for the summary", async () => {
    const stdout = new Collector();
    const writer = await openResults("-", ["number", "note"], { ...LF_NO_BOM, delimiter: ",", stdout });
    await writer.write(["4165550101", "=1+1"], outcome());
    await writer.close();
    expect(parse(stdout.text)).toEqual([
      ["number", "note", ...RESULT_COLUMN_NAMES],
      ["4165550101", "'=1+1", "submitted", "4165550101", "regular", "POST /v2/NumberPorts/Inbound/DIDs", "1", "T-1", "200", ""],
    ]);
    expect(stdout.writableEnded).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  // Standard output is CSV; the JSON Lines encoder writes its stream the same way (chunked-sink.ts).
  it.each([
    ["CSV", (stdout: Writable) => openResults("-", ["number"], { ...LF_NO_BOM, delimiter: ",", stdout })],
    ["JSON Lines", (stdout: Writable) => openJsonlResults("-", ["number"], { ...LF_NO_BOM, delimiter: ",", stdout }, RESULT_COLUMN_SET)],
  ] as const)("reports a broken pipe under %s as an OutputError naming standard output", async (_, open) => {
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const writer: ResultsWriter = await open(broken);
    // The row may be taken before the pipe's failure is known; close() is where it must surface.
    await writer.write(["4165550101"], outcome()).catch(() => undefined);
    const closing = writer.close();
    await expect(closing).rejects.toBeInstanceOf(OutputError);
    await expect(closing).rejects.toThrow("cannot write results to standard output: the reader closed the pipe");
  });

  it.each([
    ["CSV", (stdout: Writable) => openResults("-", ["number", "note"], { ...LF_NO_BOM, delimiter: ",", stdout })],
    ["JSON Lines", (stdout: Writable) => openJsonlResults("-", ["number", "note"], { ...LF_NO_BOM, delimiter: ",", stdout }, RESULT_COLUMN_SET)],
  ] as const)("holds %s writers back while the output is full, and lets them go when it drains", async (_, open) => {
    const pending: (() => void)[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(_chunk, _encoding, callback) {
        pending.push(() => callback());
      },
    });
    const writer: ResultsWriter = await open(slow);
    let blocked: Promise<void> | null = null;
    let written = 0;
    while (blocked === null && written < 100_000) {
      const write = writer.write(["4165550101", "x".repeat(100)], outcome());
      written += 1;
      const settled = await Promise.race([write.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
      if (!settled) blocked = write;
    }
    expect(blocked).not.toBeNull();
    // Back-pressure, not buffering: only a few dozen rows are in memory when writers wait.
    expect(written).toBeLessThan(1000);
    let released = false;
    void blocked?.then(() => {
      released = true;
    });
    while (!released) {
      pending.splice(0).forEach((callback) => callback());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(released).toBe(true);
    const closing = writer.close();
    while (pending.length > 0 || !(await Promise.race([closing.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]))) {
      pending.splice(0).forEach((callback) => callback());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closing;
  });
});

describe("defaultResultsPath", () => {
  it.each([
    ["a/b.csv", "a/b.results.csv"],
    ["a/b.CSV", "a/b.results.csv"],
    ["a/b", "a/b.results.csv"],
    ["b.csv", "b.results.csv"],
    ["a/b.txt", "a/b.txt.results.txt"],
    ["a/b.TSV", "a/b.TSV.results.TSV"],
    ["a/b.json", "a/b.json.results.csv"],
    ["-", "-"],
  ])("puts the results for %j at %j", (input, expected) => {
    expect(defaultResultsPath(input, "submit")).toBe(expected);
  });

  it("gives a dry run and a sandbox run files of their own, so neither overwrites a real run's results", () => {
    expect(defaultResultsPath("a/acme.csv", "plan")).toBe("a/acme.plan.csv");
    expect(defaultResultsPath("a/acme.csv", "sandbox")).toBe("a/acme.sandbox.results.csv");
    expect(defaultResultsPath("-", "sandbox")).toBe("-");
  });
});
