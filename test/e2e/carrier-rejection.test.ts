/**
 * A rejected order reopens its rows (docs/contract.md §5, "State of each number"): `status`
 * records the carrier's rejection in the journal, and the next `submit` (and `plan`) treats
 * those rows like rows the service rejected at submission: resent, exactly once, when they
 * changed or with --retry-rejected; unchanged, `rejected` with the carrier's reason.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { withoutE911, against, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";
import { submitInProcess } from "./in-process.js";
import { numbers, postedNumbers } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandboxed(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 5, ...options });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** The PortForm column each of the sandbox's reject fields disputes. */
const DISPUTED: Record<string, number> = { NAME: 1, AN: 0, SANO: 2, ZIP: 6 };

/** A customer's PortForm cells, in FORM_HEADER's order. */
function form(name: string): string[] {
  return [`${name.toUpperCase()}-1`, name, "12", "Front St", "Toronto", "ON", "M5J 2N1", "CA", "it@example.ca", "Bell Canada"];
}

/** A sheet of trunk rows: each customer's numbers with its PortForm. */
async function sheetOf(dir: string, customers: readonly { readonly numbers: readonly string[]; readonly form: readonly string[] }[]): Promise<string> {
  const lines = customers.flatMap((c) => c.numbers.map((n) => `${n},4165550100,${c.form.join(",")}`));
  return writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`);
}

describe("an order the carrier rejected", () => {
  it("is recorded by status; submit then resends exactly its numbers, once, after the row is fixed, and plan says the same", async () => {
    const s = await sandboxed({ rejectRate: 1 });
    const dir = await tempDir();
    const [x1, x2, y1, y2] = numbers(4, 4000) as [string, string, string, string];
    const acme = { numbers: [x1, x2], form: form("Acme Plumbing") };
    const bolt = { numbers: [y1, y2], form: form("Bolt Electric") };
    const sheet = await sheetOf(dir, [acme]);
    expect((await submitInProcess(s, { input: sheet })).exitCode).toBe(0);
    s.setRejectRate(0);
    await sheetOf(dir, [acme, bolt]);
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    s.advanceDays(1);

    const status = await runCli(["status", sheet, ...against(s)]);
    expect(status.code).toBe(1);
    const report = await readResults(join(dir, "acme.status.csv"));
    expect(report.map((r) => [r.status, r.status_ticket])).toEqual([
      ["REJECTED", "PI-000001"],
      ["REJECTED", "PI-000001"],
      ["CONFIRMED", "PI-000002"],
      ["CONFIRMED", "PI-000002"],
    ]);
    const reason = report[0]!.status_reject_reason!;
    const field = /^\w+ (\w+):/.exec(report[0]!.status_reject_details!)![1]!;
    const journal = await readFile(join(dir, "acme.state.jsonl"), "utf8");
    expect(journal).toContain(`"type":"ended","ticket":"PI-000001","status":"REJECTED"`);

    // Unchanged: not sent, with the carrier's reason, however often cron runs it.
    let posts = s.received().length;
    for (const command of ["submit", "plan"]) {
      const run = await runCli([command, sheet, ...against(s)]);
      expect(run.code).toBe(1);
      const rows = await readResults(join(dir, command === "plan" ? "acme.plan.csv" : "acme.results.csv"));
      expect(rows.map((r) => r.result_status)).toEqual(["rejected", "rejected", "skipped", "skipped"]);
      expect(rows[0]).toMatchObject({ result_ticket: "PI-000001", result_http_status: "" });
      expect(rows[0]!.result_message).toBe(
        `ticket PI-000001 was rejected: ${reason} (${report[0]!.status_reject_details}); not sent again until the row changes: fix what the carrier disputes, or pass --retry-rejected`,
      );
      expect(run.stderr).toContain("next: 2 rows whose order the losing carrier rejected, unchanged since: fix what it disputes");
    }
    expect(s.received()).toHaveLength(posts);

    // The user fixes what the carrier disputed.
    const fixed = [...acme.form];
    fixed[DISPUTED[field]!] = "Corrected 7";
    await sheetOf(dir, [{ numbers: acme.numbers, form: fixed }, bolt]);
    const plan = await runCli(["plan", sheet, ...against(s)]);
    expect(plan.code).toBe(0);
    expect((await readResults(join(dir, "acme.plan.csv"))).map((r) => [r.result_status, r.result_message])).toEqual([
      ["planned", withoutE911(`resubmitted after ticket PI-000001 was rejected: ${reason}`)],
      ["planned", withoutE911(`resubmitted after ticket PI-000001 was rejected: ${reason}`)],
      ["skipped", withoutE911("submitted by an earlier run; not sent again")],
      ["skipped", withoutE911("submitted by an earlier run; not sent again")],
    ]);
    expect(s.received()).toHaveLength(posts);

    const resubmit = await runCli(["submit", sheet, ...against(s)]);
    expect(resubmit.code).toBe(0);
    expect(postedNumbers(s, posts)).toEqual([x1, x2]);
    const results = await readResults(join(dir, "acme.results.csv"));
    expect(results.map((r) => [r.result_status, r.result_ticket, r.result_message])).toEqual([
      ["submitted", "PI-000003", withoutE911(`resubmitted after ticket PI-000001 was rejected: ${reason}; Accepted`)],
      ["submitted", "PI-000003", withoutE911(`resubmitted after ticket PI-000001 was rejected: ${reason}; Accepted`)],
      ["skipped", "PI-000002", withoutE911("submitted by an earlier run; not sent again")],
      ["skipped", "PI-000002", withoutE911("submitted by an earlier run; not sent again")],
    ]);

    // Exactly once.
    posts = s.received().length;
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    expect(s.received()).toHaveLength(posts);

    s.advanceDays(1);
    const after = await runCli(["status", sheet, ...against(s)]);
    expect(after.code).toBe(0);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => [r.status, r.status_ticket])).toEqual([
      ["CONFIRMED", "PI-000003"],
      ["CONFIRMED", "PI-000003"],
      ["CONFIRMED", "PI-000002"],
      ["CONFIRMED", "PI-000002"],
    ]);
  });

  it("is resent unchanged with --retry-rejected, once, and the carrier rejects it again for the same reason", async () => {
    const s = await sandboxed({ rejectRate: 1 });
    const dir = await tempDir();
    const list = numbers(2, 4100);
    const sheet = await sheetOf(dir, [{ numbers: list, form: form("Acme Plumbing") }]);
    await submitInProcess(s, { input: sheet });
    s.advanceDays(1);
    expect((await runCli(["status", sheet, ...against(s)])).code).toBe(1);
    const reason = (await readResults(join(dir, "acme.status.csv")))[0]!.status_reject_reason;

    const posts = s.received().length;
    expect((await runCli(["submit", sheet, "--retry-rejected", ...against(s)])).code).toBe(0);
    expect(postedNumbers(s, posts)).toEqual(list);
    expect((await runCli(["submit", sheet, "--retry-rejected", ...against(s)])).code).toBe(0);
    expect(postedNumbers(s, posts)).toEqual(list);

    s.advanceDays(1);
    expect((await runCli(["status", sheet, ...against(s)])).code).toBe(1);
    const report = await readResults(join(dir, "acme.status.csv"));
    expect(report.map((r) => [r.status, r.status_ticket, r.status_reject_reason])).toEqual([
      ["REJECTED", "PI-000002", reason],
      ["REJECTED", "PI-000002", reason],
    ]);
  });

  it("is reported from the journal by a later status, without asking again, saying whether the row has changed", async () => {
    const s = await sandboxed({ rejectRate: 1 });
    const dir = await tempDir();
    const list = numbers(1, 4200);
    const sheet = await sheetOf(dir, [{ numbers: list, form: form("Acme Plumbing") }]);
    await submitInProcess(s, { input: sheet });
    s.advanceDays(1);
    await runCli(["status", sheet, ...against(s)]);
    const first = (await readResults(join(dir, "acme.status.csv")))[0]!;
    const before = s.served().length;

    const again = await runCli(["status", sheet, ...against(s)]);
    expect(again.code).toBe(1);
    expect(s.served().slice(before).filter((r) => r.path.endsWith("/PortInStatus"))).toEqual([]);
    const second = (await readResults(join(dir, "acme.status.csv")))[0]!;
    expect(second).toMatchObject({
      status: "REJECTED",
      status_ticket: "PI-000001",
      status_reject_reason: first.status_reject_reason,
      status_reject_summary: first.status_reject_summary,
      status_reject_details: first.status_reject_details,
    });
    expect(second.status_message).toMatch(/; fix what the carrier disputes in the sheet, then portin submit sends it again \(as it is, only with --retry-rejected\)$/);

    await sheetOf(dir, [{ numbers: list, form: form("Acme Plumbing Ltd") }]);
    await runCli(["status", sheet, ...against(s)]);
    expect((await readResults(join(dir, "acme.status.csv")))[0]!.status_message).toMatch(/; the row has changed since: portin submit sends it again$/);
  });
});

describe("a journal written before portin recorded carrier rejections", () => {
  it("still reads: status asks per ticket and records the rejection with the row as it stands; submit then keeps an unchanged row rejected", async () => {
    const s = await sandboxed({ rejectRate: 1 });
    const dir = await tempDir();
    const list = numbers(2, 4300);
    const sheet = await sheetOf(dir, [{ numbers: list, form: form("Acme Plumbing") }]);
    // What the older portin sent, and its journal: intents without fingerprints.
    await runCli(["submit", sheet, "--state", join(dir, "scratch.jsonl"), ...against(s)]);
    const state = join(dir, "acme.state.jsonl");
    const old = [
      { type: "header", version: 1, tool: "portin/0.1.0", baseUrl: `${s.url}/`, user: s.user, createdAt: "2026-03-02T09:00:00.000Z" },
      { type: "run", pid: 1, startedAt: "2026-03-02T09:00:00.000Z" },
      { type: "intent", requestId: "old-1", operation: "dids", numbers: list, at: "2026-03-02T09:00:00.100Z" },
      { type: "outcome", requestId: "old-1", status: "submitted", ticket: "PI-000001", httpStatus: 200, message: "Accepted", at: "2026-03-02T09:00:00.200Z" },
    ];
    await writeFile(state, old.map((r) => JSON.stringify(r)).join("\n") + "\n");
    s.advanceDays(1);

    expect((await runCli(["status", sheet, ...against(s)])).code).toBe(1);
    expect((await readResults(join(dir, "acme.status.csv"))).map((r) => r.status)).toEqual(["REJECTED", "REJECTED"]);
    const posts = s.received().length;
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(1);
    expect(s.received()).toHaveLength(posts);
    expect((await readResults(join(dir, "acme.results.csv"))).map((r) => r.result_status)).toEqual(["rejected", "rejected"]);
  });
});

/**
 * A sandbox whose carrier rejected the one order of a sheet of `count` numbers (one customer),
 * and the journal that placed it since lost.
 */
async function rejectedAndLost(count: number, first: number, customer: string): Promise<{ s: RunningSandbox; dir: string; sheet: string; customer: { numbers: string[]; form: string[] } }> {
  const s = await sandboxed({ rejectRate: 1 });
  const dir = await tempDir();
  const placed = { numbers: numbers(count, first), form: form(customer) };
  const sheet = await sheetOf(dir, [placed]);
  expect((await submitInProcess(s, { input: sheet })).exitCode).toBe(0);
  s.setRejectRate(0);
  s.advanceDays(1);
  await rm(join(dir, "acme.state.jsonl"));
  return { s, dir, sheet, customer: placed };
}

/** The result rows of `file` as [status, ticket] pairs. */
async function statusesIn(file: string, status: string, ticket: string): Promise<string[][]> {
  return (await readResults(file)).map((r) => [r[status] ?? "", r[ticket] ?? ""]);
}

describe("a lost journal rebuilt from the account", () => {
  it("remembers the carrier's rejections: status reports them ended, submit keeps them rejected until the row changes, and sends a changed one once", async () => {
    const { s, dir, sheet, customer } = await rejectedAndLost(3, 4100, "Acme Plumbing");
    const posts = s.received().length;
    const thrice = (status: string): string[][] => [status, status, status].map((word) => [word, "PI-000001"]);

    // status rebuilds the journal from the order list: the order was REJECTED, not never submitted.
    const status = await runCli(["status", sheet, ...against(s)]);
    expect(status.code).toBe(1);
    expect(await statusesIn(join(dir, "acme.status.csv"), "status", "status_ticket")).toEqual(thrice("REJECTED"));
    const said = (await readResults(join(dir, "acme.status.csv")))[0]!.status_message;
    expect(said).toMatch(/^ticket PI-000001 ended as REJECTED without porting: .+; fix what the carrier disputes in the sheet, then portin submit sends it again \(as it is, only with --retry-rejected\); order PI-000001 was placed outside this journal \(web portal, another sheet\)$/);
    expect(await readFile(join(dir, "acme.state.jsonl"), "utf8")).toContain(`"type":"ended","ticket":"PI-000001","status":"REJECTED"`);

    // Unchanged: not sent again, however often cron runs it.
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(1);
    expect(s.received().length).toBe(posts);
    expect(await statusesIn(join(dir, "acme.results.csv"), "result_status", "result_ticket")).toEqual(thrice("rejected"));
    const message = (await readResults(join(dir, "acme.results.csv")))[0]!.result_message;
    expect(message).toMatch(new RegExp(`^ticket PI-000001 was rejected: .+; not sent again until the row changes: fix what the carrier disputes, or pass --retry-rejected$`));

    // One row fixed (another end-user name): it alone is sent, once.
    const [x1, ...rest] = customer.numbers as [string, ...string[]];
    await sheetOf(dir, [{ numbers: [x1], form: form("Acme Plumbing Ltd") }, { numbers: rest, form: customer.form }]);
    for (let run = 0; run < 2; run++) {
      expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(1);
      expect(postedNumbers(s, posts)).toEqual([x1]);
    }
  });

  it("keeps them rejected in a plan, and in a submit without a status first", async () => {
    const { s, dir, sheet } = await rejectedAndLost(2, 4200, "Bolt Electric");
    const posts = s.received().length;
    expect((await runCli(["plan", sheet, ...against(s)])).code).toBe(1);
    expect(await statusesIn(join(dir, "acme.plan.csv"), "result_status", "result_ticket")).toEqual([["rejected", "PI-000001"], ["rejected", "PI-000001"]]);
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(1);
    expect(await statusesIn(join(dir, "acme.results.csv"), "result_status", "result_ticket")).toEqual([["rejected", "PI-000001"], ["rejected", "PI-000001"]]);
    expect(s.received().length).toBe(posts);
  });
});
