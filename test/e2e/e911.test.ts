/**
 * 9-1-1 addresses with the port (docs/contract.md §2 "9-1-1 addresses", docs/e911.md), end to
 * end against the sandbox: one Verify per distinct address, a refused city's rows invalid with
 * the suggestion, exactly one registration per trunk number across re-runs (a SIGKILL between
 * intent and answer, a 500 after the record was made), none for toll-free numbers, offerings or
 * rows without an address, and a PUT for a changed address.
 */
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";
import { afterEach } from "vitest";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const E911_HEADER = "e911.FirstName,e911.LastName,e911.StreetNumber,e911.StreetName,e911.SuiteNumber,e911.City,e911.ProvinceState,e911.PostalZip";
const KING_ST = "Ada,Lovelace,100,King St W,,Toronto,Ontario,m5x1a9";
const FRONT_ST = "Alan,Turing,12,Front St W,Suite 4,Toronto,ON,M5J 2N1";
const TYPO_CITY = "Grace,Hopper,1,Bay St,,Torontoo,ON,M5J 2N1";
const NO_ADDRESS = ",,,,,,,";

type Row = readonly [number: string, pilot: string, offering: string, address: string];

async function sheetOf(dir: string, name: string, rows: readonly Row[]): Promise<string> {
  const lines = rows.map(([number, pilot, offering, address]) => `${number},${pilot},${offering},${FORM_CELLS},${address}`);
  return writeSheet(dir, name, `number,pilot_number,offering_id,${FORM_HEADER},${E911_HEADER}\n${lines.join("\n")}\n`);
}

/** The 9-1-1 requests the sandbox answered, as "METHOD path". */
function e911Calls(s: RunningSandbox, from = 0): string[] {
  return s
    .served()
    .slice(from)
    .filter((r) => r.path.startsWith("/v2/V911s"))
    .map((r) => `${r.method} ${r.path}`);
}

const count = (calls: readonly string[], call: string): number => calls.filter((c) => c === call).length;

