/**
 * The journal is a cache of the account, not its truth (docs/contract.md §4, §5): a renamed
 * sheet, a lost journal and an order list that cannot be had never send an ordered number
 * twice, and never call it `rejected`.
 */
import { copyFile, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, WITHOUT_E911_END, withoutE911, writeSheet } from "./harness.js";
import { submitInProcess } from "./in-process.js";
import { numbers, postedNumbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";
import type { FaultyProxy } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const ORDER_LIST = "/v2/NumberPorts/Inbound/Dashboard/PortInInfo";

/** A sandbox behind a proxy, and a sheet of 300 numbers submitted in 3 orders. */
async function submitted(): Promise<{ s: RunningSandbox; proxy: FaultyProxy; sheet: string; dir: string; tickets: Map<string, string> }> {
  const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 7 });
  cleanups.push(() => s.close());
  const proxy = await faultyProxy(s);
  cleanups.push(() => proxy.close());
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "team.csv", numbers(300));
  expect((await submitInProcess({ url: proxy.url, user: s.user, password: s.password }, { input: sheet })).exitCode).toBe(0);
  return { s, proxy, sheet, dir, tickets: ticketsByNumber(s) };
}

/** GETs of the order list and of PortInStatus since `from`. */
function gets(s: RunningSandbox, from: number): { list: number; status: number } {
  const served = s.served().slice(from).filter((r) => r.method === "GET");
  return { list: served.filter((r) => r.path === ORDER_LIST).length, status: served.filter((r) => r.path.endsWith("/PortInStatus")).length };
}

describe("numbers an order on the account already holds", () => {
  it("a renamed copy of the sheet sends nothing: every row skipped with its original ticket, 1 list + 1 PortInStatus per order", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    const copy = join(dir, "team v2 FINAL.csv");
    await copyFile(sheet, copy);
    const posts = s.received().length;
    const served = s.served().length;

    const plan = await runCli(["plan", copy, ...through(proxy, s)]);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("300 rows: 300 skipped");
    const run = await runCli(["submit", copy, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(s.received().length).toBe(posts);
    expect(gets(s, served)).toEqual({ list: 2, status: 6 });
    const rows = await readResults(join(dir, "team v2 FINAL.results.csv"));
    for (const row of rows) {
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: tickets.get(row.result_number!), result_message: withoutE911(`already in open order ${tickets.get(row.result_number!)!} placed outside this journal; not sent`) });
    }

    // Journaled: the next run needs no PortInStatus, and says where the order came from.
    const again = s.served().length;
    expect((await runCli(["submit", copy, ...through(proxy, s)])).code).toBe(0);
    expect(gets(s, again)).toEqual({ list: 1, status: 0 });
    const later = await readResults(join(dir, "team v2 FINAL.results.csv"));
    expect(later[0]!.result_message).toBe(withoutE911(`already in order ${tickets.get(later[0]!.result_number!)!} placed outside this journal (recorded by an earlier run); not sent again`));
  });

  it("a deleted journal sends nothing, and status then follows the original tickets", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    await rm(join(dir, "team.state.jsonl"));
    const posts = s.received().length;
    const run = await runCli(["submit", sheet, ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(s.received().length).toBe(posts);
    const rows = await readResults(join(dir, "team.results.csv"));
    expect(rows.every((row) => row.result_status === "skipped" && row.result_ticket === tickets.get(row.result_number!))).toBe(true);

    const status = await runCli(["status", sheet, ...through(proxy, s)]);
    expect(status.code).toBe(0);
    const report = await readResults(join(dir, "team.status.csv"));
    expect(report.every((row) => row.status === "SUBMITTED" && row.status_ticket === tickets.get(row.number!.replace(/\D/g, "")))).toBe(true);
  });

  it("with the order list unavailable, ends skipped after one pending answer each, never rejected; --retry-rejected then sends nothing", async () => {
    const { s, proxy, dir, sheet, tickets } = await submitted();
    const copy = join(dir, "team-copy.csv");
    await copyFile(sheet, copy);
    proxy.rule = (method, path) => (method === "GET" && path === ORDER_LIST ? "fail" : "forward");
    const posts = s.received().length;

    const run = await runCli(["submit", copy, "--retries", "0", ...through(proxy, s)]);
    expect(run.stderr).toContain("portin: could not read the account's order list (");
    expect(run.code).toBe(0);
    // One POST per request, each answered "already has a pending port-in" for every number.
    expect(postedNumbers(s, posts)).toHaveLength(300);
    const rows = await readResults(join(dir, "team-copy.results.csv"));
    for (const row of rows) {
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: tickets.get(row.result_number!) });
      // Sent, and refused: never "not sent" for a row whose request left.
      expect(row.result_message).toMatch(/^sent, and refused by the service: open order PI-\d+, placed outside this journal \(.*\), already holds it; not sent again; no 9-1-1 address given: register one before the port completes$/);
    }

    const after = s.received().length;
    const retry = await runCli(["submit", copy, "--retry-rejected", "--retries", "0", ...through(proxy, s)]);
    expect(retry.code).toBe(0);
    expect(s.received().length).toBe(after);
    expect((await readResults(join(dir, "team-copy.results.csv"))).every((row) => row.result_status === "skipped")).toBe(true);
  });

  it("--no-order-check reads no list", async () => {
    const { s, proxy, dir, sheet } = await submitted();
    const copy = join(dir, "again.csv");
    await copyFile(sheet, copy);
    const served = s.served().length;
    const run = await runCli(["plan", copy, "--no-order-check", ...through(proxy, s)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("300 rows: 300 planned");
    expect(gets(s, served).list).toBe(0);
  });
});

