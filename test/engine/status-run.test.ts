/**
 * The engine behind `portin status` in-process (docs/contract.md §6), against a real sandbox
 * on loopback whose calendar the test moves on: runStatus as the command hands it over (a
 * ready client and the journal's identity), and learnStatuses on its own. What is asserted is
 * what a user sees: each row's status, port date and the carrier's reject, the journal's
 * records, the exit code.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { learnStatuses } from "../../src/engine/learn-status.js";
import type { StatusJournal } from "../../src/engine/status-journal.js";
import { runPortIn } from "../../src/engine/port-in.js";
import type { ServiceLink } from "../../src/engine/port-in.js";
import { prepare } from "../../src/engine/prepare.js";
import { runStatus } from "../../src/engine/status-run.js";
import type { StatusOptions } from "../../src/engine/status-run.js";
import type { DefaultsFile } from "../../src/validate/defaults.js";
import { exitCodeOfRun, exitCodeOfStatus } from "../../src/exit-codes.js";
import { openSheet } from "../../src/input/sheet.js";
import type { CommandIO } from "../../src/io.js";
import type { EndedEntry, StatusEntry } from "../../src/journal/journal.js";
import { derivePriorState } from "../../src/journal/prior.js";
import { readJournalFile } from "../../src/journal/read.js";
import { REJECTIONS } from "../../src/sandbox/carrier.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { ORDER_LIST_PATH } from "../../src/service/answers.js";
import { createClient } from "../../src/service/client.js";
import { E911_ADDRESS, FORM_CELLS, FORM_HEADER, readResults, tempDir } from "../e2e/harness.js";
import type { ResultRow } from "../e2e/harness.js";
import { numbers } from "../e2e/ledger.js";
import { faultyProxy } from "../e2e/proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A Monday: orders of day 0 are answered on day 1 (Tuesday) and port on day 3 (Thursday). */
const MONDAY = "2026-03-02";
const PORT_DATE = "2026-03-05";

interface Setup {
  readonly sandbox: RunningSandbox;
  readonly service: ServiceLink;
  readonly dir: string;
  readonly sheet: string;
  readonly io: CommandIO;
}

/**
 * A sandbox, a sheet of `list` and a client; with `viaProxy`, the client talks to a proxy in
 * front of the sandbox that answers 500 to the PortInStatus of the tickets in `down`.
 */
