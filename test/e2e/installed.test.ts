/**
 * portin as a user gets it (docs/contract.md §8, "Start-up"): `npm pack`'s tarball installed
 * into a prefix of its own, as `npm install -g` installs it, then run there by a user who does
 * not own the install, on a copy of the sample. Nothing may be written under the install folder
 * at run time: a cache or any other file there would fail for that user, or be shared by every
 * user of the machine.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmod, chown, copyFile, lstat, mkdir, readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, tempDir } from "./harness.js";

/** `nobody`: a user who owns nothing here. Tests run as root on CI and on the developers' machines. */
const NOBODY = 65534;
const AS_ROOT = process.getuid?.() === 0;

/** Every entry under `root`: its path, kind, size, mode and modification time, in one line each. */
async function listing(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const info = await lstat(path);
      lines.push(`${path.slice(root.length)} ${info.isDirectory() ? "dir" : info.isSymbolicLink() ? "link" : "file"} ${info.size} ${info.mode.toString(8)} ${info.mtimeMs}`);
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return lines.sort();
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `npm` with `args` in `cwd`, as this process's user, failing the test with its output when it fails. */
function npm(args: readonly string[], cwd: string): void {
  const run = spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} exited ${String(run.status)}:\n${run.stdout}\n${run.stderr}`);
}

describe("an installed portin", () => {
  it("runs --version, plan, submit, status and report for a user who cannot write its install folder, and writes nothing there", { timeout: 180_000 }, async () => {
    const root = await tempDir();
    // The user the commands run as must be able to pass through to the install and the work folder.
    if (AS_ROOT) for (const dir of [tmpdir(), root]) await chmod(dir, (await stat(dir)).mode | 0o711);
    npm(["pack", "--ignore-scripts", "--pack-destination", root], PACKAGE_ROOT);
    const { version } = JSON.parse(await readFile(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
    const prefix = join(root, "prefix");
    // From npm's cache where it has what is asked, from the registry otherwise (a machine's first run).
    npm(["install", "--global", "--prefix", prefix, join(root, `portin-${version}.tgz`), "--prefer-offline", "--no-audit", "--no-fund"], root);
    const installed = join(prefix, "lib", "node_modules", "portin");
    const before = await listing(prefix);
    expect(before.some((line) => line.startsWith("/lib/node_modules/portin/dist/src/portin.cjs "))).toBe(true);

    const home = join(root, "home");
    const work = join(root, "work");
    await mkdir(join(home, "tmp"), { recursive: true });
    await mkdir(work);
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(work, name));
    if (AS_ROOT) {
      for (const dir of [home, join(home, "tmp"), work]) await chown(dir, NOBODY, NOBODY);
      for (const name of await readdir(work)) await chown(join(work, name), NOBODY, NOBODY);
    } else {
      // Not root: the install is made read-only for the user the test runs as instead.
      spawnSync("chmod", ["-R", "a-w", prefix]);
    }
    // The `bin` npm linked, found on PATH as a user's shell finds it; an environment of the user's own, on the built-in sandbox.
    const env = { HOME: home, TMPDIR: join(home, "tmp"), PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin`, LANG: "C.UTF-8" };
    const portin = (args: readonly string[], asOwner = false): Promise<Run> =>
      new Promise((resolve, reject) => {
        const child = spawn("portin", args, { cwd: work, env, ...(AS_ROOT && !asOwner ? { uid: NOBODY, gid: NOBODY } : {}) });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });

    expect(await portin(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    // The sample has invalid rows on purpose: plan and submit exit 1, having planned or sent the rest.
    const plan = await portin(["plan", "sample.csv", "--results", "plan.csv", "--quiet"]);
    expect(plan.code).toBe(1);
    expect(await readFile(join(work, "plan.csv"), "utf8")).toContain("planned");
    const submit = await portin(["submit", "sample.csv", "--state", "sample.state.jsonl", "--results", "submit.csv", "--quiet"]);
    expect(submit.code).toBe(1);
    expect(await readFile(join(work, "submit.csv"), "utf8")).toContain("submitted");
    expect(await readFile(join(work, "sample.state.jsonl"), "utf8")).toMatch(/"type":"intent"/);
    const status = await portin(["status", "sample.csv", "--state", "sample.state.jsonl", "--output", "status.csv"]);
    expect({ code: status.code, stderr: status.stderr }).toMatchObject({ code: 0 });
    expect((await stat(join(work, "status.csv"))).size).toBeGreaterThan(0);
    const report = await portin(["report", "sample.csv", "--state", "sample.state.jsonl", "--output", "report.html"]);
    expect(report.code).toBe(0);
    expect(await readFile(join(work, "report.html"), "utf8")).toMatch(/^<!doctype html>/i);
    for (const run of [plan, submit, status, report]) expect(run.stderr).not.toMatch(/EACCES|EPERM|EROFS/);

    // The install's owner, who could write there, runs two commands too: a write the other user was refused would show now.
    if (AS_ROOT) {
      expect((await portin(["submit", "sample.csv", "--state", "owner.state.jsonl", "--results", "owner.csv", "--quiet"], true)).code).toBe(1);
      expect((await portin(["report", "sample.csv", "--state", "owner.state.jsonl", "--output", "owner.html"], true)).code).toBe(0);
    }

    // Not a file added, removed, grown or touched under the install folder.
    expect(await listing(prefix)).toEqual(before);
    expect(await readdir(join(installed, "dist", "src"))).not.toContain("code-cache");
  });
});