/** Places an order "in the web portal" of a running sandbox; returns its ticket. */
async function portalOrder(s: RunningSandbox, order: { numbers: string[]; status?: string; ticket?: string; listedAs?: string[] }): Promise<string> {
  const res = await fetch(`${s.url}/_sandbox/orders`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`${s.user}:${s.password}`).toString("base64")}` },
    body: JSON.stringify(order),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { TicketMask: string }).TicketMask;
}

describe("orders placed in the web portal", () => {
  it("are skipped, open or ported, while the sheet's new numbers and a cancelled order's are submitted", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 9 });
    cleanups.push(() => s.close());
    const open = await portalOrder(s, { numbers: ["4165552000-2049"] });
    const ported = await portalOrder(s, { numbers: ["4165552050"], status: "COMPLETED" });
    await portalOrder(s, { numbers: ["4165552051"], status: "CANCELLED" });
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(100));

    const run = await runCli(["submit", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("100 rows: 49 submitted, 51 skipped");
    expect(postedNumbers(s).sort()).toEqual(numbers(49, 2051));
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.slice(0, 50).every((r) => r.result_status === "skipped" && r.result_ticket === open)).toBe(true);
    expect(rows[0]!.result_message).toBe(withoutE911(`already in open order ${open} placed outside this journal; not sent`));
    expect(rows[50]).toMatchObject({ result_status: "skipped", result_ticket: ported, result_message: withoutE911(`already ported in ${ported}; not sent`) });
    expect(rows.slice(51).every((r) => r.result_status === "submitted")).toBe(true);
  });

  it("are read in every writing the order list gives them, and an entry it cannot read still keeps its numbers from being sent", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 9 });
    cleanups.push(() => s.close());
    const tickets = [
      await portalOrder(s, { numbers: ["4165552000-2004"], listedAs: ["4165552000-4165552004"] }),
      await portalOrder(s, { numbers: ["4165552005", "4165552006"], listedAs: ["(416) 555-2005", "+1 416 555 2006"] }),
      await portalOrder(s, { numbers: ["4165552007-2011"], listedAs: ["416-555-2007 to 416-555-2011"] }),
      await portalOrder(s, { numbers: ["4165552012-2019"], listedAs: ["416.555.2012 - 2016", "PORT 416 555 2017, 416 555 2018 and 416 555 2019 (LOA to follow)"] }),
    ];
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(24));

    const run = await runCli(["submit", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("24 rows: 4 submitted, 20 skipped");
    expect(run.stderr).toContain(
      `the account's order list writes 1 entry in no way portin reads (order 50004: "PORT 416 555 2017, 416 555 2018 and 416 555 2019 (LOA to follow)"); a number of the sheet whose digits stand in one is taken as held by that order and not sent`,
    );
    expect(postedNumbers(s).sort()).toEqual(numbers(4, 2020));
    const rows = await readResults(join(dir, "acme.results.csv"));
    const expected = [...Array<string>(5).fill(tickets[0]!), ...Array<string>(2).fill(tickets[1]!), ...Array<string>(5).fill(tickets[2]!), ...Array<string>(8).fill(tickets[3]!)];
    expect(rows.slice(0, 20).map((r) => [r.result_status, r.result_ticket])).toEqual(expected.map((ticket) => ["skipped", ticket]));
  });

  it("status with no journal reports their tickets, and records them in the journal", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 9 });
    cleanups.push(() => s.close());
    const open = await portalOrder(s, { numbers: ["4165552000-2009"] });
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(12));

    const run = await runCli(["status", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(run.code).toBe(0);
    const report = await readResults(join(dir, "acme.status.csv"));
    expect(report.slice(0, 10).every((r) => r.status === "SUBMITTED" && r.status_ticket === open)).toBe(true);
    expect(report.slice(10).map((r) => r.status)).toEqual(["not-submitted", "not-submitted"]);
    // Recorded: a submit then sends only the two numbers no order holds, without asking the list's order again.
    const served = s.served().length;
    expect((await runCli(["submit", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password])).code).toBe(0);
    expect(postedNumbers(s)).toEqual(numbers(2, 2010));
    expect(gets(s, served)).toEqual({ list: 1, status: 0 });
  });
});

