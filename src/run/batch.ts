/**
 * The engine behind `submit` and `plan`: read -> validate -> plan -> send -> write results.
 * Every row is read and validated before the first POST (SPEC §4); results are written
 * whatever happens after that, so a stopped run still accounts for every row.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CommandIO } from "../commands/command.js";
import { connect, type ConnectionArgs } from "../commands/connection.js";
import { exitCodeForSignal, UsageError } from "../errors.js";
import { openSheet } from "../input/sheet.js";
import { openJournal, readJournal, newRequestId } from "../journal/journal.js";
import { planRequests, type PortRequest } from "../plan/plan.js";
import { openResults } from "../results/writer.js";
import { exitCodeFor, formatSummary, summaryJson, summarize } from "../results/summary.js";
import { verbatimTest } from "../results/cells.js";
import type { RowOutcome } from "../results/status.js";
import { dispatch, type DispatchReport, type StopReason } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import { describeOperation } from "../catalog/operations.js";
import { buildBody } from "../service/body.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { CheckedRow, Lookups, ValidRow } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";
import { VERSION } from "../version.js";
import { reviewEarlierRuns, type EarlierRuns } from "./earlier-runs.js";
import { besideInput, defaultResultsPath, defaultStatePath } from "../paths.js";
import { journalService } from "../journal/read.js";
import { BUILT_IN_SANDBOX } from "../journal/identity.js";

export interface BatchOptions {
  readonly command: "submit" | "plan";
  readonly input: string;
  readonly results: string | undefined;
  readonly defaults: string | undefined;
  readonly state: string | undefined;
  readonly concurrency: number;
  readonly rate: number | null;
  readonly maxPerRequest: number;
  readonly retries: number;
  readonly retryUnknown: boolean;
  readonly retryRejected: boolean;
  readonly json: boolean;
  readonly connection: ConnectionArgs;
}

/**
 * `<input without .csv>.defaults.json`, when such a file exists: a customer's sheet and the
 * members it states once travel together, like its results and state files.
 */
function defaultsBeside(input: string): string | null {
  if (input === "-") return null;
  const path = besideInput(input, ".defaults.json");
  return existsSync(path) ? path : null;
}

