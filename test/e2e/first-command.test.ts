/**
 * The README's first command, `npm install && npx portin submit fixtures/sample.csv`, leaves
 * what a run of the built-in sandbox writes beside the sheet: its orders and its results
 * (docs/contract.md §2, "The built-in sandbox between runs"). Then comes `npm test`, which
 * must pass all the same. Here that run is made in a copy of the checkout's tracked files
 * (node_modules linked, as after `npm install`), never in the checkout itself; what it wrote
 * must be none of the fixtures the suite reads (test/e2e/fixtures.ts), and a sample run from
 * fixtures copied out of that written-into folder must go as the first did.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { copyFixtures, SAMPLE, SUITE_FIXTURES } from "./fixtures.js";
import { readResults, runCli, tempDir } from "./harness.js";

/** The checkout's tracked files, as a fresh clone has them. */
async function trackedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)("git", ["ls-files", "-z"], { cwd: PACKAGE_ROOT, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split("\0").filter((path) => path !== "");
}

/** Each file under `root` (not following the node_modules link) by its path there, with a hash of its content. */
async function contents(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.set(relative(root, path), createHash("sha256").update(await readFile(path)).digest("hex"));
  }
  return found;
}

/** Each row's number, status and ticket: what a sandbox that already held the sample's orders would answer otherwise. */
const outcomes = (rows: readonly Record<string, string>[]) => rows.map((r) => [r["number"], r["result_status"], r["result_ticket"]]);

describe("the README's first command, run before the tests", () => {
  it("writes none of the fixtures the tests read, and a sample run from fixtures copied after it goes as on a fresh clone", async () => {
    const tracked = await trackedFiles();
    // Every fixture the suite reads is a tracked file, named: no folder, nothing a run writes.
    for (const name of SUITE_FIXTURES) expect(tracked, `fixtures/${name}`).toContain(`fixtures/${name}`);

    const checkout = join(await tempDir(), "portin");
    // A tracked file deleted in the working tree is left out, as a commit of it would leave it.
    for (const path of tracked.filter((path) => existsSync(join(PACKAGE_ROOT, path)))) {
      await mkdir(dirname(join(checkout, path)), { recursive: true });
      await copyFile(join(PACKAGE_ROOT, path), join(checkout, path));
    }
    await symlink(join(PACKAGE_ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
    const before = await contents(checkout);

    const first = await runCli(["submit", "fixtures/sample.csv"], { cwd: checkout });
    expect(first.code, first.stderr).toBe(1); // the sample's four deliberately wrong rows
    const after = await contents(checkout);
    const written = [...after].filter(([path, hash]) => before.get(path) !== hash).map(([path]) => path);
    // What the README says the run leaves: without these the checks below would check nothing.
    expect(written).toEqual(expect.arrayContaining(["fixtures/sample.sandbox.orders.json", "fixtures/sample.sandbox.results.csv"]));
    expect(written.filter((path) => tracked.includes(path))).toEqual([]);
    const read = SUITE_FIXTURES.map((name) => `fixtures/${name}`);
    expect(written.filter((path) => read.includes(path))).toEqual([]);
    // Nor does the package carry them: an `npm pack` after that run ships the sheet, not its results or orders.
    const { stdout: packed } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: checkout, maxBuffer: 16 * 1024 * 1024 });
    const shipped = (JSON.parse(packed) as { files: { path: string }[] }[]).flatMap((pack) => pack.files.map((file) => file.path));
    expect(shipped).toContain("fixtures/sample.csv");
    expect(written.filter((path) => shipped.includes(path))).toEqual([]);

    // The tests' way to the sample, from the written-into fixtures/: a copy that took the run's
    // orders along would find every number already in an open order.
    const again = await copyFixtures(await tempDir(), SAMPLE, join(checkout, "fixtures"));
    const second = await runCli(["submit", "fixtures/sample.csv"], { cwd: again });
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).not.toContain("already");
    const firstRows = await readResults(join(checkout, "fixtures", "sample.sandbox.results.csv"));
    const secondRows = await readResults(join(again, "fixtures", "sample.sandbox.results.csv"));
    expect(outcomes(secondRows)).toEqual(outcomes(firstRows));
    expect(secondRows.map((r) => r["result_status"])).toContain("submitted");
  });

  it("is kept from the tests' sight: none reaches the checkout's fixtures/ but by a name test/e2e/fixtures.ts lists", async () => {
    // The two ways a test finds the checkout: the package root, and the working directory vitest runs in.
    const reaching = /PACKAGE_ROOT\s*,\s*["'`]fixtures|resolve\(\s*["'`]fixtures|\bFIXTURES\b/;
    const sources = (await readdir(join(PACKAGE_ROOT, "test"), { recursive: true })).filter((path) => path.endsWith(".ts") && path !== join("e2e", "fixtures.ts"));
    expect(sources.length).toBeGreaterThan(100);
    const offending: string[] = [];
    for (const path of sources) if (reaching.test(await readFile(join(PACKAGE_ROOT, "test", path), "utf8"))) offending.push(path);
    expect(offending).toEqual([]);
  });
});
