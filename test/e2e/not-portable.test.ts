/**
 * docs/contract.md §6: a number the service (or --check-portability) says is not portable gets
 * advice a person can follow, in its results row and the summary, every run: "remove the row,
 * or port this number another way", never "fix the row and run again". 4165550199 is
 * `unportable` in fixtures/sandbox-account.json (a wireless number).
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, WITHOUT_E911_END } from "./harness.js";
import { postedNumbers, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const WIRELESS = "4165550199";
const ADVICE = "remove the row, or port this number another way";
const NEXT = "not portable to this service, as the service says (see result_message in";

/** The summary's "next:" lines on stderr. */
const nextLines = (stderr: string): string[] => stderr.split("\n").filter((line) => line.startsWith("next: "));

describe("a number that is not portable", () => {
  it("is advised to be removed or ported another way in results, summary and --json, on every run, and by status", async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", ["4165553000", WIRELESS]);
    const journal = join(dir, "acme.state.jsonl");
    const results = join(dir, "acme.results.csv");

    for (const run of [1, 2]) {
      const submit = await runCli(["submit", sheet, "--state", journal, "--json", "--results", results, ...against(s)]);
      expect(submit.code).toBe(1);
      const row = (await readResults(results))[1];
      expect(row?.result_status).toBe("rejected");
      expect(row?.result_message).toMatch(new RegExp(`${WIRELESS} is not portable: the losing carrier reports it as a wireless number; ${ADVICE}${WITHOUT_E911_END}`));
      if (run === 2) expect(row?.result_message).toMatch(/^rejected by an earlier run: /);
      expect(row?.result_message).not.toMatch(/\bfix\b/i);
      expect(nextLines(submit.stderr)).toEqual([`next: 1 row ${NEXT} ${results}): remove those rows, or port these numbers another way; running again will not change them`]);
      const summary = JSON.parse(submit.stdout) as { next: { step: string; status: string; rows: number; advice: string }[] };
      expect(summary.next).toEqual([{ step: "port-another-way", status: "rejected", rows: 1, advice: expect.stringContaining("remove those rows, or port these numbers another way") as unknown }]);
    }
    // Sent once: an unchanged rejected row is not sent again.
    expect(postedNumbers(s).filter((n) => n === WIRELESS)).toHaveLength(1);

    const status = await runCli(["status", sheet, "--state", journal, "--output", join(dir, "acme.status.csv"), ...against(s)]);
    const [, statusRow] = await readResults(join(dir, "acme.status.csv"));
    expect(statusRow?.status_message).toContain(ADVICE);
    expect(statusRow?.status_message).not.toMatch(/\bfix\b/i);
    expect(status.stderr).not.toMatch(/fix the row/i);
  });

  it("found by --check-portability gets the same advice, never a fix", async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const dir = await tempDir();
    // 613-555 is an NPA-NXX the sandbox does not port in.
    const sheet = await trunkSheetOf(dir, "acme.csv", ["6135557002"]);
    const plan = await runCli(["plan", sheet, "--check-portability", ...against(s)]);
    expect(plan.code).toBe(1);
    const [row] = await readResults(join(dir, "acme.plan.csv"));
    expect(row).toMatchObject({ result_status: "invalid", result_message: `NPA-NXX 613-555 is not portable to this service; ${ADVICE}` });
    expect(nextLines(plan.stderr)).toEqual([`next: 1 row ${NEXT} ${join(dir, "acme.plan.csv")}): remove those rows, or port these numbers another way; running again will not change them`]);
  });
});