export async function runBatch(options: BatchOptions, io: CommandIO): Promise<number> {
  const started = performance.now();
  if (options.json && (options.results ?? defaultResultsPath(options.input, "submit")) === "-") {
    throw new UsageError("--json and results on standard output would mix on stdout: give --results PATH");
  }
  // Header problems refuse the file before anything connects.
  const sheet = await openSheet(options.input, { stdin: io.stdin });
  const connection = await connect(options.connection, io, { retries: options.retries });
  try {
    const resultsPath = options.results ?? defaultResultsPath(options.input, options.command === "plan" ? "plan" : connection.sandbox ? "sandbox" : "submit");
    if (connection.sandbox) await noticeRealJournal(options.input, resultsPath, io);
    const lookups = await fetchLookups(connection.client);
    const defaultsPath = options.defaults ?? defaultsBeside(options.input);
    if (defaultsPath && !options.defaults) io.stderr.write(`portin: using defaults from ${defaultsPath}\n`);
    const defaults = defaultsPath ? await loadDefaults(defaultsPath, lookups.providers) : NO_DEFAULTS;

    const validator = createValidator({ layout: sheet.layout, lookups, defaults });
    const rows: CheckedRow[] = [];
    // A row's cells stay in memory only when the results cannot copy them from the input as
    // they stand (a row to mask, defuse or pad, or an input that cannot be read twice): a
    // million rows' cells would take ~1 GB (issue 5).
    const copyable = verbatimTest(sheet.layout.header);
    const keptCells = new Map<number, readonly string[]>();
    for await (const row of sheet.rows) {
      if (!sheet.rereadable || !copyable(row.cells)) keptCells.set(rows.length, row.cells);
      rows.push(await validator.check(row));
    }

    const statePath = options.state ?? (connection.sandbox ? null : defaultStatePath(options.input));
    refuseOverwrites(options.input, resultsPath, statePath);
    if (!statePath && !connection.sandbox && options.command === "submit") {
      io.stderr.write("portin: no --state: nothing records what is sent, so running this again would send these numbers again\n");
    }
    const identity = { baseUrl: connection.serviceName, user: connection.user, version: VERSION };
    // `plan` only reads the journal: a dry run must not block, or be blocked by, a real run.
    const journal = options.command === "submit" && statePath ? await openJournal(statePath, identity) : null;
    try {
      const prior = journal?.prior ?? (statePath ? await readJournal(statePath, identity) : null);
      const earlier = await reviewEarlierRuns(prior, rows, {
        portInStatus: (number) => connection.client.portInStatus(number),
        record: journal ? (number, ticket, status) => journal.confirmed(number, ticket, status) : null,
        concurrency: options.concurrency,
        signal: io.signal,
        retryUnknown: options.retryUnknown,
        retryRejected: options.retryRejected,
      });
      const outcomes: RowOutcome[] = new Array<RowOutcome>(rows.length);
      const toPlan: ValidRow[] = [];
      for (let i = 0; i < rows.length; i++) {
        const checked = rows[i] as CheckedRow;
        const settled = settleBeforePlanning(checked, earlier);
        if (settled) outcomes[i] = settled;
        else toPlan.push(checked as ValidRow);
      }
      const requests = planRequests(toPlan, options.maxPerRequest);

      // Opened only now, after every row is read: a file refused mid-way leaves no results behind.
      const results = await openResults(resultsPath, sheet.layout.header, {
        delimiter: sheet.layout.delimiter,
        ...sheet.textFormat(),
        stdout: io.stdout,
      });

      let report: DispatchReport | null = null;
      if (options.command === "submit") {
        report = await dispatch(requests, {
          submit: (request) => connection.client.submit(request.operation, buildBody(request)),
          journal,
          newRequestId,
          concurrency: options.concurrency,
          ratePerSecond: options.rate,
          signal: io.signal,
        });
      }
      const requestOf = new Uint32Array(rows.length);
      requests.forEach((request, at) => {
        for (const row of request.numbers) requestOf[row.index] = at + 1;
      });
      const outcomeAt = (i: number): RowOutcome => {
        const settled = outcomes[i];
        if (settled !== undefined) return settled;
        const request = requests[(requestOf[i] ?? 0) - 1] as PortRequest;
        const row = rows[i] as ValidRow;
        return report === null ? rowOutcome(request, row, PLANNED) : sentOutcome(request, row, report);
      };

      const input = await sheet.reread();
      if (sheet.rereadable && input === null) {
        io.stderr.write(`portin: ${sheet.layout.source} changed during the run: its cells are left out of the results\n`);
      }
      try {
        for (let i = 0; i < rows.length; i++) {
          const cells = keptCells.get(i);
          const text = cells === undefined && input !== null ? (input.rowAt(i) ?? (await input.read(i))) : null;
          if (text !== null) await results.writeVerbatim(text, outcomeAt(i));
          else await results.write(cells ?? NO_CELLS, outcomeAt(i));
        }
      } finally {
        await input?.close();
      }
      await results.close();

      const counts = summarize({
        command: options.command,
        outcomes: (function* () {
          for (let i = 0; i < rows.length; i++) yield outcomeAt(i);
        })(),
        // After a stop, count only what was sent.
        requests: report ? [...requests, ...report.resent].filter((r) => report.results.has(r.batch)) : requests,
        elapsedMs: performance.now() - started,
        results: resultsPath,
        service: connection.serviceName,
        exitCode: 0,
      });
      // A signal that came after the last request started still means the run was interrupted.
      const interrupted = io.signal.aborted ? exitCodeForSignal(io.signal.reason) : null;
      const exitCode = stopExitCode(report?.stopped ?? null) ?? interrupted ?? exitCodeFor(counts.counts);
      const summary = { ...counts, exitCode };
      io.stderr.write(formatSummary(summary) + "\n");
      if (options.json) io.stdout.write(summaryJson(summary) + "\n");
      if (report?.stopped?.kind === "journal") throw report.stopped.error;
      if (report?.stopped?.kind === "auth") {
        io.stderr.write(`portin: stopped sending: ${report.stopped.message}\n`);
      }
      return exitCode;
    } finally {
      await journal?.close();
    }
  } finally {
    await connection.close();
  }
}

/**
 * A sandbox run beside a real migration's journal is most likely a forgotten PORTIN_BASE_URL:
 * say so, since the sandbox's "submitted" rows port nothing (docs/contract.md §2).
 */
