/**
 * The account's order list grows with the account (docs/contract.md §5): one of 40,000 orders
 * answers some 10 MiB, past what portin reads of any other answer. It is read as it arrives,
 * so the numbers of its last order are kept from being sent as surely as those of its first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../../src/service/client.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, withoutE911 } from "./harness.js";
import { fixture } from "./fixtures.js";
import { numbers, postedNumbers, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const ORDERS = 40_000;

describe("an account of 40,000 orders", () => {
  it("has its whole order list read, past 8 MiB: the numbers of its last order are skipped, not sent", async () => {
    const dir = await tempDir();
    // The sandbox's own account with 40,000 portal orders: one number each in 647-200-0000 onwards, then the sheet's first five.
    const account = JSON.parse(await readFile(fixture("sandbox-account.json"), "utf8")) as Record<string, unknown>;
    const portal = Array.from({ length: ORDERS - 1 }, (_, i) => ({ numbers: [String(6_472_000_000 + i)] }));
    account.orders = [...portal, { numbers: ["4165552000-2004"], ticket: "PI-LAST" }];
    const accountFile = join(dir, "account.json");
    await writeFile(accountFile, JSON.stringify(account));
    const s = await startSandbox({ accountFile, startDate: "2026-03-02", rejectRate: 0, seed: 40 });
    cleanups.push(() => s.close());
    const list = await fetch(`${s.url}/v2/NumberPorts/Inbound/Dashboard/PortInInfo`, { headers: { authorization: `Basic ${Buffer.from(`${s.user}:${s.password}`).toString("base64")}` } });
    expect((await list.arrayBuffer()).byteLength).toBeGreaterThan(MAX_ANSWER_BYTES);

    const sheet = await trunkSheetOf(dir, "wave.csv", numbers(10));
    const run = await runCli(["submit", sheet, "--state", join(dir, "wave.state.jsonl"), ...against(s)], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("could not read the account's order list");
    expect(run.stderr).toContain("10 rows: 5 submitted, 5 skipped");
    // Only the five numbers no order holds were sent.
    expect(postedNumbers(s).sort()).toEqual(numbers(5, 2005));
    const rows = await readResults(join(dir, "wave.results.csv"));
    for (const row of rows.slice(0, 5)) {
      expect(row).toMatchObject({ result_status: "skipped", result_ticket: "PI-LAST", result_message: withoutE911("already in open order PI-LAST placed outside this journal; not sent") });
    }
  });
});
