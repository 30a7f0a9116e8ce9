/**
 * `portin status` against the sandbox (docs/contract.md §6, "The status report"): the built
 * CLI, a sandbox whose calendar the test moves on, and what the report, the summary and the
 * exit code say.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { against, e911Defaults, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";
import { submitInProcess } from "./in-process.js";
import { numbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A Monday: orders of day 0 are answered on day 1 and port on day 3. */
const MONDAY = "2026-03-02";

async function sandboxed(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ startDate: MONDAY, rejectRate: 0, seed: 11, ...options });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** PortInStatus GETs the sandbox answered, by ticket and by number. */
function statusGets(s: RunningSandbox, from = 0): { tickets: string[]; numbers: string[] } {
  const gets = s.served().slice(from).filter((r) => r.method === "GET" && r.path.endsWith("/PortInStatus"));
  const tail = (path: string) => path.split("/").at(-2) ?? "";
  return {
    tickets: gets.filter((r) => r.path.includes("/Tickets/")).map((r) => tail(r.path)),
    numbers: gets.filter((r) => r.path.includes("/Numbers/")).map((r) => tail(r.path)),
  };
}

const STATUS_COLUMNS = ["status", "status_ticket", "status_port_date", "status_reject_reason", "status_reject_summary", "status_reject_details", "status_checked_at", "status_message"];