describe("an order placed outside whose port date is not the sheet's", () => {
  it("plan and submit name the account's date after the skipped rows' words; a sheet asking for that date gets no note", async () => {
    const s = await startSandbox({ startDate: "2026-11-23", rejectRate: 0, seed: 9 });
    cleanups.push(() => s.close());
    const ticket = await portalOrder(s, { numbers: ["4165552000-2003"], status: "CONFIRMED" });
    const dir = await tempDir();
    /** Six trunk rows asking for `date`: four the portal order holds, two free. */
    const sheetAsking = (name: string, date: string): Promise<string> =>
      writeSheet(dir, name, `number,pilot_number,${FORM_HEADER},portform.RequestedPortDate\n${numbers(6).map((n) => `${n},4165550100,${FORM_CELLS},${date}`).join("\n")}\n`);
    const held = `already in open order ${ticket} placed outside this journal; not sent`;

    const asked = "2026-12-10";
    const later = await sheetAsking("later.csv", asked);
    const plan = await runCli(["plan", later, ...against(s)]);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("6 rows: 2 planned, 4 skipped");
    const planned = await readResults(join(dir, "later.plan.csv"));
    const accountDate = /the account holds (\d{4}-\d{2}-\d{2}),/.exec(planned[0]!.result_message!)?.[1] ?? "";
    expect(accountDate).not.toBe("");
    expect(accountDate).not.toBe(asked);
    const note = `; the account holds ${accountDate}, not the sheet's RequestedPortDate ${asked}: the numbers move on ${accountDate}`;
    expect(planned.slice(0, 4).map((r) => [r.result_status, r.result_ticket, r.result_message])).toEqual(Array.from({ length: 4 }, () => ["skipped", ticket, withoutE911(`${held}${note}`)]));
    expect(planned.slice(4).map((r) => r.result_status)).toEqual(["planned", "planned"]);

    // The sheet asking for the account's own date: the same rows, the same words, nothing more.
    const same = await sheetAsking("same.csv", accountDate);
    const [samePlan, sent] = await Promise.all([runCli(["plan", same, ...against(s)]), runCli(["submit", later, ...against(s)])]);
    expect(samePlan.code).toBe(0);
    expect((await readResults(join(dir, "same.plan.csv"))).slice(0, 4).map((r) => r.result_message)).toEqual(Array.from({ length: 4 }, () => withoutE911(held)));
    // submit says it too.
    expect(sent.code).toBe(0);
    expect(sent.stderr).toContain("6 rows: 2 submitted, 4 skipped");
    expect((await readResults(join(dir, "later.results.csv"))).slice(0, 4).map((r) => r.result_message)).toEqual(Array.from({ length: 4 }, () => withoutE911(`${held}${note}`)));
  });
});

