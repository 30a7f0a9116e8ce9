import { createServer, request as httpRequest } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../../src/journal/journal.js";
import { WITHDRAWN } from "../../src/send/dispatch.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, WITHOUT_E911_END, withoutE911 } from "./harness.js";
import type { ResultRow } from "./harness.js";
import { acceptedCounts, numbers, postedNumbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";
import { numbersIn } from "../support/states.js";
import { faultyProxy, through } from "./proxy.js";
import { readJournalAt } from "../../src/journal/open.js";
import { postgresPlace } from "../../src/journal/place.js";
import type { JournalPlace } from "../../src/journal/place.js";
import { freshDatabase, query } from "../support/postgres.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandboxed(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  cleanups.push(() => sandbox.close());
  return sandbox;
}

function byNumber(rows: readonly ResultRow[]): Map<string, ResultRow> {
  return new Map(rows.map((row) => [row.result_number!, row]));
}

function everyOnce(sandbox: RunningSandbox, list: readonly string[]): void {
  const counts = acceptedCounts(sandbox);
  expect(list.filter((n) => counts.get(n) !== 1)).toEqual([]);
  expect(counts.size).toBe(list.length);
}

describe("re-running with the same --state", () => {
  it("skips numbers already submitted with their earlier ticket, never sending them again though the sheet changed around them", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const [a, b, c, d, e, f] = numbers(6) as [string, string, string, string, string, string];

    const first = await runCli(["submit", await trunkSheetOf(dir, "first.csv", [a, b, c, d]), "--state", state, "--max-per-request", "2", ...against(s)]);
    expect(first.code).toBe(0);
    const tickets = ticketsByNumber(s);
    const postsBefore = s.received().length;

    // Rows added and reordered, another request size, and a group label the first run did not have.
    const second = await trunkSheetOf(dir, "second.csv", [f, d, b, e, a, c], "wave-2");
    const run = await runCli(["submit", second, "--state", state, "--max-per-request", "3", ...against(s)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("6 rows: 2 submitted, 4 skipped");

    expect(postedNumbers(s, postsBefore).sort()).toEqual([e, f].sort());
    const rows = byNumber(await readResults(join(dir, "second.results.csv")));
    for (const earlier of [a, b, c, d]) {
      expect(rows.get(earlier)).toMatchObject({
        result_status: "skipped",
        result_ticket: tickets.get(earlier),
        result_message: withoutE911("submitted by an earlier run; not sent again"),
      });
    }
    for (const added of [e, f]) expect(rows.get(added)).toMatchObject({ result_status: "submitted" });
    everyOnce(s, [a, b, c, d, e, f]);
  });

  it("reports numbers answered 500 unknown, skips those PortInStatus shows the service has, and resends only the rest with --retry-unknown", async () => {
    // Seed 1 hides an acceptance behind the 2nd, 4th and 5th of six 500s.
    const s = await sandboxed({ failRate: 1, seed: 1 });
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const list = numbers(6);
    const sheet = await trunkSheetOf(dir, "numbers.csv", list);
    const oneAtATime = ["--state", state, "--max-per-request", "1", "--concurrency", "1", ...against(s)];

    const failing = await runCli(["submit", sheet, ...oneAtATime]);
    expect(failing.code).toBe(1);
    const hidden = ticketsByNumber(s);
    const lacking = list.filter((n) => !hidden.has(n));
    expect(hidden.size).toBeGreaterThan(0);
    expect(lacking.length).toBeGreaterThan(0);

    s.setFaults({ failRate: 0, throttleRate: 0 });
    const postsBefore = s.received().length;
    const confirming = await runCli(["submit", sheet, ...oneAtATime]);
    expect(confirming.code).toBe(1);
    expect(s.received().length).toBe(postsBefore);
    // The check has been made: the advice is what it found, not to run again to have it made.
    expect(confirming.stderr).toContain(`next: ${lacking.length} row${lacking.length === 1 ? "" : "s"} unknown (PortInStatus finds no port-in for them): run again with --retry-unknown to send them`);
    expect(confirming.stderr).not.toContain("each is checked with PortInStatus first");
    const confirmed = byNumber(await readResults(join(dir, "numbers.results.csv")));
    for (const [number, ticket] of hidden) {
      expect(confirmed.get(number)).toMatchObject({
        result_status: "skipped",
        result_ticket: ticket,
        result_message: withoutE911("accepted by an earlier run (confirmed by PortInStatus: SUBMITTED); not sent again"),
      });
    }
    for (const number of lacking) {
      expect(confirmed.get(number)?.result_status).toBe("unknown");
      expect(confirmed.get(number)?.result_message).toMatch(new RegExp(`PortInStatus finds no port-in for it: re-run with --retry-unknown to send it again${WITHOUT_E911_END}`));
    }

    const retrying = await runCli(["submit", sheet, "--retry-unknown", ...oneAtATime]);
    expect(retrying.code).toBe(0);
    expect(postedNumbers(s, postsBefore).sort()).toEqual([...lacking].sort());
    const final = await readResults(join(dir, "numbers.results.csv"));
    expect(final.filter((row) => row.result_status === "submitted").map((row) => row.result_number)).toEqual(lacking);
    expect(final.filter((row) => row.result_status === "skipped")).toHaveLength(hidden.size);
    everyOnce(s, list);
  });

  it("asks PortInStatus on a dry run too, without writing to the journal", async () => {
    const s = await sandboxed({ failRate: 1, seed: 1 });
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(6));
    await runCli(["submit", sheet, "--state", state, "--max-per-request", "1", "--concurrency", "1", ...against(s)]);
    // What the journal says of each number, and its bytes: a dry run appends nothing.
    const journalOf = async (): Promise<unknown> => {
      const prior = await readJournal(state, { service: { kind: "remote", baseUrl: s.url }, user: s.user, version: "" });
      return { states: [...prior.states], lastStatus: [...prior.lastStatus], text: readFileSync(state, "utf8") };
    };
    const journalBefore = await journalOf();

    const plan = await runCli(["plan", sheet, "--state", state, "--retry-unknown", ...against(s)]);
    expect(plan.code).toBe(0);
    const rows = await readResults(join(dir, "numbers.plan.csv"));
    expect(rows.filter((row) => row.result_status === "skipped").map((row) => row.result_number)).toEqual([...ticketsByNumber(s).keys()]);
    expect(rows.filter((row) => row.result_status === "planned")).toHaveLength(6 - ticketsByNumber(s).size);
    expect(await journalOf()).toEqual(journalBefore);
  });

  it("refuses a journal written for another base URL, naming both, and sends nothing", async () => {
    const s = await sandboxed();
    const other = await sandboxed();
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(2));
    expect((await runCli(["submit", sheet, "--state", state, ...against(s)])).code).toBe(0);

    const run = await runCli(["submit", sheet, "--state", state, ...against(other)]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `portin: state file ${state} was written for ${s.url}/ as user 'sandbox', but this run is for ${other.url}/ as user 'sandbox': ` +
        `run against the service the journal was written for (--base-url ${s.url}/ --user sandbox) ` +
        "(a new --state path would start a fresh journal and send every number again)",
    );
    expect(other.received()).toEqual([]);
  });

  it("refuses a journal written for another user, naming both users and never the password", async () => {
    const s = await sandboxed({ password: "Sup3r-s3cret-pw" });
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const header = { type: "header", version: 1, tool: "portin/0.1.0", baseUrl: s.url, user: "migrations", createdAt: "2025-01-01T00:00:00.000Z" };
    await writeFile(state, JSON.stringify(header) + "\n");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(2));

    const run = await runCli(["submit", sheet, "--state", state, ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`state file ${state} was written for ${s.url} as user 'migrations', but this run is for ${s.url}/ as user 'sandbox'`);
    expect(run.stderr).toContain("a new --state path would start a fresh journal and send every number again");
    expect(run.stderr + run.stdout).not.toContain("Sup3r-s3cret-pw");
    expect(s.received()).toEqual([]);
  });

  it("refuses a second run on the same journal while the first is alive, naming its pid", async () => {
    // The first run's POSTs are held until the second has ended: it is alive and holds the lock
    // however long the second takes to start up, with no latency to hope is long enough.
    const s = await sandboxed();
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    proxy.rule = (method) => (method === "POST" ? "hold" : "forward");
    const dir = await tempDir();
    const state = join(dir, "numbers.state.jsonl");
    const sheet = await trunkSheetOf(dir, "numbers.csv", numbers(3));
    let firstPid = 0;
    let second: Promise<Awaited<ReturnType<typeof runCli>>> | undefined;
    const first = runCli(["submit", sheet, "--state", state, "--max-per-request", "1", "--concurrency", "1", "--timeout", "600000", ...through(proxy, s)], {
      onSpawn: (child) => {
        firstPid = child.pid ?? 0;
        const poll = setInterval(() => {
          // The first run holds the lock from before its first POST until it ends.
          if (second === undefined && existsSync(`${state}.lock`)) {
            clearInterval(poll);
            second = runCli(["submit", sheet, "--state", state, "--results", join(dir, "second.results.csv"), ...through(proxy, s)]).finally(() => proxy.release());
          }
        }, 10);
        child.on("exit", () => clearInterval(poll));
      },
    });
    const firstRun = await first;
    expect(second).toBeDefined();
    const secondRun = await second!;
    expect(firstRun.code).toBe(0);
    expect(secondRun.code).toBe(2);
    expect(secondRun.stderr).toContain(`another portin run (pid ${firstPid}`);
    expect(secondRun.stderr).toContain(`holds ${state}; wait for it to finish`);
    expect(secondRun.stderr.trim().split("\n")).toHaveLength(1);
    everyOnce(s, numbers(3));
  });
});

