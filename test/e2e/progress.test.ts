import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { copyFixtures, SAMPLE } from "./fixtures.js";
import { against, CLI, runCli, tempDir } from "./harness.js";

const ESC = "\u001b";

/** Runs the CLI inside a pseudo-terminal (util-linux `script`), as a person at a terminal would: stdout and stderr both on it. */
function runInTerminal(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PORTIN_BASE_URL: "" } });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function sampleDir(): Promise<string> {
  return copyFixtures(await tempDir(), SAMPLE);
}

describe("the progress display of the built CLI", () => {
  it("draws a live bar on a terminal, then clears it for the summary", async () => {
    const dir = await sampleDir();
    // Answers slow enough that the bar is redrawn while sending, however fast the machine.
    const sandbox = await startSandbox({ latencyMs: 250 });
    const run = await runInTerminal(["submit", "fixtures/sample.csv", "--state", join(dir, "s.jsonl"), ...against(sandbox)], dir).finally(() => sandbox.close());
    expect(run.code).toBe(1);
    expect(run.output).toContain(`${ESC}[?25l`);
    expect(run.output).toMatch(/portin sending [=-]+ \d+% \| \d+\/13 requests sent, \d+ in flight, 0 retried/);
    expect(run.output).toContain(`${ESC}[2Kportin submit: 37 rows: 33 submitted, 4 invalid`);
  });

  it("with --quiet on a terminal, writes no control codes at all", async () => {
    const dir = await sampleDir();
    const run = await runInTerminal(["submit", "fixtures/sample.csv", "--quiet"], dir);
    expect(run.code).toBe(1);
    expect(run.output).toContain("portin submit: 37 rows: 33 submitted, 4 invalid");
    expect(run.output).not.toContain(ESC);
  });

  it("off a terminal, as under cron, writes no control codes and no progress line for a run shorter than 10 s", async () => {
    const dir = await sampleDir();
    const run = await runCli(["submit", "fixtures/sample.csv"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain(ESC);
    expect(run.stderr).not.toMatch(/^portin: (reading|sending):/m);
  });
});
