/**
 * Drill: two operators start `submit` together, each from a folder of their own holding the same
 * sheet, sharing one PostgreSQL journal (docs/shared-journal.md). Whatever the timing, no number
 * is POSTed twice: one run sends, the other is refused while the first holds the journal, or
 * starts after it and finds every number already sent.
 *
 * The sandbox runs in this process, a real HTTP server on loopback: only it shows the bodies of
 * every POST it received, refused ones included, which is what "POSTed twice" is counted from.
 * Most trials run the two operators through the library entry (src/api.ts), each run on a
 * database connection of its own, as two machines would be: the lock and the claims are the
 * server's, per connection, not the process's. Two trials spawn the built CLI twice, as people do.
 */
import { mkdir } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connect, PortinError, submit } from "../../src/api.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "../e2e/harness.js";
import { numbers, postedNumbers, trunkSheetOf } from "../e2e/ledger.js";
import { freshDatabase } from "../support/postgres.js";

const TRIALS = 20;
/** Trials run at once: each spawns two CLIs, and the machine has two cores. */
const AT_ONCE = 10;
/** Trials whose two runs are the spawned CLI. */
const SPAWNED = 2;
const ROWS = 40;

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

/** How one operator's run ended: its exit code, and what it said on stderr. */
interface Run {
  readonly code: number | null;
  readonly stderr: string;
}

/** `portin submit` through the library: a refusal (exit 2) is a PortinError there, which the command prints as one line. */
async function submitWithLibrary(sandbox: RunningSandbox, input: string, journal: string, maxPerRequest: number | undefined): Promise<Run> {
  const stderr = new PassThrough().resume();
  const client = await connect({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password }, { stderr });
  try {
    const outcome = await submit({ input, journal, ...(maxPerRequest === undefined ? {} : { maxPerRequest }) }, client, { stderr });
    return { code: outcome.exitCode, stderr: "" };
  } catch (error) {
    if (error instanceof PortinError) return { code: error.exitCode, stderr: `portin: ${error.message}\n` };
    throw error;
  } finally {
    await client.close();
  }
}

interface Trial {
  /** How many times each number was POSTed. */
  readonly posts: Map<string, number>;
  readonly runs: readonly Run[];
  /** Rows each run reported submitted. */
  readonly submitted: readonly number[];
}

async function trial(journal: string, index: number): Promise<Trial> {
  const sandbox = await startSandbox({ rejectRate: 0, seed: index + 1, latencyMs: 5 });
  sandboxes.push(sandbox);
  const root = await tempDir();
  const list = numbers(ROWS);
  const folders = [join(root, "alice"), join(root, "bob")];
  await Promise.all(folders.map((folder) => mkdir(folder)));
  const sheets = await Promise.all(folders.map((folder) => trunkSheetOf(folder, "wave.csv", list)));
  // Every other trial one request per number, where the drills found every number POSTed by both runs.
  const perRequest = index % 2 === 0 ? 1 : undefined;
  const runs = await Promise.all(
    sheets.map((sheet, i) =>
      index < SPAWNED
        ? runCli(["submit", sheet, "--journal", journal, ...(perRequest === undefined ? [] : ["--max-per-request", "1"]), ...against(sandbox)], { cwd: folders[i] })
        : submitWithLibrary(sandbox, sheet, journal, perRequest),
    ),
  );
  const posts = new Map<string, number>();
  for (const number of postedNumbers(sandbox)) posts.set(number, (posts.get(number) ?? 0) + 1);
  const submitted = await Promise.all(
    runs.map(async (run, i) => (run.code === 0 ? (await readResults(join(folders[i] as string, "wave.results.csv"))).filter((row) => row.result_status === "submitted").length : 0)),
  );
  return { posts, runs, submitted };
}

describe("drill: two runs started together on one sheet from two folders, one PostgreSQL journal", () => {
  it(`POSTs no number twice in ${TRIALS} trials; one run sends every number, the other is refused or finds them sent`, async () => {
    // One database for every trial: each trial's sandbox is another service (its port), so another journal in it.
    const journal = await freshDatabase();
    const trials: Trial[] = [];
    for (let start = 0; start < TRIALS; start += AT_ONCE) {
      const batch = Array.from({ length: Math.min(AT_ONCE, TRIALS - start) }, (_, i) => trial(journal, start + i));
      trials.push(...(await Promise.all(batch)));
    }

    let refused = 0;
    for (const { posts, runs, submitted } of trials) {
      expect([...posts.values()].filter((count) => count !== 1)).toEqual([]);
      expect(posts.size).toBe(ROWS);
      for (const run of runs) {
        expect([0, 2]).toContain(run.code);
        if (run.code === 2) {
          refused++;
          expect(run.stderr).toMatch(/^portin: another portin run \(pid \d+, started [^)]+\) holds journal postgres:\/\/portin:\*\*\*@127\.0\.0\.1:\d+\/portin_\w+; wait for it to finish/);
        }
      }
      // Every number submitted by exactly one of the two runs.
      expect(submitted.reduce((sum, count) => sum + count, 0)).toBe(ROWS);
    }
    const twice = trials.reduce((sum, { posts }) => sum + [...posts.values()].filter((count) => count > 1).length, 0);
    console.log(
      `drill shared journal: ${TRIALS} trials of 2 runs x ${ROWS} rows on one PostgreSQL journal: ${twice} numbers POSTed twice; ` +
        `${refused} run(s) refused while the other held the journal, ${TRIALS - refused} found every number sent`,
    );
  });
});
