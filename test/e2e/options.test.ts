import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { serve } from "../service/http-server.js";
import { against, FORM_CELLS, FORM_HEADER, parseResults, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const SHEET = `number,pilot_number,${FORM_HEADER}\n416-555-4001,4165550100,${FORM_CELLS}\n416-555-4002,4165550100,${FORM_CELLS}\n`;

describe("options a user gets wrong, and a lone -", () => {
  it("writes the results to stdout for --results -, with a file input", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(["plan", sheet, "--results", "-"]);
    expect(run.code).toBe(0);
    expect(parseResults(run.stdout).map((r) => r.result_status)).toEqual(["planned", "planned"]);
  });

  it.each([
    [["--concurrency", "abc"], '--concurrency takes a whole number from 1 to 256, not "abc"'],
    [["--max-per-request", "0"], '--max-per-request takes a whole number >= 1, not "0"'],
    [["--timeout", "-5"], '--timeout takes a whole number of milliseconds >= 1, not "-5"'],
    [["--state", ""], '--state needs a path, not ""'],
    [["--results", ""], '--results needs a path, not ""'],
    [["--state"], "Not enough arguments following: state"],
  ])("refuses %j with one line naming the value, exit 2", async (args, message) => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(["submit", sheet, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`portin: ${message}\n`);
  });

  it("refuses credentials without a base URL instead of 'submitting' to the sandbox", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(["submit", sheet], { env: { PORTIN_USER: "acme", PORTIN_PASSWORD: "Tr0ub4dor&3" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--user/PORTIN_USER and --password/PORTIN_PASSWORD given but no --base-url or PORTIN_BASE_URL");
    expect(run.stderr).not.toContain("Tr0ub4dor&3");
  });

  it("refuses results that would overwrite the input sheet, leaving it intact", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(["plan", sheet, "--results", sheet]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--results ${sheet} is also the input sheet`);
    expect(await readFile(sheet, "utf8")).toBe(SHEET);
  });

  it("keeps no journal on the built-in sandbox unless --state is given, and writes SPEC's result columns in order", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(["submit", sheet]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "a.state.jsonl"))).toBe(false);
    const header = (await readFile(join(dir, "a.sandbox.results.csv"), "utf8")).split("\n")[0]!.split(",");
    expect(header.slice(-8)).toEqual([
      "result_status",
      "result_number",
      "result_number_type",
      "result_operation",
      "result_batch",
      "result_ticket",
      "result_http_status",
      "result_message",
    ]);
  });

  it("keeps a journal for the built-in sandbox that the next run can use, whatever port the sandbox gets", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const state = join(dir, "a.state.jsonl");
    expect((await runCli(["submit", sheet, "--state", state])).code).toBe(0);
    const again = await runCli(["submit", sheet, "--state", state]);
    expect(again.code).toBe(0);
    expect((await readResults(join(dir, "a.sandbox.results.csv"))).map((r) => r.result_status)).toEqual(["skipped", "skipped"]);
  });

  it("warns that nothing is journalled when standard input is submitted to a service without --state", async () => {
    sandbox = await startSandbox();
    const run = await runCli(["submit", "-", ...against(sandbox)], { stdin: SHEET });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("portin: no --state: nothing records what is sent");
  });

  it("prints one JSON summary on stdout with --json, counts by status and requests per operation", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET + `416-555-40,4165550100,${FORM_CELLS}\n`);
    const run = await runCli(["submit", sheet, "--json"]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      command: "submit",
      counts: { submitted: 2, invalid: 1, planned: 0, skipped: 0, rejected: 0, failed: 0, unknown: 0 },
      requests: 1,
      requestsByOperation: { "POST /v2/NumberPorts/Inbound/DIDs": 1 },
      results: join(dir, "a.sandbox.results.csv"),
      service: "the built-in sandbox",
      sandbox: true,
      exitCode: 1,
    });
  });

  it("exits 130 when a lookup command is interrupted, without waiting for the answer", async () => {
    // SIGINT once the lookup has reached a service that never answers: a fixed delay after
    // spawning raced node's start-up, which takes longer than 700 ms on a busy machine.
    let child: ChildProcess | undefined;
    let reached = false;
    const service = await serve(() => {
      reached = true;
      child?.kill("SIGINT");
    });
    try {
      // The service never answers and --timeout outlasts the test's own: ending at all, with 130,
      // shows the run did not wait for the answer, on a CPU however busy.
      const run = await runCli(["trunks", "--base-url", service.url, "--user", "acme", "--password", "pw", "--timeout", "600000"], {
        onSpawn: (spawned) => (child = spawned),
      });
      expect(reached).toBe(true);
      expect(run.code).toBe(130);
      expect(run.stdout).toBe("");
    } finally {
      await service.close();
    }
  });
});

describe("values a user gets wrong, refused in one line and a pointer to --help, with exit 2 and nothing on stdout", () => {
  it.each([
    ["--json with the results on stdout", ["plan", "SHEET", "--results", "-", "--json"], "--json and results on standard output would mix on stdout: give --results PATH"],
    ["an encoding portin does not know", ["plan", "SHEET", "--encoding", "klingon"], '--encoding "klingon" is not an encoding portin knows'],
    ["an empty --sheet", ["plan", "SHEET", "--sheet", ""], '--sheet needs a worksheet\'s name, not ""'],
    ["a template --type outside 1 to 7", ["template", "--type", "8"], "--type takes"],
    ["a template with both --type and --trunk", ["template", "--type", "4", "--trunk"], "mutually exclusive"],
  ])("%s", async (_what, args, message) => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "a.csv", SHEET);
    const run = await runCli(args.map((arg) => (arg === "SHEET" ? sheet : arg)), { cwd: dir });
    expect([run.code, run.stdout]).toEqual([2, ""]);
    const [line, ...rest] = run.stderr.trim().split("\n");
    expect(line).toContain(message);
    expect(rest).toEqual(["Run 'portin --help' for usage."]);
  });
});

describe("an unknown option", () => {
  it("names the nearest option of the command after a typo, and nothing after a word that is no option's", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", SHEET);
    const typo = await runCli(["submit", sheet, "--retry-unknwon"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("portin: Unknown argument: retry-unknwon (did you mean --retry-unknown?)\nRun 'portin --help' for usage.\n");
    const status = await runCli(["status", sheet, "--outptu", "x.csv", "--zzzzzz"]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain("portin: Unknown arguments: outptu (did you mean --output?), zzzzzz\n");
  });
});