describe("a row edited after it was submitted", () => {
  it("stays skipped, and says that its order holds the old values", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 9 });
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(3));
    const flags = ["--base-url", s.url, "--user", s.user, "--password", s.password];
    expect((await runCli(["submit", sheet, ...flags])).code).toBe(0);
    const text = await readFile(sheet, "utf8");
    await writeFile(sheet, text.replace(/\n(416-555-2001,[^\n]*?)Acme Plumbing/, "\n$1Acme Plumbing Ltd"));
    const posts = s.received().length;

    expect((await runCli(["submit", sheet, ...flags])).code).toBe(0);
    expect(s.received().length).toBe(posts);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.map((r) => [r.result_status, r.result_message])).toEqual([
      ["skipped", withoutE911("submitted by an earlier run; not sent again")],
      ["skipped", withoutE911("row changed since it was submitted in PI-000001; that order holds the old values")],
      ["skipped", withoutE911("submitted by an earlier run; not sent again")],
    ]);
  });
});

describe("a fixed row whose resend was answered 500", () => {
  it("is unknown in submit and in status alike, never news of the order that ended before it", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 1, seed: 9 });
    cleanups.push(() => s.close());
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(2));
    expect((await runCli(["submit", sheet, ...through(proxy, s)])).code).toBe(0);
    s.setRejectRate(0);
    s.advanceDays(1);
    expect((await runCli(["status", sheet, ...through(proxy, s)])).code).toBe(1);
    // The user fixes the row; its resend reaches nothing and is answered 500.
    await writeFile(sheet, (await readFile(sheet, "utf8")).replaceAll("Acme Plumbing", "Acme Plumbing Ltd"));
    proxy.rule = (method, path) => (method === "POST" && path.includes("/NumberPorts/Inbound/") ? "fail" : "forward");
    expect((await runCli(["submit", sheet, "--retries", "0", ...through(proxy, s)])).code).toBe(1);
    proxy.rule = () => "forward";

    const shows = "the service shows only ticket PI-000001, which ended as REJECTED before it was sent again, and no newer port-in";
    const submit = await runCli(["submit", sheet, ...through(proxy, s)]);
    expect(submit.code).toBe(1);
    for (const row of await readResults(join(dir, "acme.results.csv"))) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toContain(`; ${shows}: re-run with --retry-unknown to send it again`);
    }
    const status = await runCli(["status", sheet, ...through(proxy, s)]);
    expect(status.code).toBe(1);
    for (const row of await readResults(join(dir, "acme.status.csv"))) {
      expect(row).toMatchObject({ status: "not-found", status_ticket: "" });
      expect(row.status_message).toBe(`an earlier run sent this number again without learning the outcome; ${shows}: portin submit --retry-unknown sends it again`);
    }
    // status changed nothing submit reads: it still says the same, and --retry-unknown sends the fixed rows once.
    expect((await runCli(["submit", sheet, ...through(proxy, s)])).code).toBe(1);
    const posts = s.received().length;
    expect((await runCli(["submit", sheet, "--retry-unknown", ...through(proxy, s)])).code).toBe(0);
    expect(postedNumbers(s, posts)).toEqual(numbers(2));
  });
});

describe("a PortInStatus that lags behind the order list", () => {
  it("does not let --retry-unknown resend numbers an open order holds, and says what to ask the service while PortInStatus gives no ticket", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 9, statusLagSeconds: 3600 });
    cleanups.push(() => s.close());
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(200));
    proxy.rule = (method, path) => (method === "POST" && path.includes("/NumberPorts/Inbound/") ? "swallow" : "forward");
    expect((await runCli(["submit", sheet, ...through(proxy, s)])).code).toBe(1);
    proxy.rule = () => "forward";
    const posts = s.received().length;

    const run = await runCli(["submit", sheet, "--retry-unknown", ...through(proxy, s)]);
    // Never sent, but not settled either: nothing says the order will port until the service names it.
    expect(run.code).toBe(1);
    expect(s.received().length).toBe(posts);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows).toHaveLength(200);
    for (const row of rows) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toMatch(
        /^accepted by an earlier run: the account's order list shows it in open order (\d+) \(PortInStatus does not show it yet\); not sent again: run again later, and if PortInStatus still gives no ticket, ask the service about order \1; no 9-1-1 address given: register one before the port completes$/,
      );
    }
    expect(run.stderr).toContain(
      "next: 200 rows unknown (an open order of the account's order list holds them, but PortInStatus gives no ticket for it), not sent: run again later; " +
        "if PortInStatus still gives none, ask the service about the order result_message names in",
    );

    // status says the same: which order holds them, not that --retry-unknown would send them.
    const served = s.served().length;
    const status = await runCli(["status", sheet, ...through(proxy, s)]);
    expect(status.code).toBe(1);
    for (const row of await readResults(join(dir, "acme.status.csv"))) {
      expect(row).toMatchObject({ status: "not-found", status_ticket: "" });
      expect(row.status_message).toMatch(/^held by open order (\d+) of the account's order list, and PortInStatus has no port-in for it: ask the service about order \1; portin does not send it while the list holds it$/);
    }
    // The list's orders are not asked about on their own: each number is (PortInStatus shows none
    // of them, so no answer's NumbersToPort covers another), as status asked before it read the list.
    expect(gets(s, served)).toEqual({ list: 1, status: 200 });
  });
});

