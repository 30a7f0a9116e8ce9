/**
 * The journal lock's native part (fs-native-extensions, a prebuilt binary per platform) on an
 * install where it cannot load: portin says what cannot load and what to do, exit 2, before
 * anything is sent, and never blames the disk the journal is on (docs/contract.md §5, "The
 * lock"). Each install is laid out in a temporary folder as npm would leave it, but for that
 * one package: this package's other dependencies, and a copy of fs-native-extensions without
 * this platform's binary, or with one the system refuses, or none at all.
 */
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { against, runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";
import { sandboxPerTest } from "./sandboxed.js";

const sandboxed = sandboxPerTest();
const ADDON = "fs-native-extensions";
const HERE = `${process.platform}-${process.arch}`;

/** An install of portin whose fs-native-extensions `spoil` has changed; the path of its `bin`. */
async function installWith(spoil: (binaries: string) => Promise<void>): Promise<string> {
  const root = await tempDir();
  await mkdir(join(root, "dist", "src"), { recursive: true });
  for (const file of ["cli.cjs", "portin.cjs"]) await copyFile(join(PACKAGE_ROOT, "dist", "src", file), join(root, "dist", "src", file));
  await copyFile(join(PACKAGE_ROOT, "package.json"), join(root, "package.json"));
  await mkdir(join(root, "node_modules"));
  for (const entry of await readdir(join(PACKAGE_ROOT, "node_modules"))) {
    if (entry !== ADDON) await symlink(join(PACKAGE_ROOT, "node_modules", entry), join(root, "node_modules", entry));
  }
  await cp(join(PACKAGE_ROOT, "node_modules", ADDON), join(root, "node_modules", ADDON), { recursive: true });
  await spoil(join(root, "node_modules", ADDON, "prebuilds", HERE));
  return join(root, "dist", "src", "cli.cjs");
}

describe("an install whose journal lock cannot load", () => {
  it.each([
    [
      "lacks the package (an install copied without it)",
      (binaries: string) => rm(join(binaries, "..", ".."), { recursive: true }),
      `portin: the journal lock's native part (${ADDON}) is not installed beside portin: reinstall portin (npm install) and run again`,
    ],
    [
      "has no binary for this platform (as on a platform it ships none for)",
      (binaries: string) => rm(binaries, { recursive: true }),
      `portin: the journal lock's native part (${ADDON}) has no prebuilt binary for Node ${process.version} (${HERE}): it ships binaries for Linux (glibc), macOS and Windows on x64 and arm64; run portin on one of those, or reinstall portin (npm install) if this is one`,
    ],
    [
      "has a binary the system refuses (damaged, or another platform's)",
      (binaries: string) => writeFile(join(binaries, `${ADDON}.node`), "not a shared object"),
      new RegExp(
        `^portin: the journal lock's native part \\(${ADDON}\\) cannot load on Node ${process.version.replace(/\./g, "\\.")} \\(${HERE}\\) \\([^\\n]*\\): reinstall portin with this Node \\(npm install again\\) and run again$`,
      ),
    ],
  ] as const)("%s: submit says what cannot load and what to do, exit 2, and sends nothing", async (_, spoil, expected) => {
    const cli = await installWith(spoil);
    const s = await sandboxed();
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(2));

    const run = await runCli(["submit", sheet, "--state", state, ...against(s)], { cli, cwd: dir });
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    if (typeof expected === "string") expect(lines[0]).toBe(expected);
    else expect(lines[0]).toMatch(expected);
    expect(run.stderr).not.toContain("local disk");
    expect(s.received()).toEqual([]);
    expect(existsSync(`${state}.lock`)).toBe(false);

    // This package's own install loads it, and the same submit sends.
    const fine = await runCli(["submit", sheet, "--state", state, ...against(s)], { cwd: dir });
    expect(fine.code).toBe(0);
    expect(s.received().length).toBeGreaterThan(0);
  });
});
