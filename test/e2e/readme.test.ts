import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, readResults, runCli, tempDir } from "./harness.js";

/**
 * The examples of the README and of the docs/ pages the README sends a reader to, run as
 * written: each block or table after a `readme-test` marker is what the built CLI prints or
 * writes.
 */
const readme = await readFile(join(PACKAGE_ROOT, "README.md"), "utf8");
const cutoverNight = await readFile(join(PACKAGE_ROOT, "docs", "cutover-night.md"), "utf8");
const afterCutover = await readFile(join(PACKAGE_ROOT, "docs", "after-cutover.md"), "utf8");

/** The fenced block of `page` that follows `marker` (or the first one when no marker is given). */
function blockAfter(page: string, marker: string): string {
  const from = page.indexOf(marker);
  const match = /```\w*\n([\s\S]*?)```/.exec(page.slice(from));
  if (from < 0 || !match?.[1]) throw new Error(`no block after ${marker}`);
  return match[1];
}

/** Run-to-run noise: the sandbox's port and the timings. */
const steady = (text: string) =>
  text
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/sent (\d+) requests? in [\d.]+ m?s(, [\d.]+ requests\/s)?/g, "sent $1 requests in T")
    .replace(/PortInStatus (requests?) in [\d.]+ m?s/g, "PortInStatus $1 in T")
    .replace(/\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\)/g, "(WHEN)")
    .trimEnd();