async function setup(list: readonly (string | readonly [string, string])[], sandboxOptions: SandboxOptions = {}, down?: Set<string>): Promise<Setup> {
  const sandbox = await startSandbox({ startDate: MONDAY, rejectRate: 0, seed: 7, ...sandboxOptions });
  cleanups.push(() => sandbox.close());
  let baseUrl = sandbox.url;
  if (down !== undefined) {
    const proxy = await faultyProxy(sandbox);
    cleanups.push(() => proxy.close());
    proxy.rule = (method, path) => (method === "GET" && [...down].some((ticket) => path.endsWith(`/Tickets/${ticket}/PortInStatus`)) ? "fail" : "forward");
    baseUrl = proxy.url;
  }
  const client = createClient({ baseUrl, user: sandbox.user, password: sandbox.password, timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
  const dir = await tempDir();
  const sheet = join(dir, "acme.csv");
  await writeSheet(sheet, list);
  return {
    sandbox,
    service: { client, identity: { service: { kind: "remote", baseUrl: sandbox.url }, user: sandbox.user, version: "test" } },
    dir,
    sheet,
    io: { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), signal: new AbortController().signal },
  };
}

/** One trunk row a number, or a number and its pilot; a number that is not 10 digits makes an invalid row. */
async function writeSheet(path: string, list: readonly (string | readonly [string, string])[]): Promise<void> {
  const line = (entry: string | readonly [string, string]): string => (typeof entry === "string" ? `${entry},4165550100` : entry.join(","));
  await writeFile(path, `number,pilot_number,${FORM_HEADER}\n${list.map((entry) => `${line(entry)},${FORM_CELLS}`).join("\n")}\n`);
}

/**
 * A --defaults file giving every trunk number its 9-1-1 address, so that a number that
 * completes is safe to use and `status` exits 0 for it (docs/contract.md §2 "9-1-1 addresses").
 */
const E911_DEFAULTS: DefaultsFile = {
  path: "acme.defaults.json",
  json: { e911: E911_ADDRESS },
};

/** Sends the sheet in requests of at most `maxPerRequest` numbers, as `portin submit` does. */
async function submit({ service, dir, sheet, io }: Setup, maxPerRequest = 100, defaults: DefaultsFile | null = null): Promise<number> {
  const report = await runPortIn(
    {
      command: "submit",
      sheet: await openSheet(sheet),
      results: join(dir, "acme.results.csv"),
      defaults,
      state: join(dir, "acme.state.jsonl"),
      concurrency: 1,
      rate: null,
      maxPerRequest,
      retryUnknown: false,
      retryRejected: false,
    },
    service,
    io,
  );
  return exitCodeOfRun(report);
}

async function status({ service, dir, sheet, io }: Setup, extra: Partial<StatusOptions> = {}): Promise<{ code: number; rows: ResultRow[]; report: Awaited<ReturnType<typeof runStatus>> }> {
  const output = join(dir, "acme.status.csv");
  const report = await runStatus(
    { sheet: await openSheet(sheet), output, defaults: null, state: join(dir, "acme.state.jsonl"), concurrency: 2, expandRanges: false, ...extra },
    service,
    io,
  );
  return { code: exitCodeOfStatus(report), rows: await readResults(output), report };
}

/** The journal's records of `type`, in file order. */
async function records(dir: string, type: string): Promise<Record<string, unknown>[]> {
  return (await readFile(join(dir, "acme.state.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.type === type);
}

/** PortInStatus GETs the sandbox answered since `from`: the ticket or number each asked about. */
function statusGets(sandbox: RunningSandbox, from = 0): string[] {
  return sandbox
    .served()
    .slice(from)
    .filter((r) => r.method === "GET" && r.path.endsWith("/PortInStatus"))
    .map((r) => r.path.split("/").at(-2) ?? "");
}

const cells = (rows: readonly ResultRow[], ...names: string[]): string[][] => rows.map((row) => names.map((name) => row[name] ?? ""));

describe("runStatus", () => {
  it("reports each number's order as the days pass, SUBMITTED, CONFIRMED with its port date, COMPLETED, asking once per ticket", async () => {
    const [a, b, c] = numbers(3);
    const s = await setup([a!, b!, c!]);
    expect(await submit(s, 2, E911_DEFAULTS)).toBe(0);
    const withE911 = { defaults: E911_DEFAULTS };

    const submitted = await status(s, withE911);
    expect(submitted.code).toBe(0);
    expect(cells(submitted.rows, "number", "status", "status_ticket", "status_port_date", "status_message")).toEqual([
      [a, "SUBMITTED", "PI-000001", "", "waiting for the losing carrier to confirm a port date"],
      [b, "SUBMITTED", "PI-000001", "", "waiting for the losing carrier to confirm a port date"],
      [c, "SUBMITTED", "PI-000002", "", "waiting for the losing carrier to confirm a port date"],
    ]);
    expect(submitted.report.summary).toMatchObject({ orders: 2, requests: 2, counts: [{ status: "SUBMITTED", state: "open", rows: 3 }] });
    expect(statusGets(s.sandbox)).toEqual(["PI-000001", "PI-000002"]);

    s.sandbox.advanceDays(1);
    const confirmed = await status(s, withE911);
    expect(confirmed.code).toBe(0);
    expect(cells(confirmed.rows, "status", "status_port_date", "status_message")).toEqual(
      Array(3).fill(["CONFIRMED", PORT_DATE, `the losing carrier confirmed the port for ${PORT_DATE}`]),
    );
    // What changed since the check before: every number moved to CONFIRMED, with its port date.
    expect(confirmed.report.changes?.confirmed.map((change) => [change.number, change.ticket, change.portDate]).sort()).toEqual([
      [a, "PI-000001", PORT_DATE],
      [b, "PI-000001", PORT_DATE],
      [c, "PI-000002", PORT_DATE],
    ]);

    s.sandbox.advanceDays(2);
    const completed = await status(s, withE911);
    expect(completed.code).toBe(0);
    expect(cells(completed.rows, "status", "status_port_date", "status_message", "status_on_trunk", "status_e911")).toEqual(
      Array(3).fill(["COMPLETED", PORT_DATE, `ported on ${PORT_DATE}; nothing to do`, "yes", "registered"]),
    );
    expect(completed.report.summary.states).toMatchObject({ completed: 3, open: 0 });
  });

  it("records one status per order per check in the journal, with its port date and every number in it", async () => {
    const [a, b, c] = numbers(3);
    const s = await setup([a!, b!, c!]);
    await submit(s, 2);
    await status(s);
    s.sandbox.advanceDays(1);
    const { rows } = await status(s);

    const readings = await records(s.dir, "status");
    expect(readings.map((r) => [r.ticket, r.status, r.portDate, r.numbers])).toEqual([
      // No port date before the carrier answers: the journal keeps it as null.
      ["PI-000001", "SUBMITTED", null, [a, b]],
      ["PI-000002", "SUBMITTED", null, [c]],
      ["PI-000001", "CONFIRMED", PORT_DATE, [a, b]],
      ["PI-000002", "CONFIRMED", PORT_DATE, [c]],
    ]);
    // The report's checked-at is the reading's time.
    expect(rows.map((row) => row.status_checked_at)).toEqual([readings[2]!.at, readings[2]!.at, readings[3]!.at]);
    // Numbers PortInStatus confirmed are recorded only when they were unsure: these had tickets.
    expect(await records(s.dir, "confirmed")).toEqual([]);
  });

  it("records in an order's status every number the service lists in it, the journal's and any the journal lost", async () => {
    const [a, b, c] = numbers(3);
    const s = await setup([a!, b!, c!]);
    await submit(s, 3);
    // A journal that lost c from the request's intent (a hand edit, an older copy): the order still holds it.
    const path = join(s.dir, "acme.state.jsonl");
    const lines = (await readFile(path, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const edited = lines.map((record) =>
      record.type === "intent" ? { ...record, numbers: [a, b], fingerprints: (record.fingerprints as string[]).slice(0, 2) } : record,
    );
    await writeFile(path, `${edited.map((record) => JSON.stringify(record)).join("\n")}\n`);
    // Nor is c on the sheet checked, so the account's order list does not bring it back either.
    await writeSheet(s.sheet, [a!, b!]);

    const { rows } = await status(s);
    expect(cells(rows, "number", "status", "status_ticket")).toEqual([
      [a, "SUBMITTED", "PI-000001"],
      [b, "SUBMITTED", "PI-000001"],
    ]);
    expect((await records(s.dir, "status")).map((r) => [r.ticket, [...(r.numbers as string[])].sort()])).toEqual([["PI-000001", [a, b, c].sort()]]);
  });

  it("shows the carrier's rejection, reason, summary and reject code, exits 1, and records the order ended so the next check need not ask", async () => {
    const [a, b] = numbers(2);
    const s = await setup([a!, b!], { rejectRate: 1 });
    await submit(s);
    s.sandbox.advanceDays(1);

    const rejected = await status(s);
    expect(rejected.code).toBe(1);
    const [first] = rejected.rows;
    const rejection = REJECTIONS.find((r) => r.reason === first!.status_reject_reason);
    expect(rejection, first!.status_reject_reason).toBeDefined();
    const message =
      `ticket PI-000001 ended as REJECTED without porting: ${rejection!.reason}; ` +
      "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)";
    const summary = `Rejected by the losing carrier (Bell Canada) on 2026-03-03: correct ${rejection!.fix} and submit the numbers again`;
    const details = `${rejection!.code} ${rejection!.field}: ${rejection!.remarks}`;
    expect(cells(rejected.rows, "status", "status_ticket", "status_port_date", "status_reject_reason", "status_reject_summary", "status_reject_details", "status_message")).toEqual(
      Array(2).fill(["REJECTED", "PI-000001", "", rejection!.reason, summary, details, message]),
    );
    expect(rejected.report.summary.states.ended).toBe(2);

    const [ended] = await records(s.dir, "ended");
    expect(ended).toMatchObject({ ticket: "PI-000001", status: "REJECTED", reason: rejection!.reason, summary, details });
    const endedNumbers = (ended!.numbers as { number: string; fingerprint: string }[]).map((n) => n.number);
    expect(endedNumbers.sort()).toEqual([a, b]);
    expect((await records(s.dir, "status")).map((r) => [r.ticket, r.status, r.reason, r.numbers])).toEqual([["PI-000001", "REJECTED", rejection!.reason, [a, b]]]);

    // An ended order is over for good: the next check reports it from the journal, asking nothing.
    const before = s.sandbox.served().length;
    const again = await status(s);
    expect(statusGets(s.sandbox, before)).toEqual([]);
    expect(again.code).toBe(1);
    expect(cells(again.rows, "status", "status_ticket", "status_reject_reason", "status_message")).toEqual(
      Array(2).fill([
        "REJECTED",
        "PI-000001",
        rejection!.reason,
        `ticket PI-000001 ended as REJECTED without porting: ${rejection!.reason}; fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)`,
      ]),
    );
  });

  it("keeps an order's last known status, port date and when it was learned when its PortInStatus fails, while the other order answers", async () => {
    const [a, b, c] = numbers(3);
    const down = new Set<string>();
    const s = await setup([a!, b!, c!], {}, down);
    await submit(s, 2);
    s.sandbox.advanceDays(1);
    const learned = await status(s);
    expect(cells(learned.rows, "status", "status_port_date")).toEqual(Array(3).fill(["CONFIRMED", PORT_DATE]));
    const readingsBefore = (await records(s.dir, "status")).length;

    down.add("PI-000001");
    s.sandbox.advanceDays(2);
    const { code, rows } = await status(s);
    expect(code).toBe(1);
    expect(cells(rows, "status", "status_ticket", "status_port_date", "status_checked_at")).toEqual([
      ["CONFIRMED", "PI-000001", PORT_DATE, learned.rows[0]!.status_checked_at],
      ["CONFIRMED", "PI-000001", PORT_DATE, learned.rows[1]!.status_checked_at],
      ["COMPLETED", "PI-000002", PORT_DATE, rows[2]!.status_checked_at],
    ]);
    expect(rows[2]!.status_checked_at! > learned.rows[2]!.status_checked_at!).toBe(true);
    for (const row of rows.slice(0, 2)) {
      expect(row.status_message).toMatch(new RegExp(`^CONFIRMED \\(port date ${PORT_DATE}\\) as last learned at ${learned.rows[0]!.status_checked_at}; .*500.*: run portin status again later$`));
    }
    // Only the order that answered has a new reading.
    expect((await records(s.dir, "status")).slice(readingsBefore).map((r) => [r.ticket, r.status])).toEqual([["PI-000002", "COMPLETED"]]);
  });

  it("counts every PortInStatus request it made, each retry too, as the sandbox counts the GETs it answered", async () => {
    const [a, b, c] = numbers(3);
    const s = await setup([a!, b!, c!]);
    await submit(s, 2);
    // Each ticket's first GET reaches the sandbox, whose answer the proxy turns into a 500: got tries it again.
    const proxy = await faultyProxy(s.sandbox);
    cleanups.push(() => proxy.close());
    const once = new Set<string>();
    proxy.rule = (method, path) => (method !== "GET" || !path.endsWith("/PortInStatus") || once.has(path) ? "forward" : (once.add(path), "swallow"));
    const client = createClient({ baseUrl: proxy.url, user: s.sandbox.user, password: s.sandbox.password, timeoutMs: 5_000, retries: 2, allowInsecureHttp: false, userAgent: "portin/test" });
    const from = s.sandbox.served().length;
    const { rows, report } = await status({ ...s, service: { ...s.service, client } });
    expect(cells(rows, "status")).toEqual(Array(3).fill(["SUBMITTED"]));
    expect(statusGets(s.sandbox, from).sort()).toEqual(["PI-000001", "PI-000001", "PI-000002", "PI-000002"]);
    expect(report.summary).toMatchObject({ orders: 2, requests: 4 });
  });

  it("rebuilds a lost journal from a Closed order only for the numbers its PortInStatus answer lists, asking about each other number itself", async () => {
    const [a, b] = numbers(2);
    const s = await setup([a!, b!]);
    await submit(s, 1);
    s.sandbox.advanceDays(3);
    await rm(join(s.dir, "acme.state.jsonl"));
    // The order list shows both numbers in one Closed order, where the service holds one order each.
    const proxy = await faultyProxy(s.sandbox);
    cleanups.push(() => proxy.close());
    const list = { orders: [{ OrderID: "9001", Requests: [{ Assessment: "Closed", NumberToPort: [{ TnRange: `${a}-${b!.slice(-2)}` }] }] }] };
    proxy.rule = (method, path) => (method === "GET" && path === ORDER_LIST_PATH ? { status: 200, body: list } : "forward");
    const client = createClient({ baseUrl: proxy.url, user: s.sandbox.user, password: s.sandbox.password, timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
    const from = s.sandbox.served().length;
    const { rows } = await status({ ...s, service: { ...s.service, client } });
    expect(cells(rows, "number", "status", "status_ticket")).toEqual([
      [a, "COMPLETED", "PI-000001"],
      [b, "COMPLETED", "PI-000002"],
    ]);
    // The order asked about through its first number, the number its answer did not list by itself; then each ticket learned.
    expect(statusGets(s.sandbox, from)).toEqual([a, b, "PI-000001", "PI-000002"]);
  });

  it("says why a number is in no order: an invalid row, one the service rejected, one added since the submit, asking about none of them", async () => {
    const [good, added, badPilot] = numbers(3);
    const s = await setup([good!, "416555012", "4165550199"]);
    expect(await submit(s)).toBe(1);
    await writeSheet(s.sheet, [good!, "416555012", "4165550199", added!, [badPilot!, "555"]]);

    const before = s.sandbox.served().length;
    const { code, rows, report } = await status(s);
    expect(code).toBe(0);
    expect(statusGets(s.sandbox, before)).toEqual(["PI-000001"]);
    expect(cells(rows, "status", "status_ticket", "status_message")).toEqual([
      ["SUBMITTED", "PI-000001", "waiting for the losing carrier to confirm a port date"],
      ["not-submitted", "", 'never submitted: the row is invalid: "416555012" is not a valid NANP number (9 digits)'],
      [
        "not-submitted",
        "",
        "never submitted: the service rejected it (4165550199 is not portable: the losing carrier reports it as a wireless number); remove the row, or port this number another way",
      ],
      ["not-submitted", "", "not submitted yet: portin submit sends it"],
      ["not-submitted", "", 'never submitted: the row is invalid: pilot_number "555" is not a valid NANP number (3 digits)'],
    ]);
    expect(report.summary.states).toMatchObject({ open: 1, "not-submitted": 4 });
    expect(report.summary.orders).toBe(1);
  });

  it("without a journal reports every row not submitted, naming the journal it looked for, and asks nothing", async () => {
    const s = await setup(numbers(2));
    const missing = await status(s);
    expect(missing.code).toBe(0);
    expect(cells(missing.rows, "status", "status_message")).toEqual(
      Array(2).fill(["not-submitted", `not submitted: there is no journal at ${join(s.dir, "acme.state.jsonl")} yet; portin submit writes it`]),
    );
    expect(missing.report.changes).toBeNull();

    const none = await status(s, { state: null });
    expect(cells(none.rows, "status", "status_message")).toEqual(Array(2).fill(["not-submitted", "no journal to read: give --state, the journal portin submit wrote for this sheet"]));
    expect(statusGets(s.sandbox)).toEqual([]);
  });
});

/** A StatusJournal that keeps what learnStatuses records, in order of call. */
function recorder(): StatusJournal & { readonly calls: (readonly ["confirmed", string, string, string] | readonly ["ended", EndedEntry] | readonly ["status", StatusEntry])[] } {
  const calls: (readonly ["confirmed", string, string, string] | readonly ["ended", EndedEntry] | readonly ["status", StatusEntry])[] = [];
  return {
    calls,
    confirmed: (number, ticket, status) => (calls.push(["confirmed", number, ticket, status]), Promise.resolve()),
    ended: (order) => (calls.push(["ended", order]), Promise.resolve()),
    status: (order) => (calls.push(["status", order]), Promise.resolve()),
  };
}

describe("learnStatuses", () => {
  it("gives each row its order's status from one question per ticket, and hands the journal one status per order", async () => {
    const [a, b, c] = numbers(3);
    const s = await setup([a!, b!, c!, a!]);
    await submit(s, 2);
    s.sandbox.advanceDays(1);
    const { rows } = await prepare(await openSheet(s.sheet), s.service.client, null);
    const prior = derivePriorState((await readJournalFile(join(s.dir, "acme.state.jsonl"))).records);
    const journal = recorder();

    const learned = await learnStatuses(rows, prior, { client: s.service.client, concurrency: 2, signal: s.io.signal, journal, noJournal: "no journal" });
    expect(learned.requests).toBe(2);
    expect(rows.map((_, i) => learned.statusOf(i)).map((o) => [o.status, o.state, o.ticket, o.portDate])).toEqual([
      ["CONFIRMED", "open", "PI-000001", PORT_DATE],
      ["CONFIRMED", "open", "PI-000001", PORT_DATE],
      ["CONFIRMED", "open", "PI-000002", PORT_DATE],
      // The same number twice in the sheet: one question, the same answer.
      ["CONFIRMED", "open", "PI-000001", PORT_DATE],
    ]);
    expect(journal.calls.map((call) => (call[0] === "status" ? [call[1].ticket, call[1].status, call[1].portDate, [...call[1].numbers].sort()] : call))).toEqual([
      ["PI-000001", "CONFIRMED", PORT_DATE, [a, b]],
      ["PI-000002", "CONFIRMED", PORT_DATE, [c]],
    ]);
  });

  it("asks by number about a number an earlier run sent without learning the outcome, and records what it found for submit", async () => {
    const [sure, unsure] = numbers(2);
    let posts = 0;
    const s = await setup([sure!, unsure!]);
    // The second request reaches the service, but its answer is lost, and PortInStatus is down
    // while the submit runs: the number is left unsure.
    const proxy = await faultyProxy(s.sandbox);
    cleanups.push(() => proxy.close());
    proxy.rule = (method, path) => {
      if (method === "GET" && path.endsWith("/PortInStatus")) return "fail";
      if (method !== "POST" || !path.includes("/NumberPorts/Inbound/")) return "forward";
      posts += 1;
      return posts === 2 ? "swallow" : "forward";
    };
    const client = createClient({ baseUrl: proxy.url, user: s.sandbox.user, password: s.sandbox.password, timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
    const viaProxy = { ...s, service: { ...s.service, client } };
    expect(await submit(viaProxy, 1)).toBe(1);
    expect(s.sandbox.accepted().map((r) => [r.ticket, r.numbers])).toEqual([
      ["PI-000001", [sure]],
      ["PI-000002", [unsure]],
    ]);

    const { rows } = await prepare(await openSheet(s.sheet), s.service.client, null);
    const prior = derivePriorState((await readJournalFile(join(s.dir, "acme.state.jsonl"))).records);
    const journal = recorder();
    const before = s.sandbox.served().length;
    const learned = await learnStatuses(rows, prior, { client: s.service.client, concurrency: 2, signal: s.io.signal, journal, noJournal: "no journal" });

    expect(statusGets(s.sandbox, before).sort()).toEqual([unsure, "PI-000001"]);
    expect(learned.statusOf(1)).toMatchObject({
      status: "SUBMITTED",
      ticket: "PI-000002",
      message: "waiting for the losing carrier to confirm a port date (an earlier run had not learned that the service accepted it)",
    });
    expect(journal.calls.filter((call) => call[0] === "confirmed")).toEqual([["confirmed", unsure, "PI-000002", "SUBMITTED"]]);
    expect(journal.calls.filter((call) => call[0] === "status").map((call) => [call[1].ticket, call[1].numbers])).toEqual(
      expect.arrayContaining([
        ["PI-000001", [sure]],
        ["PI-000002", [unsure]],
      ]),
    );
  });

  it("without a journal asks nothing and says why, and writes nothing", async () => {
    const s = await setup(numbers(2));
    const { rows } = await prepare(await openSheet(s.sheet), s.service.client, null);
    const journal = recorder();
    const learned = await learnStatuses(rows, null, { client: s.service.client, concurrency: 2, signal: s.io.signal, journal, noJournal: "no journal to read: give --state" });
    expect(learned.requests).toBe(0);
    expect([learned.statusOf(0), learned.statusOf(1)].map((o) => [o.status, o.state, o.message])).toEqual(Array(2).fill(["not-submitted", "not-submitted", "no journal to read: give --state"]));
    expect(journal.calls).toEqual([]);
    expect(statusGets(s.sandbox)).toEqual([]);
  });
});
