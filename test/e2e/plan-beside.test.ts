/**
 * docs/contract.md §5: `plan` while a `submit` holds the journal says so on stderr and shows the
 * numbers that run has in flight as in flight (`skipped`), not `planned`. The submit is held
 * mid-run by a proxy that never answers its POSTs, so the test waits on the journal, never on
 * the machine's speed.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { readResults, runCli, tempDir, withoutE911, writeSheet, FORM_CELLS, FORM_HEADER } from "./harness.js";
import { faultyProxy, through } from "./proxy.js";
import { freshDatabase, query } from "../support/postgres.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** The journal the test's runs share: its options, how messages name it, and its lines so far. */
interface TestJournal {
  readonly options: readonly string[];
  readonly label: string;
  readonly lines: () => Promise<string[]>;
}

/** The same test on each kind of journal (docs/contract.md §5): a file, and a database a team shares. */
const JOURNALS: readonly { readonly kind: string; readonly make: (dir: string) => Promise<TestJournal> }[] = [
  {
    kind: "a file journal",
    make: (dir) => {
      const path = join(dir, "sheet.state.jsonl");
      return Promise.resolve({ options: ["--state", path], label: path, lines: () => Promise.resolve(existsSync(path) ? readFileSync(path, "utf8").split("\n") : []) });
    },
  },
  {
    kind: "a PostgreSQL journal",
    make: async () => {
      const url = await freshDatabase();
      const label = url.replace(`:${new URL(url).password}@`, ":***@");
      const lines = async () => (await query<{ line: string }>(url, "SELECT line FROM portin_records ORDER BY seq").catch(() => [])).map((row) => row.line);
      return { options: ["--journal", url], label, lines };
    },
  },
];

/** The numbers of the journal's intents that have no outcome yet. */
async function intentsWithoutOutcome(journal: TestJournal): Promise<string[]> {
  const open = new Map<string, string[]>();
  for (const line of await journal.lines()) {
    if (!line.endsWith("}")) continue;
    const record = JSON.parse(line) as { type: string; requestId?: string; numbers?: string[] };
    if (record.type === "intent") open.set(record.requestId ?? "", record.numbers ?? []);
    if (record.type === "outcome") open.delete(record.requestId ?? "");
  }
  return [...open.values()].flat();
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe.each(JOURNALS)("plan beside a running submit, on $kind", ({ make }) => {
  it("says a submit holds the journal and shows its in-flight numbers as in flight, not planned", async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    // Every port-in POST is held unanswered: the submit stays mid-run with its requests in flight.
    const asked: string[] = [];
    proxy.rule = (method, path) => {
      if (path.endsWith("/PortInStatus")) asked.push(path);
      return method === "POST" && path.includes("/NumberPorts/Inbound/") ? "hang" : "forward";
    };
    const dir = await tempDir();
    const lines = Array.from({ length: 6 }, (_, i) => `416-555-${2000 + i},4165550100,${FORM_CELLS}`);
    const sheet = await writeSheet(dir, "sheet.csv", `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`);
    const journal = await make(dir);
    const connection = through(proxy, s);

    let child: ChildProcess | undefined;
    const submit = runCli(["submit", sheet, ...journal.options, "--max-per-request", "1", "--concurrency", "2", ...connection], {
      onSpawn: (spawned) => (child = spawned),
    });
    cleanups.push(async () => {
      child?.kill("SIGKILL");
      await submit;
    });
    // Two requests in flight, and two waiting for a slot with their intents written (docs/contract.md §4).
    await until(async () => (await intentsWithoutOutcome(journal)).length === 4 && proxy.held.length === 2);
    const inFlight = await intentsWithoutOutcome(journal);

    const plan = await runCli(["plan", sheet, ...journal.options, "--results", join(dir, "plan.csv"), ...connection]);
    const pid = String(child?.pid);
    expect(plan.stderr).toContain(`a submit run (pid ${pid}) holds ${journal.label}: the numbers it has in flight are shown as in flight, not planned`);
    expect(plan.code).toBe(0);
    const rows = await readResults(join(dir, "plan.csv"));
    const byNumber = new Map(rows.map((row) => [row.result_number, row]));
    for (const number of inFlight) {
      expect(byNumber.get(number)).toMatchObject({
        result_status: "skipped",
        result_message: withoutE911(`in flight: being sent by the submit run (pid ${pid}) holding the journal; not planned here`),
      });
    }
    // The rows the submit has not sent yet are planned, as the stderr line says.
    expect(rows.filter((row) => row.result_status === "planned")).toHaveLength(2);
    expect(rows.filter((row) => row.result_status === "planned").map((row) => row.result_number)).toEqual(
      rows.map((row) => row.result_number).filter((number) => !inFlight.includes(number ?? "")),
    );
    // Nothing reached the service's port-in routes, and the plan asked PortInStatus about none of the numbers in flight.
    expect(s.received().filter((r) => r.path.includes("NumberPorts/Inbound"))).toEqual([]);
    expect(asked).toEqual([]);
  });

});

describe("plan beside no running submit", () => {
  it("says nothing of a running submit when none holds the journal", async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "sheet.csv", `number,pilot_number,${FORM_HEADER}\n416-555-2000,4165550100,${FORM_CELLS}\n`);
    const connection = ["--base-url", s.url, "--user", s.user, "--password", s.password];
    const journal = join(dir, "sheet.state.jsonl");
    expect((await runCli(["submit", sheet, "--state", journal, ...connection])).code).toBe(0);
    const plan = await runCli(["plan", sheet, "--state", journal, "--results", join(dir, "plan.csv"), ...connection]);
    expect(plan.stderr).not.toMatch(/holds/);
    expect((await readResults(join(dir, "plan.csv")))[0]).toMatchObject({ result_status: "skipped", result_message: withoutE911("submitted by an earlier run; not sent again") });
  });
});