/**
 * A pass-through proxy to the sandbox that, while holding, forwards the first port-in POST but
 * never answers it (accepted, answer lost) and keeps the second without forwarding it (lost
 * on the way): the two ways a request in flight can end when portin is killed.
 */
async function holdingProxy(sandbox: RunningSandbox) {
  const held: ServerResponse[] = [];
  const state = { holding: true, forwarded: [] as string[], kept: [] as string[] };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, answer: boolean) => {
    const upstream = httpRequest(`${sandbox.url}${req.url ?? ""}`, { method: req.method, headers: req.headers }, (reply) => {
      if (!answer) return void reply.resume();
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method !== "POST" || !state.holding) return forward(req, res, body, true);
      const numbers = ((JSON.parse(body.toString("utf8")) as { PortForm: { NumbersToPort: number[] } }).PortForm.NumbersToPort).map(String);
      held.push(res);
      if (state.forwarded.length === 0) {
        state.forwarded.push(...numbers);
        forward(req, res, body, false);
      } else {
        state.kept.push(...numbers);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

/** A journal the test's runs share: its options, where it is for reading it back, and its lines so far. */
interface TestJournal {
  readonly options: readonly string[];
  readonly place: JournalPlace;
  readonly lines: () => Promise<string[]>;
}

/** The same test on each kind of journal (docs/contract.md §5): a file, and a database a team shares. */
const JOURNALS: readonly { readonly kind: string; readonly make: (dir: string) => Promise<TestJournal> }[] = [
  {
    kind: "a file journal",
    make: (dir) => {
      const path = join(dir, "numbers.state.jsonl");
      return Promise.resolve({ options: ["--state", path], place: path, lines: () => Promise.resolve(existsSync(path) ? readFileSync(path, "utf8").split("\n") : []) });
    },
  },
  {
    kind: "a PostgreSQL journal",
    make: async () => {
      const url = await freshDatabase();
      const lines = async () => (await query<{ line: string }>(url, "SELECT line FROM portin_records ORDER BY seq").catch(() => [])).map((row) => row.line);
      return { options: ["--journal", url], place: postgresPlace(url, "--journal"), lines };
    },
  },
];

/** Outcomes of requests whose intent was written ahead and that never left. */
async function withdrawals(journal: TestJournal): Promise<number> {
  return (await journal.lines()).filter((line) => line.endsWith("}") && (JSON.parse(line) as { message?: string }).message === WITHDRAWN).length;
}

describe.each(JOURNALS)("a second SIGINT, on $kind", ({ make }) => {
  it("exits at once; the next run reports what was in flight unknown unless PortInStatus shows the service has it, and --retry-unknown resends the rest", async () => {
    const s = await sandboxed();
    const proxy = await holdingProxy(s);
    const connection = ["--base-url", proxy.url, "--user", s.user, "--password", s.password];
    const dir = await tempDir();
    const journal = await make(dir);
    const list = numbers(4);
    const sheet = await trunkSheetOf(dir, "numbers.csv", list);
    const options = [...journal.options, "--max-per-request", "1", "--concurrency", "2", ...connection];

    const interrupted = await runCli(["submit", sheet, ...options], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (proxy.state.kept.length > 0 && s.accepted().length > 0) {
            clearInterval(poll);
            child.kill("SIGINT");
            // The second once the first has withdrawn the two requests waiting with their intents written (docs/contract.md §4).
            let looking = false;
            const second = setInterval(() => {
              if (looking) return;
              looking = true;
              void withdrawals(journal).then((count) => {
                looking = false;
                if (count < 2 || child.exitCode !== null) return;
                clearInterval(second);
                child.kill("SIGINT");
              });
            }, 10);
            child.on("exit", () => clearInterval(second));
          }
        }, 10);
        child.on("exit", () => clearInterval(poll));
      },
    });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain("portin: SIGINT again: exiting now");
    const [accepted] = proxy.state.forwarded;
    const [lost] = proxy.state.kept;
    expect(s.accepted().flatMap((r) => r.numbers)).toEqual([accepted]);
    // Both requests in flight were left as intents without outcomes.
    const prior = await readJournalAt(journal.place, { service: { kind: "remote", baseUrl: `${proxy.url}/` }, user: s.user, version: "" });
    expect([...numbersIn(prior, "pending").keys()].sort()).toEqual([accepted, lost].sort());

    proxy.state.holding = false;
    const next = await runCli(["submit", sheet, ...options]);
    expect(next.code).toBe(1);
    const rows = byNumber(await readResults(join(dir, "numbers.results.csv")));
    expect(rows.get(accepted!)).toMatchObject({
      result_status: "skipped",
      result_ticket: "PI-000001",
      result_message: withoutE911("accepted by an earlier run (confirmed by PortInStatus: SUBMITTED); not sent again"),
    });
    expect(rows.get(lost!)).toMatchObject({
      result_status: "unknown",
      result_message:
        withoutE911("an earlier run sent this number and stopped before learning the outcome; PortInStatus finds no port-in for it: re-run with --retry-unknown to send it again"),
    });
    const rest = list.filter((n) => n !== accepted && n !== lost);
    for (const number of rest) expect(rows.get(number)?.result_status).toBe("submitted");

    const retry = await runCli(["submit", sheet, "--retry-unknown", ...options]);
    expect(retry.code).toBe(0);
    const final = byNumber(await readResults(join(dir, "numbers.results.csv")));
    expect(final.get(lost!)?.result_status).toBe("submitted");
    expect([...final.values()].filter((row) => row.result_status === "skipped")).toHaveLength(3);
    everyOnce(s, list);
  });
});
