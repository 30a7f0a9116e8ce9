/**
 * The engine in-process, against a real sandbox on loopback: each stage on its own, and the
 * whole run as a command hands it over (a ready client and the journal's identity).
 */
import { readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { execute } from "../../src/engine/execute.js";
import { rowOutcomes } from "../../src/engine/outcomes.js";
import { settleRows } from "../../src/engine/settle.js";
import type { SettleOptions } from "../../src/engine/settle.js";
import { runPortIn } from "../../src/engine/port-in.js";
import type { PortInOptions, ServiceLink } from "../../src/engine/port-in.js";
import { prepare } from "../../src/engine/prepare.js";
import { RunProgress } from "../../src/engine/progress.js";
import { exitCodeOfRun } from "../../src/exit-codes.js";
import { openSheet } from "../../src/input/sheet.js";
import type { CommandIO } from "../../src/io.js";
import { openJournal } from "../../src/journal/journal.js";
import { derivePriorState } from "../../src/journal/prior.js";
import { rowFingerprint } from "../../src/group/fingerprint.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { createClient } from "../../src/service/client.js";
import type { ValidRow } from "../../src/validate/types.js";
import { FORM_CELLS, FORM_HEADER, parseResults, tempDir, withoutE911 } from "../e2e/harness.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

interface Setup {
  readonly sandbox: RunningSandbox;
  readonly service: ServiceLink;
  readonly dir: string;
  readonly io: CommandIO & { readonly stderrText: () => string };
}

async function setup(signal = new AbortController().signal): Promise<Setup> {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password, timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
  const stderr = new PassThrough();
  let stderrText = "";
  stderr.on("data", (chunk: Buffer) => (stderrText += chunk.toString()));
  return {
    sandbox,
    service: { client, identity: { service: { kind: "remote", baseUrl: sandbox.url }, user: sandbox.user, version: "test" } },
    dir: await tempDir(),
    io: { stdout: new PassThrough(), stderr, stdin: new PassThrough(), signal, stderrText: () => stderrText },
  };
}

async function sheetOf(dir: string, numbers: readonly string[]): Promise<string> {
  const path = join(dir, "acme.csv");
  await writeFile(path, `number,pilot_number,${FORM_HEADER}\n${numbers.map((n) => `${n},4165550100,${FORM_CELLS}`).join("\n")}\n`);
  return path;
}

function options(sheet: Awaited<ReturnType<typeof openSheet>>, dir: string, extra: Partial<PortInOptions> = {}): PortInOptions {
  return {
    command: "submit",
    sheet,
    results: join(dir, "acme.results.csv"),
    defaults: null,
    state: join(dir, "acme.state.jsonl"),
    concurrency: 2,
    rate: null,
    maxPerRequest: 100,
    retryUnknown: false,
    retryRejected: false,
    ...extra,
  };
}

const PLAN_OPTIONS: Omit<SettleOptions, "signal"> = {
  portInStatus: () => Promise.reject(new Error("no number here is unsure")),
  record: null,
  concurrency: 1,
  retryUnknown: false,
  retryRejected: false,
  maxPerRequest: 100,
};

describe("runPortIn", () => {
  it("submits a sheet and reports each row, with the rejection split per named number", async () => {
    const { sandbox, service, dir, io } = await setup();
    const path = await sheetOf(dir, ["4165552001", "4165550199", "4165552002", "416555200"]);
    const report = await runPortIn(options(await openSheet(path), dir), service, io);

    expect(report.stopped).toBeNull();
    expect(report.summary.counts).toMatchObject({ submitted: 2, rejected: 1, invalid: 1 });
    expect(report.summary.requests).toBe(2);
    expect(exitCodeOfRun(report)).toBe(1);
    expect(sandbox.accepted().map((r) => r.numbers)).toEqual([["4165552001", "4165552002"]]);
    const rows = parseResults(await readFile(join(dir, "acme.results.csv"), "utf8"));
    expect(rows.map((r) => r.result_status)).toEqual(["submitted", "rejected", "submitted", "invalid"]);
  });

  it("shows the lookups phase while the account is looked up, and reading once rows are read", async () => {
    const { service, dir, io } = await setup();
    const path = await sheetOf(dir, ["4165552005"]);
    const progress = new RunProgress();
    const seen: string[] = [];
    const client = { ...service.client, trunks: () => (seen.push(`trunks: ${progress.phase}`), service.client.trunks()) };
    const sheet = await openSheet(path);
    const rows = sheet.rows;
    const watched = Object.assign(sheet, {
      rows: (async function* () {
        for await (const row of rows) {
          seen.push(`row: ${progress.phase}`);
          yield row;
        }
      })(),
    });
    await runPortIn(options(watched, dir, { command: "plan", results: join(dir, "acme.plan.csv"), progress }), { ...service, client }, io);
    expect(seen).toEqual(["trunks: lookups", "row: reading"]);
  });

  it("asks for the first requests' connections before the account's orders are read, as many as the valid rows or --concurrency; plan asks for none", async () => {
    const { service, dir, io } = await setup();
    const seen: string[] = [];
    const client = {
      ...service.client,
      connect: (count: number) => (seen.push(`connect ${count}`), service.client.connect(count)),
      portInOrders: () => (seen.push("orders"), service.client.portInOrders()),
    };
    const path = await sheetOf(dir, ["4165552011", "4165552012", "4165552013", "416555201"]);
    await runPortIn(options(await openSheet(path), dir, { concurrency: 8 }), { ...service, client }, io);
    expect(seen.slice(0, 2)).toEqual(["connect 3", "orders"]);
    seen.length = 0;
    await runPortIn(options(await openSheet(path), dir, { command: "plan", results: join(dir, "acme.plan.csv") }), { ...service, client }, io);
    expect(seen).toEqual(["orders"]);
  });

  it("removes the sheet's cells kept on disk when the journal's lock is refused after the sheet was read", async () => {
    const { service, dir, io } = await setup();
    const spools = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith("portin-cells-"));
    // Rows whose note the results defuse are kept, as their text: 4,100 rows of 1 KB pass the spool's 4 MiB in memory.
    const path = join(dir, "acme.csv");
    await writeFile(path, `number,note\n${Array.from({ length: 4100 }, (_, i) => `416${String(5550000 + i)},=${"x".repeat(1000)}`).join("\n")}\n`);
    const holder = await openJournal(join(dir, "acme.state.jsonl"), service.identity);
    cleanups.push(() => holder.close());
    const before = new Set(spools());
    await expect(runPortIn(options(await openSheet(path), dir), service, io)).rejects.toThrow(/acme\.state\.jsonl/);
    expect(spools().filter((name) => !before.has(name))).toEqual([]);
  });

  it("plans without sending anything and reads no journal that is not there", async () => {
    const { sandbox, service, dir, io } = await setup();
    const path = await sheetOf(dir, ["4165552003", "4165552004"]);
    const report = await runPortIn(options(await openSheet(path), dir, { command: "plan", results: join(dir, "acme.plan.csv") }), service, io);
    expect(report.summary.counts.planned).toBe(2);
    expect(exitCodeOfRun(report)).toBe(0);
    expect(sandbox.received()).toEqual([]);
  });

  it("stops before sending when interrupted, still writing every row, and reports the signal", async () => {
    const interrupt = new AbortController();
    interrupt.abort("SIGTERM");
    const { sandbox, service, dir, io } = await setup(interrupt.signal);
    const path = await sheetOf(dir, ["4165552005"]);
    const report = await runPortIn(options(await openSheet(path), dir), service, io);
    expect(report.stopped).toEqual({ kind: "signal", signal: "SIGTERM" });
    expect(exitCodeOfRun(report)).toBe(143);
    expect(sandbox.received()).toEqual([]);
    const rows = parseResults(await readFile(join(dir, "acme.results.csv"), "utf8"));
    expect(rows.map((r) => [r.result_status, r.result_message])).toEqual([["failed", withoutE911("not sent: the run was interrupted; run again")]]);
  });
});

