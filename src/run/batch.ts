/**
 * The engine behind `submit` and `plan`: read -> validate -> plan -> send -> write results.
 * Every row is read and validated before the first POST (SPEC §4); results are written
 * whatever happens after that, so a stopped run still accounts for every row.
 */
import { existsSync } from "node:fs";
import { join, parse } from "node:path";
import type { CommandIO } from "../commands/command.js";
import { connect, type ConnectionArgs } from "../commands/connection.js";
import { UsageError } from "../errors.js";
import { openSheet } from "../input/sheet.js";
import { openJournal, readJournal, newRequestId } from "../journal/journal.js";
import { planRequests, type PortRequest } from "../plan/plan.js";
import { defaultResultsPath, openResults } from "../results/writer.js";
import { exitCodeFor, formatSummary, summaryJson, summarize } from "../results/summary.js";
import type { RowOutcome } from "../results/status.js";
import { dispatch, type DispatchReport, type StopReason } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import { describeOperation } from "../service/operations.js";
import { buildBody } from "../service/wire.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { CheckedRow, Lookups, ValidRow } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";
import { VERSION } from "../version.js";
import { reviewEarlierRuns, type EarlierRuns } from "./earlier-runs.js";

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
  readonly json: boolean;
  readonly connection: ConnectionArgs;
}

/** `<input without .csv>.state.jsonl` beside the input; none for standard input. */
export function defaultStatePath(input: string): string | null {
  return input === "-" ? null : sibling(input, ".state.jsonl");
}

/**
 * `<input without .csv>.defaults.json`, when such a file exists: a customer's sheet and the
 * members it states once travel together, like its results and state files.
 */
function besideInput(input: string, suffix: string): string | null {
  if (input === "-") return null;
  const path = sibling(input, suffix);
  return existsSync(path) ? path : null;
}

function sibling(input: string, suffix: string): string {
  const { dir, name, ext } = parse(input);
  return join(dir, `${ext.toLowerCase() === ".csv" ? name : name + ext}${suffix}`);
}

export async function runBatch(options: BatchOptions, io: CommandIO): Promise<number> {
  const started = performance.now();
  const resultsPath = options.results ?? defaultResultsPath(options.input);
  if (options.json && resultsPath === "-") {
    throw new UsageError("--json and results on standard output would mix on stdout: give --results PATH");
  }
  // Header problems refuse the file before anything connects.
  const sheet = await openSheet(options.input, { stdin: io.stdin });
  const connection = await connect(options.connection, io, { retries: options.retries });
  try {
    const lookups = await fetchLookups(connection.client);
    const defaultsPath = options.defaults ?? besideInput(options.input, ".defaults.json");
    if (defaultsPath && !options.defaults) io.stderr.write(`portin: using defaults from ${defaultsPath}\n`);
    const defaults = defaultsPath ? await loadDefaults(defaultsPath, lookups.providers) : NO_DEFAULTS;

    const validator = createValidator({ layout: sheet.layout, lookups, defaults });
    const rows: { cells: readonly string[]; checked: CheckedRow }[] = [];
    for await (const row of sheet.rows) rows.push({ cells: row.cells, checked: await validator.check(row) });

    const statePath = options.state ?? (connection.sandbox ? null : defaultStatePath(options.input));
    const identity = { baseUrl: connection.baseUrl, user: connection.user, version: VERSION };
    // `plan` only reads the journal: a dry run must not block, or be blocked by, a real run.
    const journal = options.command === "submit" && statePath ? await openJournal(statePath, identity) : null;
    try {
      const prior = journal?.prior ?? (statePath ? await readJournal(statePath, identity) : null);
      const earlier = await reviewEarlierRuns(prior, rows.map((row) => row.checked), {
        portInStatus: (number) => connection.client.portInStatus(number),
        record: journal ? (number, ticket, status) => journal.confirmed(number, ticket, status) : null,
        concurrency: options.concurrency,
        signal: io.signal,
        retryUnknown: options.retryUnknown,
      });
      const outcomes: RowOutcome[] = new Array<RowOutcome>(rows.length);
      const toPlan: ValidRow[] = [];
      for (let i = 0; i < rows.length; i++) {
        const checked = (rows[i] as (typeof rows)[number]).checked;
        const settled = settleBeforePlanning(checked, earlier);
        if (settled) outcomes[i] = settled;
        else toPlan.push(checked as ValidRow);
      }
      const requests = planRequests(toPlan, options.maxPerRequest);

      // Opened only now, after every row is read: a file refused mid-way leaves no results behind.
      const results = await openResults(resultsPath, sheet.layout.header, {
        delimiter: sheet.layout.delimiter,
        stdout: io.stdout,
      });

      let report: DispatchReport | null = null;
      if (options.command === "plan") {
        for (const request of requests) settleRequest(outcomes, request, "planned", null, "");
      } else {
        report = await dispatch(requests, {
          submit: (request) => connection.client.submit(request.operation, buildBody(request)),
          journal,
          newRequestId,
          concurrency: options.concurrency,
          ratePerSecond: options.rate,
          signal: io.signal,
        });
        for (const request of requests) {
          const result = report.results.get(request.batch);
          if (result) settleRequest(outcomes, request, result.status, result.httpStatus, result.message, result.ticket);
          else settleRequest(outcomes, request, "failed", null, notSentMessage(report.stopped));
        }
      }

      for (let i = 0; i < rows.length; i++) {
        await results.write((rows[i] as (typeof rows)[number]).cells, outcomes[i] as RowOutcome);
      }
      await results.close();

      const counts = summarize({
        command: options.command,
        outcomes,
        // After a stop, count only what was sent.
        requests: report ? requests.filter((r) => report.results.has(r.batch)) : requests,
        elapsedMs: performance.now() - started,
        results: resultsPath,
        exitCode: 0,
      });
      const exitCode = stopExitCode(report?.stopped ?? null) ?? exitCodeFor(counts.counts);
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

function settleRequest(
  outcomes: RowOutcome[],
  request: PortRequest,
  status: RowOutcome["status"],
  httpStatus: number | null,
  message: string,
  ticket = "",
): void {
  const operation = describeOperation(request.operation);
  for (const row of request.numbers) {
    outcomes[row.index] = {
      status,
      number: row.number,
      numberType: row.numberKind,
      operation,
      batch: request.batch,
      ticket,
      httpStatus,
      message,
    };
  }
}

function notSentMessage(stopped: StopReason | null): string {
  switch (stopped?.kind) {
    case "auth":
      return `not sent: run stopped after ${stopped.message}`;
    case "signal":
      return `not sent: run interrupted by ${stopped.signal}`;
    case "journal":
      return `not sent: ${stopped.error.message}`;
    default:
      return "not sent";
  }
}

function stopExitCode(stopped: StopReason | null): number | null {
  switch (stopped?.kind) {
    case "auth":
    case "journal":
      return 2;
    case "signal":
      return stopped.signal === "SIGTERM" ? 143 : 130;
    default:
      return null;
  }
}