async function noticeRealJournal(input: string, resultsPath: string, io: CommandIO): Promise<void> {
  const journal = defaultStatePath(input);
  const service = journal === null ? null : await journalService(journal);
  if (service === null || service === BUILT_IN_SANDBOX) return;
  io.stderr.write(
    `portin: this sheet has a journal for ${service} (${journal}): did you mean to set PORTIN_BASE_URL? ` +
      `This sandbox run leaves it and the real results untouched and writes ${resultsPath === "-" ? "standard output" : resultsPath}\n`,
  );
}

/** The results or the journal written over the sheet (or each other) would lose what they replace. */
function refuseOverwrites(input: string, results: string, state: string | null): void {
  const named = [
    ["the input sheet", input],
    ["--results", results],
    ["--state", state],
  ].filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== "-");
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [a, pathA] = named[i] as [string, string];
      const [b, pathB] = named[j] as [string, string];
      if (resolve(pathA) === resolve(pathB)) throw new UsageError(`${b} ${pathB} is also ${a}: give ${b} another path`);
    }
  }
}

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}

/** Rows that are settled before planning: invalid ones, and numbers earlier runs settled (earlier-runs.ts). */
function settleBeforePlanning(checked: CheckedRow, earlier: EarlierRuns): RowOutcome | null {
  if (!checked.valid) {
    return {
      status: "invalid",
      number: checked.number,
      numberType: checked.numberKind,
      operation: checked.operation ? describeOperation(checked.operation) : "",
      batch: null,
      ticket: "",
      httpStatus: null,
      message: checked.reason,
    };
  }
  return earlier.settle(checked);
}

/** What a request's rows share, unless a rejection named them. */
type RequestOutcome = Pick<RowOutcome, "status" | "httpStatus" | "message" | "ticket" | "next">;

const PLANNED: RequestOutcome = { status: "planned", httpStatus: null, message: "", ticket: "" };

/** A row left out of the results' own columns (its input changed during the run): padded with empty cells. */
const NO_CELLS: readonly string[] = [];

function rowOutcome(request: PortRequest, row: ValidRow, result: RequestOutcome): RowOutcome {
  return {
    status: result.status,
    number: row.number,
    numberType: row.numberKind,
    operation: describeOperation(request.operation),
    batch: request.batch,
    ticket: result.ticket,
    httpStatus: result.httpStatus,
    message: result.message,
    ...(result.next === undefined ? {} : { next: result.next }),
  };
}

/**
 * What a sent row became: its request's outcome, or, when a rejection named some of the
 * request's numbers, its own part of the message or the outcome of the request that carried
 * it again (docs/contract.md §4). Never another row's reason.
 */
function sentOutcome(planned: PortRequest, row: ValidRow, report: DispatchReport): RowOutcome {
  for (let request = planned; ; ) {
    const result = report.results.get(request.batch);
    if (result === undefined) return rowOutcome(request, row, notSent(report.stopped));
    if (result.named === null) return rowOutcome(request, row, result);
    const part = result.named.get(row.number);
    if (part !== undefined) return rowOutcome(request, row, { ...result, message: part });
    if (result.resentAs === null) {
      return rowOutcome(request, row, {
        status: "failed",
        httpStatus: result.httpStatus,
        ticket: "",
        message: "not accepted: the service rejected its request again because of other numbers; run again to send it",
      });
    }
    request = result.resentAs;
  }
}

/** Rows whose request never started because the run stopped sending. */
function notSent(stopped: StopReason | null): RequestOutcome {
  const base = { status: "failed", httpStatus: null, ticket: "" } as const;
  switch (stopped?.kind) {
    case "auth":
      return { ...base, message: `not sent: run stopped after ${stopped.message}`, next: "fix-credentials" };
    case "signal":
      return { ...base, message: "not sent: the run was interrupted; run again", next: "run-again-interrupted" };
    case "journal":
      return { ...base, message: `not sent: ${stopped.error.message}` };
    default:
      return { ...base, message: "not sent" };
  }
}

function stopExitCode(stopped: StopReason | null): number | null {
  switch (stopped?.kind) {
    case "auth":
    case "journal":
      return 2;
    case "signal":
      return exitCodeForSignal(stopped.signal);
    default:
      return null;
  }
}

