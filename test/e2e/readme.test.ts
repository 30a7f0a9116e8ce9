import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, readResults, runCli, tempDir } from "./harness.js";

const readme = await readFile(join(PACKAGE_ROOT, "README.md"), "utf8");

/** The fenced block that follows `marker` (or the first one when no marker is given). */
function blockAfter(marker: string): string {
  const from = readme.indexOf(marker);
  const match = /```\w*\n([\s\S]*?)```/.exec(readme.slice(from));
  if (from < 0 || !match?.[1]) throw new Error(`README has no block after ${marker}`);
  return match[1];
}

/** Run-to-run noise: the sandbox's port and the timings. */
const steady = (text: string) =>
  text
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/sent (\d+) requests? in [\d.]+ m?s, [\d.]+ requests\/s/g, "sent $1 requests in T")
    .trimEnd();

describe("README", () => {
  it("opens with exactly two set-up commands, the second of which CI runs after a clean install", async () => {
    const commands = blockAfter("# portin").trim().split("\n");
    expect(commands).toEqual(["npm install && npx portin submit fixtures/sample.csv", "npm test"]);
    const ci = await readFile(join(PACKAGE_ROOT, ".ci", "run"), "utf8");
    expect(ci).toMatch(/npm ci\s*\n\s*npm test/);
  });

  it("shows what the sample run really prints, and an excerpt of its real results", async () => {
    const dir = await tempDir();
    await cp(FIXTURES, join(dir, "fixtures"), { recursive: true });
    const run = await runCli(["submit", "fixtures/sample.csv"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(steady(run.stderr)).toBe(steady(blockAfter("readme-test: sample-run")));

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
  });
});