describe("README", () => {
  it("opens with exactly two set-up commands, the second of which CI runs after a clean install", async () => {
    const commands = blockAfter(readme, "# portin").trim().split("\n");
    expect(commands).toEqual(["npm install && npx portin submit fixtures/sample.csv", "npm test"]);
    const ci = await readFile(join(PACKAGE_ROOT, ".ci", "run"), "utf8");
    expect(ci).toMatch(/npm ci\s*\n\s*npm test/);
  });

  it("shows what the sample run really prints, and an excerpt of its real results", async () => {
    const dir = await tempDir();
    await cp(FIXTURES, join(dir, "fixtures"), { recursive: true });
    const run = await runCli(["submit", "fixtures/sample.csv"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(steady(run.stderr)).toBe(steady(blockAfter(readme, "readme-test: sample-run")));

    const results = await readResults(join(dir, "fixtures", "sample.sandbox.results.csv"));
    const table = readme.slice(readme.indexOf("| number | result_status"));
    const [head, , ...body] = table.slice(0, table.indexOf("\n\n")).split("\n");
    const columns = head!.split("|").slice(1, -1).map((c) => c.trim());
    expect(body.length).toBeGreaterThan(3);
    for (const line of body) {
      const cells = line.split("|").slice(1, -1).map((c) => c.trim());
      const actual = results.filter((r) => r["number"] === cells[0]).map((r) => columns.map((c) => r[c]));
      expect(actual, `README row for ${cells[0]}`).toContainEqual(cells);
    }

    // "Run it again and nothing is sent twice": the sandbox remembers its orders beside the sheet.
    const again = await runCli(["submit", "fixtures/sample.csv"], { cwd: dir });
    expect(again.code).toBe(1);
    const rerun = await readResults(join(dir, "fixtures", "sample.sandbox.results.csv"));
    expect(rerun.filter((r) => r["result_status"] === "skipped")).toHaveLength(33);
    const said = rerun.find((r) => r["number"] === "416-555-0101")?.["result_message"];
    expect(readme.replace(/\s+/g, " ")).toContain(`the 33 rows are \`skipped\` (\`${said}\``);
  });

  it("shows in the cutover night (docs/cutover-night.md) a value made carrier-ready and values refused, as a plan of fixtures/disputable.csv writes them", async () => {
    const dir = await tempDir();
    await cp(FIXTURES, join(dir, "fixtures"), { recursive: true });
    const run = await runCli(["plan", "fixtures/disputable.csv"], { cwd: dir });
    expect(run.code).toBe(1);
    const results = await readResults(join(dir, "fixtures", "disputable.plan.csv"));
    const [columns = [], ...rows] = tableAfter(cutoverNight, "readme-test: carrier-values");
    expect(rows.map((cells) => cells[1])).toEqual(expect.arrayContaining(["planned", "invalid"]));
    for (const cells of rows) {
      const actual = results.filter((r) => r[columns[0] ?? ""] === cells[0]).map((r) => columns.map((c) => r[c]));
      expect(actual, `docs/cutover-night.md row for ${cells[0]}`).toEqual([cells]);
    }
  });
});

/** The markdown table of `page` after `marker`, as rows of cells, the header first. */
function tableAfter(page: string, marker: string): string[][] {
  const from = page.indexOf(marker);
  if (from < 0) throw new Error(`no table after ${marker}`);
  const text = page.slice(page.indexOf("|", from));
  return text
    .slice(0, text.indexOf("\n\n"))
    .split("\n")
    .filter((line, i) => i !== 1)
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
}

describe("docs/after-cutover.md", () => {
  it("shows what the walk-through on the sandbox really prints, step by step", async () => {
    const sandbox = await startSandbox({ seed: 96, startDate: "2026-03-02" });
    try {
      const dir = await tempDir();
      await cp(join(FIXTURES, "cutover.csv"), join(dir, "cutover.csv"));
      const env = { PORTIN_BASE_URL: sandbox.url, PORTIN_USER: "sandbox", PORTIN_PASSWORD: "sandbox" };
      const portin = (...args: string[]) => runCli(args, { cwd: dir, env });
      const advance = async (days: number) => {
        const res = await fetch(`${sandbox.url}/_sandbox/clock`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ advanceDays: days }) });
        expect(res.status).toBe(200);
      };

      const submit = await portin("submit", "cutover.csv");
      const status = await portin("status", "cutover.csv");
      expect([submit.code, status.code]).toEqual([0, 0]);
      expect(steady(submit.stderr + status.stderr)).toBe(steady(blockAfter(afterCutover, "readme-test: cutover-day-0")));

      await advance(1);
      const day1 = await portin("status", "cutover.csv");
      expect(day1.code).toBe(1);
      expect(steady(day1.stderr)).toBe(steady(blockAfter(afterCutover, "readme-test: cutover-day-1")));
      const [columns, ...rows] = tableAfter(afterCutover, "readme-test: cutover-status-day-1");
      const report = await readResults(join(dir, "cutover.status.csv"));
      for (const cells of rows) expect(report.map((r) => columns!.map((c) => r[c]))).toContainEqual(cells);
      expect(afterCutover.replace(/\s+/g, " ")).toContain(`its \`status_reject_summary\`: \`${report[0]!["status_reject_summary"]}\``);

      const unchanged = await portin("submit", "cutover.csv");
      expect(unchanged.code).toBe(1);
      expect(steady(unchanged.stderr)).toBe(steady(blockAfter(afterCutover, "readme-test: cutover-unchanged")));
      const held = (await readResults(join(dir, "cutover.results.csv")))[0]!["result_message"]!;
      expect(afterCutover.replace(/\s+/g, " ")).toContain(`\`result_message\` \`${held}\``);

      const sheet = await readFile(join(dir, "cutover.csv"), "utf8");
      await writeFile(join(dir, "cutover.csv"), sheet.replaceAll(",Maple Leaf Dental,", ",Maple Leaf Dental Clinics Inc.,"));
      const resubmit = await portin("submit", "cutover.csv");
      expect(resubmit.code).toBe(0);
      expect(steady(resubmit.stderr)).toBe(steady(blockAfter(afterCutover, "readme-test: cutover-resubmit")));
      const resent = (await readResults(join(dir, "cutover.results.csv")))[0]!["result_message"]!;
      expect(afterCutover.replace(/\s+/g, " ")).toContain(`\`${resent}\``);

      await advance(3);
      const done = await portin("status", "cutover.csv");
      expect(done.code).toBe(0);
      expect(steady(done.stderr)).toBe(steady(blockAfter(afterCutover, "readme-test: cutover-done")));
    } finally {
      await sandbox.close();
    }
  });
});
