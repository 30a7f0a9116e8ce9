/**
 * Files portin writes hold customers' names, addresses and tickets: owner only (0600), whatever
 * the umask (docs/contract.md §7). The built CLI under the commonest umask, 022, which leaves
 * new files world-readable unless the program asks otherwise.
 */
import { spawn } from "node:child_process";
import { chmod, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { CLI, against, tempDir } from "./harness.js";
import { sandboxPerTest } from "./sandboxed.js";
import { numbers, trunkSheetOf } from "./ledger.js";

const sandboxed = sandboxPerTest();

/** The built CLI started by a shell that set umask 022 first, as a login shell does. */
function underUmask022(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("/bin/sh", ["-c", 'umask 022 && exec "$0" "$@"', process.execPath, CLI, ...args], { cwd: PACKAGE_ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

async function modeOf(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}

describe("files portin writes, under umask 022", () => {
  it("creates results, journal, status report and workbook results 0600, and makes an older 0644 journal private", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(4));
    const state = join(dir, "acme.state.jsonl");
    const sh = async (args: readonly string[]): Promise<number | null> => {
      const run = await underUmask022(args);
      if (run.code !== 0) throw new Error(`portin ${args[0] ?? ""} exited ${String(run.code)}: ${run.stderr}`);
      return run.code;
    };

    expect(await sh(["plan", sheet, ...against(s)])).toBe(0);
    expect(await sh(["submit", sheet, ...against(s)])).toBe(0);
    expect(await sh(["status", sheet, ...against(s)])).toBe(0);
    expect(await sh(["plan", sheet, "--results", join(dir, "acme.plan.xlsx"), ...against(s)])).toBe(0);
    const names = ["acme.plan.csv", "acme.results.csv", "acme.state.jsonl", "acme.status.csv", "acme.plan.xlsx"];
    const modes: Record<string, string> = {};
    for (const name of names) modes[name] = await modeOf(join(dir, name));
    expect(modes).toEqual({ "acme.plan.csv": "600", "acme.results.csv": "600", "acme.state.jsonl": "600", "acme.status.csv": "600", "acme.plan.xlsx": "600" });

    // A journal an older portin left world-readable becomes private on the next run that writes it.
    await chmod(state, 0o644);
    expect(await sh(["submit", sheet, ...against(s)])).toBe(0);
    expect(await modeOf(state)).toBe("600");

    const template = join(dir, "dids.csv");
    expect(await sh(["template", "--trunk", "--output", template, ...against(s)])).toBe(0);
    expect(await modeOf(template)).toBe("600");
  });
});