describe("an open order PortInStatus never confirms", () => {
  it("is never sent, and submit and status both say which order holds it and to ask the service about it, with exit 1", async () => {
    // Placed from another sheet (its own journal); PortInStatus shows none of it for an hour.
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 11, statusLagSeconds: 3600 });
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const placed = await trunkSheetOf(dir, "placed.csv", numbers(5));
    expect((await submitInProcess({ url: s.url, user: s.user, password: s.password }, { input: placed })).exitCode).toBe(0);
    const sheet = join(dir, "acme.csv");
    await copyFile(placed, sheet);
    const posts = s.received().length;

    const run = await runCli(["submit", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(run.code).toBe(1);
    expect(s.received().length).toBe(posts);
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toMatchObject({ result_status: "unknown", result_ticket: "" });
      expect(row.result_message).toMatch(
        /^already in open order (\d+) of the account's order list, placed outside this journal \(its ticket is not known yet: PortInStatus does not show it yet\); not sent: run again later, and if PortInStatus still gives no ticket, ask the service about order \1; no 9-1-1 address given: register one before the port completes$/,
      );
    }
    expect(run.stderr).toContain("next: 5 rows unknown (an open order of the account's order list holds them, but PortInStatus gives no ticket for it), not sent");

    const status = await runCli(["status", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(status.code).toBe(1);
    for (const row of await readResults(join(dir, "acme.status.csv"))) {
      expect(row).toMatchObject({ status: "not-found", status_ticket: "" });
      expect(row.status_message).toMatch(
        /^held by open order \d+ of the account's order list, and PortInStatus has no port-in for it: ask the service about order \d+; portin does not send it while the list holds it$/,
      );
    }
    // Nothing recorded as submitted: the next run asks again, and still sends nothing.
    expect((await runCli(["submit", sheet, "--base-url", s.url, "--user", s.user, "--password", s.password])).code).toBe(1);
    expect(s.received().length).toBe(posts);
  });
});

describe("a service that names one pending number a refusal, with the order list down and the journal lost", () => {
  it("asks PortInStatus after the first pending answer and skips, in the same run, every number the order holds", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 13, orderListDown: true, namesFirstRefusalOnly: true });
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(10));
    expect((await submitInProcess({ url: s.url, user: s.user, password: s.password }, { input: sheet })).exitCode).toBe(0);
    const tickets = ticketsByNumber(s);
    expect(new Set(tickets.values()).size).toBe(1);
    await rm(join(dir, "acme.state.jsonl"));
    const posts = s.received().length;
    const served = s.served().length;

    const run = await runCli(["submit", sheet, "--retries", "0", "--base-url", s.url, "--user", s.user, "--password", s.password]);
    expect(run.stderr).toContain("portin: could not read the account's order list (");
    expect(run.code).toBe(0);
    // One POST, refused for its first number; its PortInStatus names the order holding all ten.
    expect(s.received().length - posts).toBe(1);
    expect(gets(s, served)).toEqual({ list: 1, status: 1 });
    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      // All ten rode in the one POST the service refused: sent, and refused.
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: tickets.get(row.result_number!) });
      expect(row.result_message).toMatch(new RegExp(`^sent, and refused by the service: open order ${tickets.get(row.result_number!)!}, placed outside this journal \\(.*\\), already holds it; not sent again${WITHOUT_E911_END}`));
    }
    // Recorded: the next run sends nothing and asks PortInStatus nothing.
    const again = s.served().length;
    expect((await runCli(["submit", sheet, "--retries", "0", "--base-url", s.url, "--user", s.user, "--password", s.password])).code).toBe(0);
    expect(s.received().length - posts).toBe(1);
    expect(gets(s, again)).toEqual({ list: 1, status: 0 });
  });
});

