/**
 * portin as a library (docs/library.md): the page's example runs as written against the
 * package as Node resolves it (package.json `exports`, the built dist/), and the functions
 * do what the commands do.
 */
import { spawn } from "node:child_process";
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, runCli, tempDir } from "./harness.js";

const page = await readFile(join(PACKAGE_ROOT, "docs", "library.md"), "utf8");
const marker = page.indexOf("<!-- readme-test: library -->");
const example = /```js\n([\s\S]*?)```/.exec(page.slice(marker))?.[1] ?? "";
const promised = /It prints `([^`]+)`/.exec(page.slice(marker))?.[1] ?? "";

/** A folder where `import "portin"` finds this package, as after `npm install portin`. */
async function project(): Promise<string> {
  const dir = await tempDir();
  await cp(FIXTURES, join(dir, "fixtures"), { recursive: true });
  await mkdir(join(dir, "node_modules"));
  await symlink(PACKAGE_ROOT, join(dir, "node_modules", "portin"), "dir");
  return dir;
}

function runNode(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the library entry point", () => {
  it("runs the example of docs/library.md as written, printing what the page says and writing what portin plan writes", async () => {
    expect(marker).toBeGreaterThan(0);
    expect(promised).not.toBe("");
    const dir = await project();
    await writeFile(join(dir, "example.mjs"), example);
    const run = await runNode("example.mjs", dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(promised);
    const fromLibrary = await readFile(join(dir, "fixtures", "sample.plan.csv"), "utf8");

    const cli = await runCli(["plan", "fixtures/sample.csv", "--max-per-request", "5", "--quiet"], { cwd: dir });
    expect(cli.code).toBe(1);
    expect(await readFile(join(dir, "fixtures", "sample.plan.csv"), "utf8")).toBe(fromLibrary);
  });

  it("submits, then learns the orders' status, on one client; a refused sheet throws a PortinError", async () => {
    const dir = await project();
    const script = `
      import { connect, submit, status, PortinError } from "portin";
      const client = await connect();
      try {
        // A journal, which the built-in sandbox keeps only when asked: status reads what submit sent from it.
        const sent = await submit({ input: "fixtures/sample.csv", state: "sample.state.jsonl" }, client);
        const learned = await status({ input: "fixtures/sample.csv", state: "sample.state.jsonl" }, client);
        let refused = "";
        try { await submit({ input: "no-such.csv" }, client); } catch (error) { refused = error instanceof PortinError ? "PortinError" : String(error); }
        console.log(JSON.stringify({ sent: sent.exitCode, submitted: sent.report.summary.counts.submitted, learned: learned.exitCode, orders: learned.report.summary.orders, refused }));
      } finally {
        await client.close();
      }
    `;
    await writeFile(join(dir, "run.mjs"), script);
    const run = await runNode("run.mjs", dir);
    expect(run.stderr).toBe("");
    const out = JSON.parse(run.stdout) as { sent: number; submitted: number; learned: number; orders: number; refused: string };
    // The sample's four deliberately wrong rows make exit 1; every other row is submitted and its order open.
    expect(out).toMatchObject({ sent: 1, submitted: 33, learned: 0, refused: "PortinError" });
    expect(out.orders).toBeGreaterThan(0);
    expect(await readFile(join(dir, "fixtures", "sample.sandbox.status.csv"), "utf8")).toContain(",SUBMITTED,PI-");
    const written = await readFile(join(dir, "fixtures", "sample.sandbox.results.csv"), "utf8");
    expect(written.split("\n").filter((line) => line.includes(",submitted,")).length).toBe(33);
  });
});
