/**
 * What `portin status` says changed since the last check (docs/contract.md §6), computed from
 * the journal's status history: the built CLI against a sandbox whose calendar moves on.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, runCli, tempDir, writeSheet } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("portin status: what changed since the last check", () => {
  it("prints, before its table, the numbers newly CONFIRMED with their port dates, then newly COMPLETED; --json carries them as changes", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 11 });
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const list = numbers(3);
    const sheet = await trunkSheetOf(dir, "acme.csv", list);
    const state = `${dir}/acme.state.jsonl`;
    expect((await runCli(["submit", sheet, "--state", state, ...against(s)])).code).toBe(0);

    const first = await runCli(["status", sheet, "--state", state, ...against(s)]);
    expect(first.stderr).not.toContain("changes");
    expect(first.stderr).toContain("portin status: 3 rows: 3 SUBMITTED");

    s.advanceDays(1);
    const second = await runCli(["status", sheet, "--state", state, "--json", ...against(s)]);
    expect(second.code).toBe(0);
    const lines = second.stderr.split("\n");
    const at = lines.findIndex((line) => line.startsWith("portin status: changes since the last check ("));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe(`  3 newly CONFIRMED: ${list.map((n) => `${n} for 2026-03-05`).join(", ")}`);
    expect(lines[at + 2]).toMatch(/^portin status: 3 rows: 3 CONFIRMED/);
    const json = JSON.parse(second.stdout) as { changes: { confirmed: unknown[]; completed: unknown[]; rejected: unknown[]; silent: unknown[]; previousCheck: string } };
    expect(json.changes.confirmed).toEqual(list.map((number) => ({ number, ticket: "PI-000001", portDate: "2026-03-05", reason: "" })));
    expect(json.changes).toMatchObject({ completed: [], rejected: [], silent: [] });
    expect(Date.parse(json.changes.previousCheck)).toBeGreaterThan(0);

    s.advanceDays(2);
    const third = await runCli(["status", sheet, "--state", state, "--json", ...against(s)]);
    expect(third.stderr).toContain(`  3 newly COMPLETED: ${list.join(", ")}`);
    expect((JSON.parse(third.stdout) as { changes: { completed: { number: string }[] } }).changes.completed.map((c) => c.number)).toEqual(list);
  });

  it("names ten newly REJECTED numbers in all, as the other lines do, and counts the numbers and orders past them", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 1, seed: 11 });
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const list = numbers(30);
    // Fifteen orders of two numbers: group labels never share a request.
    const rows = list.map((n, i) => `g${Math.floor(i / 2)},${n},4165550100,${FORM_CELLS}`);
    const sheet = await writeSheet(dir, "drill.csv", `group,number,pilot_number,${FORM_HEADER}\n${rows.join("\n")}\n`);
    const state = `${dir}/drill.state.jsonl`;
    expect((await runCli(["submit", sheet, "--state", state, ...against(s)])).stderr).toContain("30 submitted");
    await runCli(["status", sheet, "--state", state, ...against(s)]);
    s.advanceDays(1);
    const run = await runCli(["status", sheet, "--state", state, ...against(s)]);
    const line = run.stderr.split("\n").find((l) => l.startsWith("  30 newly REJECTED: "));
    expect(line?.match(/\b416555\d{4}\b/g)).toHaveLength(10);
    expect(line).toMatch(/; and 20 more numbers in 10 more orders$/);
  });
});
