/**
 * The built-in sandbox remembers a sheet's orders between runs (docs/contract.md §2): a
 * `submit` then a `status` of the same sheet without --base-url report the tickets the
 * submit got, as they would on the service, instead of "not-found".
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { numbers, trunkSheetOf } from "./ledger.js";
import { readResults, runCli, tempDir } from "./harness.js";

describe("the built-in sandbox between runs of one sheet", () => {
  test("submit then status of the same sheet report the tickets the submit got, and say where the orders are kept", async () => {
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(3));
    const kept = join(dir, "acme.sandbox.orders.json");
    const submit = await runCli(["submit", sheet, "--state", join(dir, "acme.state.jsonl")]);
    expect(submit.code, submit.stderr).toBe(0);
    expect(submit.stderr).toContain(`portin: the built-in sandbox keeps its orders in ${kept}; delete it to start the sandbox afresh\n`);
    expect((await stat(kept)).mode & 0o777).toBe(0o600);

    const status = await runCli(["status", sheet, "--state", join(dir, "acme.state.jsonl")]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain("portin status: 3 rows: 3 SUBMITTED");
    expect(status.stderr.match(/keeps its orders in/g)).toHaveLength(1);
    const rows = await readResults(join(dir, "acme.sandbox.status.csv"));
    expect(rows.map((r) => [r["status"], r["status_ticket"]])).toEqual([
      ["SUBMITTED", "PI-000001"],
      ["SUBMITTED", "PI-000001"],
      ["SUBMITTED", "PI-000001"],
    ]);
  });

  test("a sheet on standard input has nowhere to keep them, and says nothing of it", async () => {
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "piped.csv", numbers(1));
    const run = await runCli(["submit", "-"], { stdin: await readFile(sheet, "utf8") });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("keeps its orders");
  });

  test("a damaged orders file stops the run before anything is sent, naming the way out", async () => {
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(1));
    await writeFile(join(dir, "acme.sandbox.orders.json"), "{not json");
    const run = await runCli(["submit", sheet]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the built-in sandbox's orders in ${join(dir, "acme.sandbox.orders.json")} are damaged (not JSON`);
    expect(run.stderr).toContain("delete the file to start the sandbox afresh");
  });
});