describe("9-1-1 addresses", () => {
  it("plan verifies each distinct address once, makes a refused city's rows invalid with the suggestion, and asks none for toll-free numbers, offerings or rows without one", async () => {
    sandbox = await startSandbox({ rejectRate: 0, e911RefusedCities: { Torontoo: "Toronto" } });
    const dir = await tempDir();
    const sheet = await sheetOf(dir, "plan.csv", [
      ["416-555-3001", "4165550100", "", KING_ST],
      ["416-555-3002", "4165550100", "", KING_ST],
      ["416-555-3003", "4165550100", "", FRONT_ST],
      ["416-555-3004", "4165550100", "", TYPO_CITY],
      ["416-555-3005", "4165550100", "", TYPO_CITY],
      ["416-555-3006", "4165550100", "", NO_ADDRESS],
      ["416-555-3007", "4165550100", "", "Ada,Lovelace,100,King St W,,Toronto,ON,12345"],
      ["888-555-3008", "4165550100", "", KING_ST],
      ["416-555-3009", "", "OFF-GEN-001", KING_ST],
    ]);
    const run = await runCli(["plan", sheet, ...against(sandbox)]);
    expect(run.code, run.stderr).toBe(1);
    expect(e911Calls(sandbox)).toEqual(["POST /v2/V911s/Verify", "POST /v2/V911s/Verify", "POST /v2/V911s/Verify"]);
    const rows = await readResults(join(dir, "plan.plan.csv"));
    expect(rows.map((r) => [r.result_status, r.result_e911])).toEqual([
      ["planned", "verified"],
      ["planned", "verified"],
      ["planned", "verified"],
      ["invalid", "invalid"],
      ["invalid", "invalid"],
      ["planned", ""],
      ["invalid", "invalid"],
      ["planned", ""],
      ["planned", ""],
    ]);
    expect(rows[0]?.result_message).toContain('e911.ProvinceState "Ontario" sent as "ON"');
    expect(rows[3]?.result_message).toContain('9-1-1 address refused by the service: the city Torontoo is not in the 9-1-1 database for ON (it suggests City "Toronto", ProvinceState "ON")');
    expect(rows[5]?.result_message).toContain(NO_E911_ADDRESS);
    expect(rows[6]?.result_message).toContain('e911.PostalZip "12345" is a US ZIP code, but e911.ProvinceState ON is in Canada');
    for (const row of [rows[7], rows[8]]) expect(row?.result_message).not.toContain("9-1-1");
  });

  it("submit registers each trunk number's record once across re-runs: after a 500 once it was made, after a SIGKILL between intent and answer, and a PUT for a changed address", async () => {
    // The log line of an answered request is written just before its answer: a kill there lands between the service's work and the run hearing of it.
    let onE911Post: (() => void) | null = null;
    sandbox = await startSandbox({ rejectRate: 0, e911FailRate: 1, log: (line) => line.startsWith("POST /v2/V911s ") && onE911Post?.() });
    const dir = await tempDir();
    const state = join(dir, "night.state.jsonl");
    const rows: Row[] = [
      ["416-555-3101", "4165550100", "", KING_ST],
      ["416-555-3102", "4165550100", "", KING_ST],
      ["416-555-3103", "4165550100", "", FRONT_ST],
      ["416-555-3104", "4165550100", "", NO_ADDRESS],
      ["888-555-3105", "4165550100", "", KING_ST],
      ["416-555-3106", "", "OFF-GEN-001", KING_ST],
    ];
    const sheet = await sheetOf(dir, "night.csv", rows);
    const options = ["--state", state, ...against(sandbox)];
    const results = join(dir, "night.results.csv");

    // 1. Every registration is made and answered 500: unknown, the port-ins untouched.
    const first = await runCli(["submit", sheet, ...options]);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain("9-1-1 records: 3 unknown");
    expect(first.stderr).toContain("next: 3 9-1-1 records not known to be registered");
    let written = await readResults(results);
    expect(written.map((r) => [r.result_status, r.result_e911])).toEqual([
      ["submitted", "unknown"],
      ["submitted", "unknown"],
      ["submitted", "unknown"],
      ["submitted", ""],
      ["submitted", ""],
      ["submitted", ""],
    ]);
    expect(written[3]?.result_message).toContain(NO_E911_ADDRESS);
    expect(e911Calls(sandbox).filter((c) => !c.includes("Verify"))).toEqual(["POST /v2/V911s", "POST /v2/V911s", "POST /v2/V911s"]);

    // 2. The service answers again: the next run asks, finds each record made, and sends none again.
    sandbox.setE911Faults({ failRate: 0 });
    let mark = sandbox.served().length;
    expect((await runCli(["submit", sheet, ...options])).code).toBe(0);
    written = await readResults(results);
    expect(written.slice(0, 3).map((r) => [r.result_status, r.result_e911])).toEqual(Array(3).fill(["skipped", "registered"]));
    const registrations = e911Calls(sandbox, mark).filter((c) => !c.endsWith("/Verify"));
    expect(registrations.sort()).toEqual(["GET /v2/V911s/4165553101", "GET /v2/V911s/4165553102", "GET /v2/V911s/4165553103"]);

    // 3. A re-run with nothing changed sends nothing at all about 9-1-1.
    mark = sandbox.served().length;
    expect((await runCli(["submit", sheet, ...options])).code).toBe(0);
    expect(e911Calls(sandbox, mark)).toEqual([]);

    // 4. One address changes; the run registering it is killed once the service has made it, before it hears the answer.
    rows[2] = ["416-555-3103", "4165550100", "", "Alan,Turing,12,Front St W,Suite 9,Toronto,ON,M5J 2N1"];
    rows.push(["416-555-3107", "4165550100", "", FRONT_ST]);
    await sheetOf(dir, "night.csv", rows);
    mark = sandbox.served().length;
    const killed = await runCli(["submit", sheet, ...options], { onSpawn: (child) => killOnFirstPost(child) });
    expect(killed.signal).toBe("SIGKILL");
    onE911Post = null;
    const next = await runCli(["submit", sheet, ...options]);
    expect(next.code, next.stderr).toBe(0);
    written = await readResults(results);
    expect(written.map((r) => r.result_e911)).toEqual(["registered", "registered", "registered", "", "", "", "registered"]);
    const calls = e911Calls(sandbox, mark);
    expect(count(calls, "POST /v2/V911s")).toBe(1);
    expect(count(calls, "PUT /v2/V911s/4165553103")).toBe(1);
    expect(count(calls, "GET /v2/V911s/4165553107")).toBe(1);

    // A plan on the same journal says what is registered, verifying nothing again.
    mark = sandbox.served().length;
    expect((await runCli(["plan", sheet, ...options])).code).toBe(0);
    expect((await readResults(join(dir, "night.plan.csv"))).map((r) => r.result_e911)).toEqual(["registered", "registered", "registered", "", "", "", "registered"]);
    expect(e911Calls(sandbox, mark)).toEqual([]);

    // Across every run: one registration per trunk number with an address, none for the others.
    const all = e911Calls(sandbox);
    expect(count(all, "POST /v2/V911s")).toBe(4);
    for (const none of ["4165553104", "8885553105", "4165553106"]) expect(all.some((c) => c.includes(none))).toBe(false);

    function killOnFirstPost(child: ChildProcess): void {
      onE911Post = () => {
        onE911Post = null;
        child.kill("SIGKILL");
      };
    }
  });

  it("status names first, and exits 1 for, a completed number off its trunk and one without 9-1-1; report shows them in red and the coverage per customer", async () => {
    sandbox = await startSandbox({ rejectRate: 0, offTrunk: ["4165553202"] });
    const dir = await tempDir();
    const state = join(dir, "done.state.jsonl");
    const sheet = await sheetOf(dir, "done.csv", [
      ["416-555-3201", "4165550100", "", KING_ST],
      ["416-555-3202", "4165550100", "", FRONT_ST],
      ["416-555-3203", "4165550100", "", NO_ADDRESS],
      ["416-555-3204", "", "OFF-GEN-001", KING_ST],
    ]);
    const options = ["--state", state, ...against(sandbox)];
    expect((await runCli(["submit", sheet, ...options])).code).toBe(0);

    // Before the ports complete nothing is asked of the trunks: the records are registered, the number without an address pending.
    const before = await runCli(["status", sheet, ...options]);
    expect(before.code, before.stderr).toBe(0);
    let report = await readResults(join(dir, "done.status.csv"));
    expect(report.map((r) => [r.status_on_trunk, r.status_e911])).toEqual([["", "registered"], ["", "registered"], ["", "pending"], ["", ""]]);

    sandbox.advanceDays(10);
    const after = await runCli(["status", sheet, ...options]);
    expect(after.code).toBe(1);
    expect(after.stderr.split("\n").slice(0, 3)).toEqual([
      "completed but not safe to use:",
      "  4165553202 completed but is not on trunk 4165550100: it does not ring there",
      "  4165553203 completed without a 9-1-1 record: a 9-1-1 call from it reaches no address",
    ]);
    report = await readResults(join(dir, "done.status.csv"));
    expect(report.map((r) => [r.status, r.status_on_trunk, r.status_e911])).toEqual([
      ["COMPLETED", "yes", "registered"],
      ["COMPLETED", "no", "registered"],
      ["COMPLETED", "yes", "missing"],
      ["COMPLETED", "", ""],
    ]);

    // The report asks no service: it shows what status recorded.
    const page = join(dir, "done.report.html");
    expect((await runCli(["report", sheet, "--state", state, "--output", page])).code).toBe(0);
    const html = await readFile(page, "utf8");
    const section = html.slice(html.indexOf('<section id="e911"'), html.indexOf("</section>", html.indexOf('<section id="e911"')));
    expect(section).toContain('<table class="unsafe">');
    expect(section).toContain("<td>4165553202</td><td>Acme Plumbing</td><td>completed but not on its trunk</td>");
    expect(section).toContain("<td>4165553203</td><td>Acme Plumbing</td><td>completed without a 9-1-1 record</td>");
    expect(section).not.toContain("4165553201");
    expect(section).toContain('<tr><td>Acme Plumbing</td><td class="n">3</td><td class="n">2</td></tr>');
  });

  it("a sheet without any 9-1-1 column: its trunk numbers' results give the advice, and status names a completed one first and exits 1", async () => {
    sandbox = await startSandbox({ rejectRate: 0 });
    const dir = await tempDir();
    const state = join(dir, "bare.state.jsonl");
    const sheet = await writeSheet(dir, "bare.csv", `number,pilot_number,offering_id,${FORM_HEADER}\n416-555-3301,4165550100,,${FORM_CELLS}\n416-555-3302,,OFF-GEN-001,${FORM_CELLS}\n`);
    const options = ["--state", state, ...against(sandbox)];

    // The port-in is sent as before; the trunk number's message keeps its own words first. No result_e911: the sheet gives no address.
    expect((await runCli(["submit", sheet, ...options])).code).toBe(0);
    const results = await readResults(join(dir, "bare.results.csv"));
    expect(results.map((r) => [r.result_status, r.result_message, r.result_e911])).toEqual([
      ["submitted", `Accepted; ${NO_E911_ADDRESS}`, undefined],
      ["submitted", "Accepted", undefined],
    ]);
    expect(e911Calls(sandbox)).toEqual([]);

    const before = await runCli(["status", sheet, ...options]);
    expect(before.code, before.stderr).toBe(0);
    expect((await readResults(join(dir, "bare.status.csv"))).map((r) => [r.status_on_trunk, r.status_e911])).toEqual([["", "pending"], ["", ""]]);

    sandbox.advanceDays(10);
    const after = await runCli(["status", sheet, ...options]);
    expect(after.code).toBe(1);
    expect(after.stderr.split("\n").slice(0, 2)).toEqual(["completed but not safe to use:", "  4165553301 completed without a 9-1-1 record: a 9-1-1 call from it reaches no address"]);
    expect((await readResults(join(dir, "bare.status.csv"))).map((r) => [r.status, r.status_on_trunk, r.status_e911])).toEqual([
      ["COMPLETED", "yes", "missing"],
      ["COMPLETED", "", ""],
    ]);

    // The report counts the trunk number, without a record, and lists it in red.
    const page = join(dir, "bare.report.html");
    expect((await runCli(["report", sheet, "--state", state, "--output", page])).code).toBe(0);
    const html = await readFile(page, "utf8");
    const section = html.slice(html.indexOf('<section id="e911"'), html.indexOf("</section>", html.indexOf('<section id="e911"')));
    expect(section).toContain("<td>4165553301</td><td>Acme Plumbing</td><td>completed without a 9-1-1 record</td>");
    expect(section).toContain('<tr><td>Acme Plumbing</td><td class="n">1</td><td class="n">0</td></tr>');
  });
});
