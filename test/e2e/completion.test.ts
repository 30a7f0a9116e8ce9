/** Shell completion (README.md, Commands) and what --help says of it and of the library. */
import { describe, expect, it } from "vitest";
import { runCli } from "./harness.js";

describe("shell completion", () => {
  it("portin completion prints a script that asks portin itself for completions", async () => {
    const run = await runCli(["completion"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("portin --get-yargs-completions");
    expect(run.stdout).toContain("complete -o bashdefault -o default -F _portin_yargs_completions portin");
  });

  it("completes the commands, and a command's own options", async () => {
    const commands = await runCli(["--get-yargs-completions", ""]);
    expect(commands.stdout.split("\n")).toEqual(expect.arrayContaining(["submit", "plan", "status", "template", "trunks", "sandbox"]));
    const options = await runCli(["--get-yargs-completions", "plan", "--"]);
    expect(options.stdout.split("\n")).toEqual(expect.arrayContaining(["--max-per-request", "--expand-ranges", "--base-url"]));
  });

  it("--help names completion and the library", async () => {
    const run = await runCli(["--help"]);
    const text = run.stdout.replace(/\s+/g, " "); // as wrapped to the terminal's width
    expect(text).toContain("portin completion >> ~/.bashrc");
    expect(text).toContain('import { connect, plan, submit, status } from "portin"');
  });
});
