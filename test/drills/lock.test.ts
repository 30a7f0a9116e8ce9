import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { link, readFile, symlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import type { CliRun } from "../e2e/harness.js";
import { CLI, against, readResults, runCli, tempDir } from "../e2e/harness.js";
import { numbers, postedNumbers, trunkSheetOf } from "../e2e/ledger.js";
import { faultyProxy, through } from "../e2e/proxy.js";

const JOURNAL_MODULE = join(dirname(CLI), "journal", "journal.js");

/** Trials of takers (the journal's own lock, then a POST) per kind of lock found at the start: 24 in all. */
const TAKER_TRIALS_EACH = 8;
const TAKERS = 4;
/** Trials of whole `submit` runs, one per kind of lock: slower, so fewer. */
const RUNS = 3;
const NUMBERS = 3;

let sandbox: RunningSandbox;
const bystanders: ChildProcess[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const child of bystanders) child.kill("SIGKILL");
  await sandbox.close();
});

/** What a trial finds beside the journal before its runs start. */
type Before = "no lock" | "a SIGKILLed run's lock" | "a lock naming a live pid of another program";

/** A live process that is not portin and holds no lock: what a pid in an old lock names after a reboot. */
async function anotherProgram(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  bystanders.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid as number;
}

/** The pid of a process that has ended (as a run killed with SIGKILL has). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

async function leaveLock(lockPath: string, before: Before): Promise<void> {
  if (before === "no lock") return;
  const pid = before === "a SIGKILLed run's lock" ? await deadPid() : await anotherProgram();
  await writeFile(lockPath, JSON.stringify({ pid, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" }));
}

/**
 * What a run does between its lock and its last POST, cut to the bone so that many trials stay
 * fast: open the journal (the lock; it refuses while another holds it), and unless an earlier
 * holder recorded the number as submitted, POST to the service and record it. Exit 2 when refused.
 * STALL=before stops it (SIGSTOP) just before it takes the lock, STALL=holding just after.
 */
const TAKER = `
  const { openJournal } = await import(process.env.JOURNAL_MODULE);
  const identity = { service: { kind: "remote", baseUrl: process.env.SERVICE }, user: "drill", version: "0" };
  if (process.env.STALL === "before") process.kill(process.pid, "SIGSTOP");
  const journal = await openJournal(process.env.STATE, identity).catch((error) => {
    process.stderr.write(error.message + "\\n");
    process.exit(2);
  });
  if (process.env.STALL === "holding") process.kill(process.pid, "SIGSTOP");
  if (journal.prior.states.get("4165552000")?.kind !== "submitted") {
    await journal.intent("r-" + process.pid, "dids", ["4165552000"]);
    await fetch(process.env.SERVICE + "v2/NumberPorts/Inbound/DIDs", { method: "POST", body: "{}" });
    await journal.outcome("r-" + process.pid, { status: "submitted", ticket: "PI-" + process.pid });
  }
  await journal.close();
`;

/** Where the stalled taker stops: at its lock, or after a delay from its start (wherever it is then). */
type Stall = "before" | "holding" | number;

function startTaker(state: string, stall: Stall | null): { child: ChildProcess; ended: Promise<number | null>; cancelStop: () => void } {
  const env = { ...process.env, JOURNAL_MODULE: JOURNAL_MODULE, SERVICE: `${sandbox.url}/`, STATE: state, STALL: typeof stall === "string" ? stall : "" };
  const child = spawn(process.execPath, ["--input-type=module", "-e", TAKER], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  // A timed stop not yet made is cancelled before the taker is continued: made after the
  // SIGCONT, it would leave the taker stopped for good.
  const stop = typeof stall === "number" ? setTimeout(() => child.kill("SIGSTOP"), stall) : undefined;
  const cancelStop = (): void => clearTimeout(stop);
  child.once("exit", cancelStop);
  const ended = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      if (code !== 0 && !stderr.includes("another portin run")) throw new Error(`a taker failed: exit ${String(code)}: ${stderr}`);
      resolve(code);
    }),
  );
  return { child, ended, cancelStop };
}

