/**
 * Two operators start the same sheet at the same moment from two folders: two file journals,
 * one account, one sandbox (docs/contract.md §5, "A pending-port-in answer"). Nothing on one
 * machine's file journals stops both from sending a number: each reads the account's order list
 * before the other's orders are on it. What must hold is that the service accepts no number
 * twice, and that each run says honestly what it sent and what the service refused: a row says
 * it was sent (submitted, or sent and refused) exactly as often as the sandbox received its
 * number, and the summary counts the POSTs the sandbox received.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { PassThrough } from "node:stream";
import { connect, submit } from "../../src/api.js";
import { readResults, tempDir } from "../e2e/harness.js";
import type { ResultRow } from "../e2e/harness.js";
import { acceptedCounts, numbers, postedNumbers, trunkSheetOf } from "../e2e/ledger.js";

const TRIALS = 20;
const ROWS = 24;
/** Trials run at once: two runs each, on a 2-core machine shared with the rest of the suite. */
const AT_ONCE = 4;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 35 });
});
afterAll(async () => {
  await sandbox.close();
});

interface RunSaid {
  readonly requests: number;
  readonly rows: readonly ResultRow[];
  /** The numbers its journal records as held by an order that refused its request. */
  readonly refusedInJournal: ReadonlySet<string>;
}

/**
 * One operator's run in a folder of its own: the sheet, its journal beside it, its results.
 * Through the library's `submit` (src/api.ts), which is the command's own engine, journal and
 * results, with a connection of its own: forty starts of node would cost the suite some 15 s of
 * CPU; the spawned command's words are held by test/e2e/refused-held.test.ts.
 */
async function operator(list: readonly string[], maxPerRequest: number | undefined): Promise<RunSaid> {
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "wave.csv", list);
  const state = join(dir, "wave.state.jsonl");
  const client = await connect({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password }, { stderr: new PassThrough().resume() });
  let stderr = "";
  const said = new PassThrough().setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const run = await submit({ input: sheet, state, ...(maxPerRequest === undefined ? {} : { maxPerRequest }) }, client, { stderr: said }).finally(() => client.close());
  if (run.exitCode !== 0) throw new Error(`a run exited ${run.exitCode}: ${stderr}`);
  const records = (await readFile(state, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { type: string; number?: string; refused?: boolean });
  return {
    requests: run.report.summary.requests,
    rows: await readResults(join(dir, "wave.results.csv")),
    refusedInJournal: new Set(records.flatMap((r) => (r.type === "confirmed" && r.refused === true ? [r.number as string] : []))),
  };
}

/** Whether a row says its number left in a request of this run. */
function saysSent(row: ResultRow): boolean {
  return row.result_status === "submitted" || row.result_message!.startsWith("sent, and refused by the service:");
}

describe("drill: two operators start one sheet together from two folders, each with a file journal", () => {
  it(`accepts no number twice, and each run says what it sent and what was refused, in ${TRIALS} trials of ${ROWS} rows`, async () => {
    const postsPerNumber = new Map<number, number>();
    const trial = async (t: number): Promise<void> => {
      const list = numbers(ROWS, 2000 + t * ROWS);
      // Half the trials one number a request (a refusal per number), half the default (one request each).
      const maxPerRequest = t % 2 === 0 ? 1 : undefined;
      const from = sandbox.received().length;
      const runs = await Promise.all([operator(list, maxPerRequest), operator(list, maxPerRequest)]);
      const mine = new Set(list);
      const posted = postedNumbers(sandbox, from).filter((number) => mine.has(number));
      const accepted = acceptedCounts(sandbox);
      for (const number of list) {
        // Exactly one order holds each number; whichever run placed it, the other says it is held.
        expect(accepted.get(number), number).toBe(1);
        const rows = runs.map((run) => run.rows.find((row) => row.result_number === number) as ResultRow);
        const sentBy = rows.filter(saysSent).length;
        expect(posted.filter((n) => n === number).length, `${number}: POSTs received against rows saying sent`).toBe(sentBy);
        postsPerNumber.set(sentBy, (postsPerNumber.get(sentBy) ?? 0) + 1);
        for (const [k, row] of rows.entries()) {
          expect(row.result_status, `${number} in run ${k}: ${row.result_message!}`).toMatch(/^(submitted|skipped)$/);
          // Refused rows are the journal's refused confirmations, and no others.
          expect(runs[k]!.refusedInJournal.has(number), `${number} in run ${k}: ${row.result_message!}`).toBe(row.result_status === "skipped" && saysSent(row));
          if (!saysSent(row)) expect(row.result_message).toMatch(/^already in open order PI-\d+ placed outside this journal; not sent$/);
        }
        // Both name the one order that holds it.
        expect(new Set(rows.map((row) => row.result_ticket)).size, number).toBe(1);
      }
      // Each summary counts its own POSTs; together, every POST the sandbox received for the sheet.
      expect(runs[0].requests + runs[1].requests).toBe(postsOfTrial(from, mine));
    };
    const queue = Array.from({ length: TRIALS }, (_, t) => t);
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let t = queue.shift(); t !== undefined; t = queue.shift()) await trial(t);
      }),
    );
    const counts = [...postsPerNumber].sort(([a], [b]) => a - b).map(([posts, n]) => `${n} numbers POSTed ${posts}x`);
    console.info(`drill: POSTs per number over ${TRIALS} trials of ${ROWS} rows: ${counts.join(", ")}`);
    expect([...postsPerNumber.values()].reduce((a, b) => a + b, 0)).toBe(TRIALS * ROWS);
  });
});

/** POSTs received since `from` carrying any of the trial's numbers. */
function postsOfTrial(from: number, mine: ReadonlySet<string>): number {
  return sandbox
    .received()
    .slice(from)
    .filter((post) => {
      const form = (post.body as { PortForm?: { NumbersToPort?: unknown } } | undefined)?.PortForm;
      return Array.isArray(form?.NumbersToPort) && form.NumbersToPort.some((n) => mine.has(String(n)));
    }).length;
}