describe("the stages on their own", () => {
  it("prepare validates every row with the account's lookups before anything is planned", async () => {
    const { service, dir } = await setup();
    const prepared = await prepare(await openSheet(await sheetOf(dir, ["4165552006", "416555200"])), service.client, null);
    expect(prepared.rows.map((row) => row.valid)).toEqual([true, false]);
  });

  it("plan leaves an unchanged rejected row rejected and plans a changed one, asking the service nothing", async () => {
    const { service, dir } = await setup();
    const prepared = await prepare(await openSheet(await sheetOf(dir, ["4165552007", "4165552008"])), service.client, null);
    const [first, second] = prepared.rows as [ValidRow, ValidRow];
    const prior = derivePriorState([
      { type: "intent", requestId: "r1", operation: "dids", numbers: [first.number, second.number], at: "t" },
      {
        type: "outcome",
        requestId: "r1",
        status: "rejected",
        httpStatus: 200,
        message: "both refused",
        rejected: [
          { number: first.number, message: "refused", fingerprint: rowFingerprint(first) },
          { number: second.number, message: "refused", fingerprint: "of the row as it was before the fix" },
        ],
        at: "t",
      },
    ]);
    const plan = await settleRows(prepared.rows, prior, { ...PLAN_OPTIONS, signal: new AbortController().signal });
    expect(plan.settledOutcome(0)).toMatchObject({ status: "rejected", next: "fix-or-retry-rejected" });
    expect(plan.requests.map((request) => request.numbers.map((row) => row.number))).toEqual([[second.number]]);

    const retrying = await settleRows(prepared.rows, prior, { ...PLAN_OPTIONS, retryRejected: true, signal: new AbortController().signal });
    expect(retrying.requests.map((request) => request.numbers.length)).toEqual([2]);
  });

  it("execute sends the planned requests and the outcomes map each row to its answer", async () => {
    const { sandbox, service, dir } = await setup();
    const prepared = await prepare(await openSheet(await sheetOf(dir, ["4165552009", "4165552010"])), service.client, null);
    const plan = await settleRows(prepared.rows, null, { ...PLAN_OPTIONS, maxPerRequest: 1, signal: new AbortController().signal });
    const sent = await execute(plan.requests, { client: service.client, journal: null, concurrency: 1, rate: null, signal: new AbortController().signal });
    const outcomeOf = rowOutcomes(prepared.rows, plan, sent);
    expect([outcomeOf(0), outcomeOf(1)].map((o) => [o.status, o.sequence, o.ticket])).toEqual(
      sandbox.accepted().map((request, i) => ["submitted", i + 1, request.ticket]),
    );
  });
});