/** Resolves once process `pid` is stopped (state T in /proc) or has ended. */
async function stoppedOrGone(pid: number): Promise<void> {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    // "pid (comm) S …": the state follows the last ')'.
    if (stat === null || stat.slice(stat.lastIndexOf(")") + 2).startsWith("T")) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts RUNS runs of `submit` at once on one journal. One of them is stopped (SIGSTOP) `stallMs`
 * after it starts, wherever it is then (starting up, taking the lock, holding it, sending), and
 * continued only once every other run has ended: a taker stalled at the worst moment.
 */
async function runTogether(dir: string, sheet: string, state: string, stallMs: number): Promise<CliRun[]> {
  const others: Promise<CliRun>[] = [];
  let stalled: ChildProcess | undefined;
  let stop: NodeJS.Timeout | undefined;
  const staller = runCli(["submit", sheet, "--state", state, "--results", join(dir, "run-0.csv"), "--max-per-request", "1", "--quiet", ...against(sandbox)], {
    onSpawn: (child) => {
      stalled = child;
      stop = setTimeout(() => child.kill("SIGSTOP"), stallMs);
    },
  });
  for (let k = 1; k < RUNS; k++) {
    others.push(runCli(["submit", sheet, "--state", state, "--results", join(dir, `run-${k}.csv`), "--max-per-request", "1", "--quiet", ...against(sandbox)]));
  }
  const ended = await Promise.all(others);
  clearTimeout(stop);
  stalled?.kill("SIGCONT");
  return [await staller, ...ended];
}

/** A run sent when its results hold a row it submitted itself. */
async function sent(path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  return (await readResults(path)).some((row) => row.result_status === "submitted");
}

describe("drill: runs started together on one journal", () => {
  it(
    `lets exactly one of ${TAKERS} takers send, in ${3 * TAKER_TRIALS_EACH} trials with one taker stopped (SIGSTOP) at its lock or during start-up`,
    async () => {
      const kinds: Before[] = ["no lock", "a SIGKILLed run's lock", "a lock naming a live pid of another program"];
      const lines: string[] = [];
      for (let trial = 0; trial < 3 * TAKER_TRIALS_EACH; trial++) {
        const before = kinds[trial % kinds.length] as Before;
        // At the lock (just before taking it, or holding it), or at a moment spread over start-up.
        const stall: Stall = (["before", "holding", 10 * trial] as const)[Math.floor(trial / 3) % 3] as Stall;
        const state = join(await tempDir(), "numbers.state.jsonl");
        await leaveLock(`${state}.lock`, before);
        const postsBefore = sandbox.received().length;

        const stalled = startTaker(state, stall);
        const others = Array.from({ length: TAKERS - 1 }, () => startTaker(state, null));
        const codes = await Promise.all(others.map((taker) => taker.ended));
        // A taker that stops itself may not have got there yet: continue it only once it has.
        if (typeof stall === "string") await stoppedOrGone(stalled.child.pid as number);
        stalled.cancelStop();
        stalled.child.kill("SIGCONT");
        codes.unshift(await stalled.ended);
        const senders = sandbox.received().length - postsBefore;
        const where = typeof stall === "number" ? `stopped ${stall} ms after start` : `stopped ${stall === "before" ? "just before taking" : "holding"} the lock`;
        lines.push(`trial ${trial} (${before}, one ${where}): exits ${codes.join(" ")}, ${senders} sent`);

        expect(senders, lines.at(-1)).toBe(1);
        expect(existsSync(`${state}.lock`), lines.at(-1)).toBe(false);
      }
      console.log(`drill lock, takers:\n  ${lines.join("\n  ")}`);
    },
    300_000,
  );

  it(
    `lets exactly one of ${RUNS} whole runs of submit send, with a stalled one, with no lock, a dead run's lock or a reused pid's`,
    async () => {
      const kinds: Before[] = ["no lock", "a SIGKILLed run's lock", "a lock naming a live pid of another program"];
      const lines: string[] = [];
      for (let trial = 0; trial < kinds.length; trial++) {
        const before = kinds[trial] as Before;
        // Spread the stall over start-up, the lock and the first POSTs.
        const stallMs = 150 + 300 * trial;
        const dir = await tempDir();
        const state = join(dir, "numbers.state.jsonl");
        const list = numbers(NUMBERS, 2000 + NUMBERS * trial);
        const sheet = await trunkSheetOf(dir, "numbers.csv", list);
        await leaveLock(`${state}.lock`, before);
        const postsBefore = sandbox.received().length;

        const runs = await runTogether(dir, sheet, state, stallMs);
        const senders = (await Promise.all(runs.map((_, k) => sent(join(dir, `run-${k}.csv`))))).filter(Boolean).length;
        const posted = postedNumbers(sandbox, postsBefore);
        const codes = runs.map((run) => run.code);
        lines.push(`trial ${trial} (${before}, stall at ${stallMs} ms): exits ${codes.join(" ")}, ${senders} sent, ${posted.length} numbers POSTed`);

        expect(senders, lines.at(-1)).toBe(1);
        expect([...posted].sort(), lines.at(-1)).toEqual(list);
        // Each other run was refused by the lock (exit 2, naming it) or ran after the sender and found everything submitted.
        for (const run of runs) {
          expect(run.stderr, lines.at(-1)).not.toMatch(/internal error|delete the lock/);
          if (run.code === 2) expect(run.stderr, lines.at(-1)).toMatch(new RegExp(`another portin run .*holds ${state}; wait`));
          else expect(run.code, lines.at(-1)).toBe(0);
        }
        expect(existsSync(`${state}.lock`), lines.at(-1)).toBe(false);
      }
      console.log(`drill lock, whole runs:\n  ${lines.join("\n  ")}`);
    },
    180_000,
  );
});

/** Trials of two whole runs on one journal, one run naming it by its path and the other by another name, for each kind of name. */
const NAME_TRIALS = 10;

describe("drill: two runs on one journal reached by two names", () => {
  it.each(["symlink", "hard link"] as const)(
    `lets exactly one of two runs of submit send when one reaches the journal by a %s, in ${NAME_TRIALS} trials, and the journal gets one header`,
    async (how) => {
      const lines: string[] = [];
      for (let trial = 0; trial < NAME_TRIALS; trial++) {
        const dir = await tempDir();
        const real = join(dir, "numbers.state.jsonl");
        const other = join(dir, how === "symlink" ? "link.jsonl" : "hard.jsonl");
        // A hard link needs a file; half the symlinks dangle, so that whichever run comes first makes the journal.
        const exists = how === "hard link" || trial % 2 === 1;
        if (exists) await writeFile(real, "");
        await (how === "symlink" ? symlink(real, other) : link(real, other));
        const list = numbers(2, 5000 + 2 * trial + (how === "symlink" ? 0 : 100));
        const sheet = await trunkSheetOf(dir, "numbers.csv", list);
        const postsBefore = sandbox.received().length;

        // The sender's POST is held until the other run has ended, so that it holds the lock
        // however long the other takes to start; a second POST (a second sender) lets both go.
        const proxy = await faultyProxy(sandbox);
        let posts = 0;
        proxy.rule = (method) => {
          if (method !== "POST") return "forward";
          if (++posts > 1) proxy.release();
          return "hold";
        };
        const paths = trial % 2 === 0 ? [real, other] : [other, real];
        const pids: number[] = [];
        const runs = await Promise.all(
          paths.map((state, k) =>
            runCli(["submit", sheet, "--state", state, "--results", join(dir, `run-${k}.csv`), "--quiet", ...through(proxy, sandbox)], {
              // By run, not by the order the spawns happen to report in.
              onSpawn: (child) => (pids[k] = child.pid ?? 0),
            }).finally(() => proxy.release()),
          ),
        );
        await proxy.close();
        const codes = runs.map((run) => run.code);
        const headers = (await readFile(real, "utf8")).split("\n").filter((line) => line.startsWith('{"type":"header"')).length;
        const posted = postedNumbers(sandbox, postsBefore);
        lines.push(`trial ${trial} (${exists ? "journal there" : "no journal yet"}, first named ${paths[0] === real ? "by its path" : `by the ${how}`}): exits ${codes.join(" ")}, ${posted.length} numbers POSTed, ${headers} header(s)`);

        expect([...codes].sort(), lines.at(-1)).toEqual([0, 2]);
        expect([...posted].sort(), lines.at(-1)).toEqual(list);
        expect(headers, lines.at(-1)).toBe(1);
        const refused = codes.indexOf(2);
        const sender = pids[1 - refused] ?? 0;
        // Refused by the lock, naming the sender when the sender's name file is beside the same real path:
        // a symlink leads there, another hard link does not.
        const holder = how === "symlink" ? ` \\(pid ${sender}, started [^)]*\\)` : "";
        const elsewhere = how === "symlink" ? "" : " \\(it may have reached it by another of its 2 names, hard links, and named itself there\\)";
        expect(runs[refused]?.stderr.trim(), lines.at(-1)).toMatch(new RegExp(`^portin: another portin run${holder} holds ${paths[refused] ?? ""}${elsewhere}; wait for it to finish`));
        expect(runs[refused]?.stderr.trim().split("\n"), lines.at(-1)).toHaveLength(1);
        expect(existsSync(`${real}.lock`), lines.at(-1)).toBe(false);
      }
      console.log(`drill lock, two names (${how}):\n  ${lines.join("\n  ")}`);
    },
    120_000,
  );
});
