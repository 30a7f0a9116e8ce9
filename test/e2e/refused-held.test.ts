/**
 * Two operators, one sheet (docs/contract.md §5, "A pending-port-in answer"): a run whose POSTs
 * the service refuses because another run's orders already hold the numbers says what happened
 * everywhere it speaks: its results, its summary, its journal and a later `status` say the rows
 * were sent, and refused because an open order holds them, with that order's ticket. The run
 * started together with another is drilled in test/drills/race.test.ts; here the other run has
 * finished first, and this one skips the order list (--no-order-check) so that its POSTs go out
 * whatever the timing.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, withoutE911 } from "./harness.js";
import { submitInProcess } from "./in-process.js";
import { numbers, postedNumbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("a run whose numbers another run's orders already hold", () => {
  it("says in its results, summary, journal and later status that it sent them and the service refused them for those orders", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 21 });
    cleanups.push(() => s.close());
    const list = numbers(6);
    const first = await tempDir();
    const second = await tempDir();
    const firstSheet = await trunkSheetOf(first, "wave.csv", list);
    expect((await submitInProcess({ url: s.url, user: s.user, password: s.password }, { input: firstSheet, state: join(first, "wave.state.jsonl") })).exitCode).toBe(0);
    const tickets = ticketsByNumber(s);
    const posts = s.received().length;

    const sheet = await trunkSheetOf(second, "wave.csv", list);
    const state = join(second, "wave.state.jsonl");
    const run = await runCli(["submit", sheet, "--state", state, "--no-order-check", "--max-per-request", "2", "--json", ...against(s)]);
    expect(run.code).toBe(0);
    // Three POSTs of two numbers left, and the service refused each.
    expect(postedNumbers(s, posts).sort()).toEqual(list);
    // None of them accepted a second time: each is in the first run's order alone.
    expect(s.accepted().flatMap((request) => request.numbers).sort()).toEqual(list);
    const summary = JSON.parse(run.stdout) as { requests: number; counts: Record<string, number>; next: { step: string; rows: number }[] };
    expect(summary).toMatchObject({ requests: 3, counts: { skipped: 6, submitted: 0 }, next: [{ step: "refused-held", rows: 6 }] });
    expect(run.stderr).toContain("next: 6 rows sent and refused by the service: an order placed outside this journal already holds each");

    const rows = await readResults(join(second, "wave.results.csv"));
    expect(rows.map((row) => row.result_batch)).toEqual(["1", "1", "2", "2", "3", "3"]);
    for (const row of rows) {
      const ticket = tickets.get(row.result_number!)!;
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: ticket });
      expect(row.result_message).toBe(
        withoutE911(`sent, and refused by the service: open order ${ticket}, placed outside this journal (by another run sending the same numbers, another sheet or the web portal), already holds it; not sent again`),
      );
    }

    // The journal holds each request it sent, the refusal, and the order that holds each number.
    const records = (await readFile(state, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((r) => r.type === "intent").flatMap((r) => r.numbers as string[]).sort()).toEqual(list);
    expect(records.filter((r) => r.type === "outcome").map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    const confirmed = records.filter((r) => r.type === "confirmed");
    expect(new Map(confirmed.map((r) => [r.number, r.ticket]))).toEqual(tickets);
    expect(confirmed.every((r) => r.outside === true && r.refused === true)).toBe(true);

    const status = await runCli(["status", sheet, "--state", state, ...against(s)]);
    expect(status.code).toBe(0);
    for (const row of await readResults(join(second, "wave.status.csv"))) {
      const ticket = tickets.get(row.number!.replace(/\D/g, ""))!;
      expect(row).toMatchObject({ status: "SUBMITTED", status_ticket: ticket });
      expect(row.status_message).toBe(
        `sent by an earlier run and refused by the service: order ${ticket}, placed outside this journal, already held it; waiting for the losing carrier to confirm a port date`,
      );
    }
  });

  it("says so too when PortInStatus does not show the order yet: rejected, sent and refused, to run again later; the next run sends none of them again", async () => {
    // PortInStatus lags the service's orders by a minute: the refusal's order cannot be found at once.
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 22, statusLagSeconds: 60 });
    cleanups.push(() => s.close());
    const list = numbers(3);
    const first = await tempDir();
    const second = await tempDir();
    expect((await submitInProcess({ url: s.url, user: s.user, password: s.password }, { input: await trunkSheetOf(first, "wave.csv", list), state: join(first, "wave.state.jsonl") })).exitCode).toBe(0);
    const tickets = ticketsByNumber(s);

    const sheet = await trunkSheetOf(second, "wave.csv", list);
    const state = join(second, "wave.state.jsonl");
    const run = await runCli(["submit", sheet, "--state", state, "--no-order-check", "--max-per-request", "1", ...against(s)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "next: 3 rows sent and refused by the service because another order already holds each, which PortInStatus does not show yet: run again later: " +
        "the account's order list names that order, and once PortInStatus shows it they are skipped with its ticket",
    );
    for (const row of await readResults(join(second, "wave.results.csv"))) {
      const number = row.result_number!;
      expect(row).toMatchObject({ result_status: "rejected", result_ticket: "" });
      expect(row.result_message).toBe(
        `sent, and refused by the service because another order already holds it (${number} already has a pending port-in (ticket ${tickets.get(number)!})), which PortInStatus does not show yet: ` +
          "run again later: the account's order list names that order, and once PortInStatus shows it the row is skipped with its ticket",
      );
    }

    // The next run reads the account's order list, which shows the orders at once: nothing is sent,
    // and while PortInStatus still lags, each row names the list's order without a ticket (unknown).
    const posts = s.received().length;
    const again = await runCli(["submit", sheet, "--state", state, ...against(s)]);
    expect(again.code).toBe(1);
    expect(s.received()).toHaveLength(posts);
    for (const row of await readResults(join(second, "wave.results.csv"))) {
      expect(row.result_status).toBe("unknown");
      expect(row.result_message).toMatch(/^already in open order \d+ of the account's order list, placed outside this journal \(its ticket is not known yet: PortInStatus does not show it yet\)/);
    }
  });
});
