import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/sandbox/prng.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "../e2e/harness.js";
import { acceptedCounts, numbers, trunkSheetOf } from "../e2e/ledger.js";
import { freshDatabase, query } from "../support/postgres.js";

const NUMBERS = 600;
const SEED = 4_242;
/** Runs after the kills before the drill calls it diverged. */
const MAX_RERUNS = 4;

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/**
 * Who a killed run left named as the lock's holder: its pid, "unnamed" when it was killed while
 * naming itself, or null when nobody is named.
 */
type NamedHolder = number | "unnamed" | null;

/** The journal the drill runs on: its options, and who its lock's holder record names. */
interface DrillJournal {
  readonly options: readonly string[];
  readonly holder: () => Promise<NamedHolder>;
}

/** The same drill on each kind of journal (docs/contract.md §5): a file beside the sheet, and a database a team shares. */
const JOURNALS: readonly { readonly kind: string; readonly make: (dir: string) => Promise<DrillJournal> }[] = [
  {
    kind: "a file journal",
    make: (dir) => {
      const state = join(dir, "numbers.state.jsonl");
      return Promise.resolve({
        options: ["--state", state],
        // A kill between the name file's truncation and its owner's line leaves it empty (journal/lock.ts).
        holder: async () => {
          const lock = await readFile(`${state}.lock`, "utf8").catch(() => null);
          if (lock === null) return null;
          return lock.trim() === "" ? "unnamed" : (JSON.parse(lock) as { pid: number }).pid;
        },
      });
    },
  },
  {
    kind: "a PostgreSQL journal",
    make: async () => {
      const url = await freshDatabase();
      return {
        options: ["--journal", url],
        // The holders row a run writes once it holds the advisory lock, deleted as it closes (journal/postgres.ts).
        holder: async () => {
          const rows = await query<{ pid: number }>(url, "SELECT pid FROM portin_holders").catch(() => []);
          return rows[0]?.pid ?? null;
        },
      };
    },
  },
];

/** Where a run is killed: once the sandbox has accepted and is about to answer its k-th POST, or after a delay. */
type KillPoint = { readonly afterPosts: number } | { readonly afterMs: number };

describe.each(JOURNALS)("drill: portin killed with SIGKILL, on $kind", ({ make }) => {
  it(
    "accepts every number exactly once and gives every row a final status after kills at seeded random points",
    async () => {
      const random = mulberry32(SEED);
      const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
      // Delays span start-up (node, lookups, journal) and sending; POST counts stay early so every kill lands.
      const kills: KillPoint[] = [
        { afterPosts: between(1, 15) },
        { afterMs: between(400, 2_000) },
        { afterPosts: between(1, 15) },
        { afterMs: between(400, 2_000) },
        { afterPosts: between(1, 15) },
      ];

      // The answer to the k-th POST is about to be written when the kill lands: accepted, never heard of.
      let onPost: (() => void) | null = null;
      sandbox = await startSandbox({ latencyMs: 20, log: (line) => line.startsWith("POST ") && onPost?.() });
      const dir = await tempDir();
      const journal = await make(dir);
      const list = numbers(NUMBERS);
      const sheet = await trunkSheetOf(dir, "numbers.csv", list);
      const options = [...journal.options, "--max-per-request", "10", "--concurrency", "4", "--retry-unknown", ...against(sandbox)];

      const killedPids: number[] = [];
      let takenOver = 0;
      let postKills = 0;
      for (const kill of kills) {
        const lockBefore = await journal.holder();
        const postsBefore = sandbox.received().length;
        const run = await runCli(["submit", sheet, ...options], { onSpawn: (child) => armKill(child, kill) });
        if (leftByKilled(lockBefore)) takenOver++;
        onPost = null;
        if (run.signal === "SIGKILL" && "afterPosts" in kill) postKills++;
        // A kill may find the run already done, when earlier runs left fewer POSTs than it waits for.
        if (run.signal !== "SIGKILL") {
          expect(run.code).toBe(0);
          if ("afterPosts" in kill) expect(sandbox.received().length - postsBefore).toBeLessThan(kill.afterPosts);
        }
      }

      const codes: (number | null)[] = [];
      do {
        const lockBefore = await journal.holder();
        if (leftByKilled(lockBefore)) takenOver++;
        codes.push((await runCli(["submit", sheet, ...options])).code);
      } while (codes.at(-1) !== 0 && codes.length < MAX_RERUNS);
      expect(codes.at(-1)).toBe(0);
      // Every kill after k POSTs left its lock behind (the journal is opened before the first POST), and the next run took it over.
      expect(postKills).toBeGreaterThan(0);
      expect(takenOver).toBeGreaterThanOrEqual(postKills);

      const counts = acceptedCounts(sandbox);
      expect(list.filter((n) => counts.get(n) !== 1)).toEqual([]);
      expect(counts.size).toBe(NUMBERS);
      const rows = await readResults(join(dir, "numbers.results.csv"));
      expect(rows.map((row) => row.result_number)).toEqual(list);
      expect(rows.filter((row) => row.result_status !== "submitted" && row.result_status !== "skipped")).toEqual([]);
      const once = list.filter((n) => counts.get(n) === 1).length;
      console.log(
        `drill sigkill: ${once}/${NUMBERS} numbers accepted exactly once after ${killedPids.length} kills at seeded points ` +
          `(${kills.map((k) => ("afterPosts" in k ? `after POST ${k.afterPosts}` : `after ${k.afterMs} ms`)).join(", ")}) ` +
          `and ${codes.length} more run(s); ${takenOver} stale lock(s) taken over; ${sandbox.received().length} POSTs, seed ${SEED}`,
      );

      function leftByKilled(holder: NamedHolder): boolean {
        if (holder === null) return false;
        // Harmless: the lock went with the killed process, and the name is the killed run's.
        if (holder === "unnamed") return killedPids.length > 0;
        return killedPids.includes(holder);
      }

      function armKill(child: ChildProcess, kill: KillPoint): void {
        const killNow = () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          killedPids.push(child.pid ?? 0);
          child.kill("SIGKILL");
        };
        if ("afterMs" in kill) {
          const timer = setTimeout(killNow, kill.afterMs);
          child.on("exit", () => clearTimeout(timer));
          return;
        }
        let posts = 0;
        onPost = () => {
          if (++posts === kill.afterPosts) killNow();
        };
      }
    },
    // No bound of its own: vitest.config.ts's generous timeout, as a busy CPU slows every run.
  );
});
