import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "../e2e/harness.js";
import { acceptedCounts, numbers, trunkSheetOf } from "../e2e/ledger.js";

const NUMBERS = 2_400;
/** Runs after the first before the drill calls it diverged. */
const MAX_RERUNS = 6;

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("drill: a flaky, throttling service", () => {
  it(
    "accepts every number of a 2,400-row sheet exactly once after re-runs with --retry-unknown, 10% 500s and 20% 429s notwithstanding",
    async () => {
      sandbox = await startSandbox({ failRate: 0.1, throttleRate: 0.2, seed: 20_240_601 });
      const dir = await tempDir();
      const list = numbers(NUMBERS);
      const sheet = await trunkSheetOf(dir, "numbers.csv", list);
      // 48 requests, 16 at a time: each 429 costs a 1 s Retry-After, so few waves keep the drill short.
      const options = ["--state", join(dir, "numbers.state.jsonl"), "--max-per-request", "50", "--concurrency", "16", ...against(sandbox)];

      const codes: (number | null)[] = [(await runCli(["submit", sheet, ...options])).code];
      while (codes.at(-1) !== 0 && codes.length <= MAX_RERUNS) {
        codes.push((await runCli(["submit", sheet, "--retry-unknown", ...options])).code);
      }
      expect(codes.at(-1)).toBe(0);
      expect(codes.slice(0, -1).every((code) => code === 1)).toBe(true);

      const counts = acceptedCounts(sandbox);
      const once = list.filter((n) => counts.get(n) === 1).length;
      expect(list.filter((n) => counts.get(n) !== 1)).toEqual([]);
      expect(counts.size).toBe(NUMBERS);
      const rows = await readResults(join(dir, "numbers.results.csv"));
      expect(rows).toHaveLength(NUMBERS);
      expect(rows.filter((row) => row.result_status !== "submitted" && row.result_status !== "skipped")).toEqual([]);
      // The seed hides acceptances behind some 500s: the re-runs must have found them by PortInStatus, not resent them.
      const confirmed = rows.filter((row) => row.result_message?.includes("confirmed by PortInStatus")).length;
      expect(confirmed).toBeGreaterThan(0);
      const posts = sandbox.received().length;
      console.log(
        `drill faults: ${once}/${NUMBERS} numbers accepted exactly once after ${codes.length} runs (exit codes ${codes.join(", ")}; ` +
          `${posts} POSTs, ${sandbox.accepted().length} accepted, ${confirmed} found by PortInStatus, seed ${sandbox.seed})`,
      );
    },
    // No bound of its own: vitest.config.ts's generous timeout, as a busy CPU slows every run.
  );
});
