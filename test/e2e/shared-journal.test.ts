/**
 * A journal shared in PostgreSQL (docs/shared-journal.md): the built CLI against a sandbox and
 * the suite's real PostgreSQL (test/setup/postgres.ts), each test on a database of its own.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresJournal } from "../../src/journal/postgres.js";
import { postgresPlace } from "../../src/journal/place.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { remoteService } from "../../src/service/service.js";
import { freshDatabase, query } from "../support/postgres.js";
import { against, readResults, runCli, tempDir } from "./harness.js";
import { acceptedCounts, numbers, postedNumbers, trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandboxed(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ rejectRate: 0, seed: 7 });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** What every output of a run may not contain: the database's password. */
function masked(url: string): string {
  return new URL(url).password;
}

describe("--journal postgres://…", () => {
  it("submit records in the database, a re-run sends nothing again, and plan, status and report read it, never printing the password", async () => {
    const s = await sandboxed();
    const url = await freshDatabase();
    const dir = await tempDir();
    const list = numbers(30);
    const sheet = await trunkSheetOf(dir, "wave.csv", list);
    // The URL with its password in the environment, as the docs advise: ps does not show it.
    const env = { PORTIN_JOURNAL: url };

    const first = await runCli(["submit", sheet, "--max-per-request", "7", ...against(s)], { env });
    expect(first.stderr).toContain("30 rows: 30 submitted");
    expect(first.code).toBe(0);
    const again = await runCli(["submit", sheet, ...against(s)], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("30 rows: 30 skipped");
    expect([...acceptedCounts(s).values()].every((count) => count === 1)).toBe(true);
    expect(acceptedCounts(s).size).toBe(30);

    // The same records as a file journal: header, run, intent and outcome lines, verbatim JSON.
    const rows = await query<{ line: string }>(url, "SELECT line FROM portin_records ORDER BY seq");
    const kinds = rows.map((row) => (JSON.parse(row.line) as { type: string }).type);
    expect(kinds[0]).toBe("header");
    expect(kinds.filter((kind) => kind === "intent")).toHaveLength(5);
    expect(kinds.filter((kind) => kind === "outcome")).toHaveLength(5);
    expect(kinds.filter((kind) => kind === "run")).toHaveLength(2);
    // Each number claimed once, by the request that carried it.
    expect((await query(url, "SELECT number FROM portin_claims")).length).toBe(30);
    expect(await query(url, "SELECT version FROM portin_schema")).toEqual([{ version: 1 }]);

    // plan and report only read the journal, status locks it: the three at once, as a team would.
    const [plan, status, report] = await Promise.all([
      runCli(["plan", sheet, "--journal", url, ...against(s)]),
      runCli(["status", sheet, ...against(s)], { env }),
      runCli(["report", sheet, "--output", join(dir, "wave.html")], { env }),
    ]);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("30 rows: 30 skipped");

    expect(status.code).toBe(0);
    expect(status.stderr).toContain("portin status: 30 rows: 30 SUBMITTED");
    const statuses = await readResults(join(dir, "wave.status.csv"));
    expect(new Set(statuses.map((row) => row.status))).toEqual(new Set(["SUBMITTED"]));
    expect((await query(url, "SELECT line FROM portin_records WHERE line LIKE '{\"type\":\"status\"%'")).length).toBeGreaterThan(0);

    expect(report.code).toBe(0);
    expect(report.stderr).toContain("portin report: 30 rows");
    const page = await readFile(join(dir, "wave.html"), "utf8");
    for (const number of list.slice(0, 3)) expect(page).toContain(number.slice(6));

    for (const run of [first, again, plan, status, report]) expect(run.stdout + run.stderr).not.toContain(masked(url));
  });

  it("refuses a second run while one holds the journal, naming it, with exit 2 and nothing sent; a bad URL is refused with its password masked", async () => {
    const s = await sandboxed();
    const url = await freshDatabase();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "wave.csv", numbers(3));
    // The holder names the service another way (docs/contract.md §5, "Identity"): still one journal, one lock.
    const otherSpelling = `${s.url.replace("127.0.0.1", "LOCALHOST")}//`;
    const holder = await openPostgresJournal(postgresPlace(url, "--journal"), { service: remoteService(otherSpelling), user: s.user, version: "test" });
    try {
      const run = await runCli(["submit", sheet, "--journal", url, ...against(s)]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toMatch(new RegExp(`^portin: another portin run \\(pid ${process.pid}, started [^)]+\\) holds journal postgres://portin:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/portin_\\w+; wait for it to finish`));
      expect(run.stderr).not.toContain(masked(url));
      expect(s.received()).toHaveLength(0);
    } finally {
      await holder.close();
    }

    const wrong = new URL(url);
    wrong.password = "not-the-password";
    const refused = await runCli(["submit", sheet, "--journal", wrong.href, ...against(s)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cannot reach journal postgres://portin:***@");
    expect(refused.stderr).not.toContain("not-the-password");
    const both = await runCli(["submit", sheet, "--journal", url, "--state", join(dir, "x.jsonl"), ...against(s)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("portin: --state and --journal (or PORTIN_JOURNAL) both name the run journal: give one (unset PORTIN_JOURNAL to use a file)\n");
    const notUrl = await runCli(["plan", sheet, ...against(s)], { env: { PORTIN_JOURNAL: "mysql://ops:hunter2@db/migration" } });
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain("portin: --journal must be a postgres://user@host/database URL naming a database, got 'mysql://ops:***@db/migration'\n");
    expect(s.received()).toHaveLength(0);
  });

  it("never sends a number another run has claimed: its request is not sent, and the run stops, saying so", async () => {
    const s = await sandboxed();
    const url = await freshDatabase();
    const dir = await tempDir();
    const list = numbers(4);
    const sheet = await trunkSheetOf(dir, "wave.csv", list);
    // A first run makes the journal; then a claim this journal's records know nothing of, as a run that bypassed the lock would leave.
    const first = await runCli(["submit", await trunkSheetOf(dir, "first.csv", list.slice(0, 1)), "--journal", url, ...against(s)]);
    expect(first.code).toBe(0);
    await query(url, "INSERT INTO portin_claims (journal, number, request_id) SELECT id, $1, 'elsewhere-1' FROM portin_journals", [list[2]]);
    const posts = s.received().length;

    const run = await runCli(["submit", sheet, "--journal", url, "--max-per-request", "1", "--concurrency", "1", ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`number ${list[2]} was claimed in journal postgres://portin:***@`);
    expect(run.stderr).toContain("by request elsewhere-1");
    expect(postedNumbers(s, posts)).not.toContain(list[2]);
    const rows = await readResults(join(dir, "wave.results.csv"));
    expect(rows.find((row) => row.result_number === list[2])?.result_status).not.toBe("submitted");
  });

  it("journal copy moves a file journal into the database and back verbatim; runs on the copy see what the file said; it never writes over a journal", async () => {
    const s = await sandboxed();
    const url = await freshDatabase();
    const dir = await tempDir();
    const list = numbers(12);
    const sheet = await trunkSheetOf(dir, "wave.csv", list);
    const file = join(dir, "wave.state.jsonl");
    expect((await runCli(["submit", sheet, "--max-per-request", "5", ...against(s)], { cwd: dir })).code).toBe(0);
    const posts = s.received().length;

    const into = await runCli(["journal", "copy", file, url]);
    expect(into.code).toBe(0);
    expect(into.stderr).toMatch(/^portin journal copy: 8 records of sandbox at http:\/\/127\.0\.0\.1:\d+\/ from .*wave\.state\.jsonl to postgres:\/\/portin:\*\*\*@/);
    const back = join(dir, "back.state.jsonl");
    expect((await runCli(["journal", "copy", url, back])).code).toBe(0);
    expect(await readFile(back, "utf8")).toBe(await readFile(file, "utf8"));

    // What a run reads from the copy is what it read from the file: all sent, nothing sent again.
    const [fromFile, fromDatabase, rerun] = await Promise.all([
      runCli(["report", sheet, "--state", back, "--output", join(dir, "file.html")]),
      runCli(["report", sheet, "--journal", url, "--output", join(dir, "database.html")]),
      runCli(["plan", sheet, "--journal", url, ...against(s)]),
    ]);
    expect(fromDatabase.stderr.replace("database.html", "file.html")).toBe(fromFile.stderr);
    expect(fromDatabase.code).toBe(0);
    expect(rerun.stderr).toContain("12 rows: 12 skipped");

    const again = await runCli(["journal", "copy", file, url]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds records for sandbox at http://127.0.0.1:");
    const over = await runCli(["journal", "copy", url, file]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`${file} already holds`);
    expect(await readFile(back, "utf8")).toBe(await readFile(file, "utf8"));
    expect(s.received()).toHaveLength(posts);
  });
});