describe("portin status after a submit", () => {
  it("asks once per ticket, and reports each row's order, ticket and what to do, in the input's columns then the status columns", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const list = numbers(250);
    const sheet = await trunkSheetOf(dir, "acme.csv", list);
    expect((await submitInProcess(s, { input: sheet })).exitCode).toBe(0);
    const tickets = ticketsByNumber(s);
    const before = s.served().length;

    const run = await runCli(["status", sheet, ...against(s)]);
    expect(run.code).toBe(0);
    expect(statusGets(s, before)).toEqual({ tickets: ["PI-000001", "PI-000002", "PI-000003"], numbers: [] });
    expect(run.stderr).toContain("portin status: 250 rows: 250 SUBMITTED");
    expect(run.stderr).toContain("asked about 3 orders with 3 PortInStatus requests");
    expect(run.stderr).toContain("next: 250 rows SUBMITTED: waiting for the losing carrier to confirm a port date: run portin status again tomorrow");

    const text = await readFile(join(dir, "acme.status.csv"), "utf8");
    const header = text.split("\n")[0]!.split(",");
    // A sheet of trunk numbers: each row says whether it is on its trunk and has its 9-1-1 record (docs/contract.md §6).
    expect(header.slice(-10)).toEqual([...STATUS_COLUMNS, "status_on_trunk", "status_e911"]);
    expect(header.slice(0, 3)).toEqual(["number", "pilot_number", "portform.CustomerAccountNumber"]);
    const rows = await readResults(join(dir, "acme.status.csv"));
    expect(rows).toHaveLength(250);
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ status: "SUBMITTED", status_ticket: tickets.get(list[i]!), status_message: "waiting for the losing carrier to confirm a port date", status_on_trunk: "", status_e911: "pending" });
      expect(Date.parse(row.status_checked_at!)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it("changes its report as the sandbox's days pass: CONFIRMED with the port date, then COMPLETED", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(2));
    // Each number given its 9-1-1 address: once completed, it is safe to use, and status exits 0.
    const defaults = ["--defaults", await e911Defaults(dir)];
    expect((await runCli(["submit", sheet, ...defaults, ...against(s)])).code).toBe(0);

    s.advanceDays(1);
    const confirmed = await runCli(["status", sheet, ...defaults, ...against(s)]);
    expect(confirmed.code).toBe(0);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => [r.status, r.status_port_date, r.status_message])).toEqual([
      ["CONFIRMED", "2026-03-05", "the losing carrier confirmed the port for 2026-03-05"],
      ["CONFIRMED", "2026-03-05", "the losing carrier confirmed the port for 2026-03-05"],
    ]);

    s.advanceDays(2);
    const completed = await runCli(["status", sheet, "--json", ...defaults, ...against(s)]);
    expect(completed.code).toBe(0);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => [r.status, r.status_on_trunk, r.status_e911])).toEqual([
      ["COMPLETED", "yes", "registered"],
      ["COMPLETED", "yes", "registered"],
    ]);
    expect(JSON.parse(completed.stdout)).toMatchObject({
      command: "status",
      counts: { COMPLETED: 2 },
      next: [{ status: "COMPLETED", state: "completed", rows: 2, advice: "2 rows COMPLETED: ported; nothing to do" }],
      orders: 1,
      requests: 1,
      output: join(dir, "acme.status.csv"),
      sandbox: false,
      exitCode: 0,
    });
  });

  it("exits 1 for an order the carrier rejected, showing its reason, summary, and the reject code and field", async () => {
    const s = await sandboxed({ rejectRate: 1 });
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(3));
    await submitInProcess(s, { input: sheet });
    s.advanceDays(1);

    const run = await runCli(["status", sheet, ...against(s)]);
    expect(run.code).toBe(1);
    const rows = await readResults(join(dir, "acme.status.csv"));
    for (const row of rows) {
      expect(row).toMatchObject({ status: "REJECTED", status_ticket: "PI-000001", status_port_date: "" });
      expect(row.status_reject_reason).toMatch(/does not match/);
      expect(row.status_reject_summary).toMatch(/^Rejected by the losing carrier \(Bell Canada\) on 2026-03-03: correct /);
      expect(row.status_reject_details).toMatch(/^(6P NAME|1P AN|8C SANO|8E ZIP): [A-Z ]+$/);
      expect(row.status_message).toBe(
        `ticket PI-000001 ended as REJECTED without porting: ${row.status_reject_reason}; ` +
          "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)",
      );
    }
    expect(run.stderr).toContain("next: 3 rows REJECTED: the order ended without porting");
  });

  it("says why a row has no order: invalid, rejected at submission, not sent yet; and exits 0 while every order is open", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const [good] = numbers(1);
    const lines = [`${good},4165550100,${FORM_CELLS}`, `416-555-012,4165550100,${FORM_CELLS}`, `4165550199,4165550100,${FORM_CELLS}`];
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`);
    await submitInProcess(s, { input: sheet });
    // A row added after the submit.
    await writeFile(sheet, `number,pilot_number,${FORM_HEADER}\n${[...lines, `4165552999,4165550100,${FORM_CELLS}`].join("\n")}\n`);

    const run = await runCli(["status", sheet, ...against(s)]);
    expect(run.code).toBe(0);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => [r.status, r.status_message])).toEqual([
      ["SUBMITTED", "waiting for the losing carrier to confirm a port date"],
      ["not-submitted", 'never submitted: the row is invalid: "416-555-012" is not a valid NANP number (9 digits)'],
      [
        "not-submitted",
        "never submitted: the service rejected it (4165550199 is not portable: the losing carrier reports it as a wireless number); remove the row, or port this number another way",
      ],
      ["not-submitted", "not submitted yet: portin submit sends it"],
    ]);
  });

  it("reads range rows as the submit that sent them did, with --expand-ranges: a report row per number, each with its ticket", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER}\n416-555-2100 - 2102,4165550100,${FORM_CELLS}\n`);
    expect((await submitInProcess(s, { input: sheet, expandRanges: true })).exitCode).toBe(0);

    const run = await runCli(["status", sheet, "--expand-ranges", ...against(s)]);
    expect(run.code).toBe(0);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => [r.number, r.status, r.status_ticket])).toEqual([
      ["4165552100", "SUBMITTED", "PI-000001"],
      ["4165552101", "SUBMITTED", "PI-000001"],
      ["4165552102", "SUBMITTED", "PI-000001"],
    ]);
  });

  it("on the built-in sandbox writes .sandbox.status.csv beside the sheet, so a real report is never overwritten", async () => {
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(2));
    const run = await runCli(["status", sheet]);
    expect(run.code, run.stderr).toBe(0);
    expect((await readResults(join(dir, "acme.sandbox.status.csv"))).map((r) => [r.status, r.status_message])).toEqual([
      ["not-submitted", "no journal to read: give --state, the journal portin submit wrote for this sheet"],
      ["not-submitted", "no journal to read: give --state, the journal portin submit wrote for this sheet"],
    ]);
    await expect(readFile(join(dir, "acme.status.csv"))).rejects.toThrow(/ENOENT/);
  });

  it("without a journal reports every row not submitted, and names the journal it looked for", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(1));
    const run = await runCli(["status", sheet, ...against(s)]);
    expect(run.code).toBe(0);
    const [row] = await readResults(join(dir, "acme.status.csv"));
    expect(row).toMatchObject({ status: "not-submitted", status_message: `not submitted: there is no journal at ${join(dir, "acme.state.jsonl")} yet; portin submit writes it` });
    expect(statusGets(s)).toEqual({ tickets: [], numbers: [] });
  });

  it("asks by number about numbers an earlier run left unsure, once per request, and records what it found for submit", async () => {
    const s = await sandboxed({ failRate: 1, seed: 1 });
    const dir = await tempDir();
    const list = numbers(6);
    const sheet = await trunkSheetOf(dir, "acme.csv", list);
    // Seed 1 hides an acceptance behind some of six 500s.
    expect((await runCli(["submit", sheet, "--max-per-request", "2", "--concurrency", "1", ...against(s)])).code).toBe(1);
    s.setFaults({ failRate: 0, throttleRate: 0 });
    const accepted = ticketsByNumber(s);
    expect(accepted.size).toBeGreaterThan(0);
    expect(accepted.size).toBeLessThan(6);
    const before = s.served().length;

    const run = await runCli(["status", sheet, ...against(s)]);
    expect(run.code).toBe(1);
    const asked = statusGets(s, before);
    expect(asked.tickets).toEqual([]);
    // Three requests of two: one question each, plus one per number of a request the service lacks.
    const lacking = list.filter((n) => !accepted.has(n));
    expect(asked.numbers).toHaveLength(3 + lacking.length / 2);
    const rows = await readResults(join(dir, "acme.status.csv"));
    for (const [i, row] of rows.entries()) {
      const ticket = accepted.get(list[i]!);
      if (ticket) expect(row).toMatchObject({ status: "SUBMITTED", status_ticket: ticket, status_message: "waiting for the losing carrier to confirm a port date (an earlier run had not learned that the service accepted it)" });
      else expect(row).toMatchObject({ status: "not-found", status_message: "an earlier run sent this number without learning the outcome, and the service has no port-in for it: portin submit --retry-unknown sends it again" });
    }

    // The journal now holds what status found: submit skips those numbers without asking.
    const afterStatus = s.served().length;
    const submit = await runCli(["submit", sheet, ...against(s)]);
    expect(statusGets(s, afterStatus).numbers.sort()).toEqual([...lacking].sort());
    const results = await readResults(join(dir, "acme.results.csv"));
    for (const row of results) if (accepted.has(row.result_number!)) expect(row.result_status).toBe("skipped");
    expect(submit.code).toBe(1);
  });

  it("writes the report to standard output with --output -, and refuses --json beside it", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(2));
    await submitInProcess(s, { input: sheet });
    const run = await runCli(["status", sheet, "--output", "-", ...against(s)]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]!.endsWith(",status,status_ticket,status_port_date,status_reject_reason,status_reject_summary,status_reject_details,status_checked_at,status_message,status_on_trunk,status_e911")).toBe(true);
    expect(run.stdout.trim().split("\n")).toHaveLength(3);
    const both = await runCli(["status", sheet, "--output", "-", "--json", ...against(s)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--json and the report on standard output would mix on stdout: give --output PATH");
  });

  it("stops with exit 2 when the service refuses the credentials", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(1));
    await submitInProcess(s, { input: sheet });
    const run = await runCli(["status", sheet, "--base-url", s.url, "--user", s.user, "--password", "wrong-password"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refused user 'sandbox' (401)");
    expect(run.stderr + run.stdout).not.toContain("wrong-password");
  });
});
