import { cp } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli, tempDir, type CliRun } from "./harness.js";

const COMMANDS = ["submit", "plan", "status", "report", "loa", "template", "trunks", "offerings", "providers", "sandbox"] as const;

/** The example lines of a command's --help: "portin …" up to the two-space gap before its description. */
function examplesOf(help: string): string[][] {
  const section = help.slice(help.indexOf("Examples:") + "Examples:".length).split("\n");
  // yargs wraps a long example onto the next line, in the command column.
  const lines: string[] = [];
  for (const line of section) {
    // The command column starts two spaces in; a description, or its wrapped lines, further right.
    if (!/^ {2}\S/.test(line)) continue;
    const command = line.trim().split(/\s{2,}/)[0] ?? "";
    if (command.startsWith("portin ")) lines.push(command);
    else if (lines.length > 0) lines[lines.length - 1] += ` ${command}`;
  }
  return lines.map((line) => line.split(/\s+/).slice(1));
}

describe("every command's --help", () => {
  // Each command's help, asked for once, side by side: both tests below read it.
  const helps = new Map<string, CliRun>();
  beforeAll(async () => {
    for (const [command, run] of await Promise.all(COMMANDS.map(async (c) => [c, await runCli([c, "--help"])] as const))) helps.set(command, run);
  });

  it.each(COMMANDS)("%s --help shows real examples of it", (command) => {
    const run = helps.get(command) as CliRun;
    expect(run.code).toBe(0);
    const examples = examplesOf(run.stdout);
    expect(examples.length, run.stdout).toBeGreaterThan(0);
    for (const example of examples) expect(example[0]).toBe(command);
  });

  it("whose examples that need no real service run as written, on the built-in sandbox", async () => {
    const dir = await tempDir();
    await cp(FIXTURES, join(dir, "fixtures"), { recursive: true });
    const runnable: string[][] = [];
    for (const command of COMMANDS) {
      const help = (helps.get(command) as CliRun).stdout;
      runnable.push(...examplesOf(help).filter((args) => !args.includes("--base-url") && (args.some((a) => a.startsWith("fixtures/")) || ["trunks", "offerings", "template"].includes(args[0] ?? ""))));
    }
    expect(runnable.length).toBeGreaterThanOrEqual(6);
    for (const args of runnable) {
      const run = await runCli(args.map((a) => (a.endsWith(".csv") && !a.startsWith("fixtures/") ? join(dir, a) : a)), { cwd: dir });
      // 1 is the sample sheet's four deliberately wrong rows; 2 would be a broken example.
      expect([0, 1], `portin ${args.join(" ")}: ${run.stderr}`).toContain(run.code);
    }
  });
});
