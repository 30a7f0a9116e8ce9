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
import { defaultResultsPath, openResults } from "../results/writer.js";
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
import { besideInput } from "../paths.js";

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
function defaultStatePath(input: string): string | null {
  return input === "-" ? null : besideInput(input, ".state.jsonl");
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
  const resultsPath = options.results ?? defaultResultsPath(options.input);
  if (options.json && resultsPath === "-") {
    throw new UsageError("--json and results on standard output would mix on stdout: give --results PATH");
  }
  // Header problems refuse the file before anything connects.
  const sheet = await openSheet(options.input, { stdin: io.stdin });
  const connection = await connect(options.connection, io, { retries: options.retries });
  try {
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
        stdout: io.stdout,
      });

      let report: DispatchReport | null = null;
      // What each request's rows became; a row's outcome is built from it as it is written.
      let requestResults: readonly RequestOutcome[];
      if (options.command === "plan") {
        requestResults = requests.map(() => PLANNED);
      } else {
        report = await dispatch(requests, {
          submit: (request) => connection.client.submit(request.operation, buildBody(request)),
          journal,
          newRequestId,
          concurrency: options.concurrency,
          ratePerSecond: options.rate,
          signal: io.signal,
        });
        const { results: sent, stopped } = report;
        const notSent: RequestOutcome = { status: "failed", httpStatus: null, message: notSentMessage(stopped), ticket: "" };
        requestResults = requests.map((request) => sent.get(request.batch) ?? notSent);
      }
      const requestOf = new Uint32Array(rows.length);
      requests.forEach((request, at) => {
        for (const row of request.numbers) requestOf[row.index] = at + 1;
      });
      const outcomeAt = (i: number): RowOutcome => {
        const settled = outcomes[i];
        if (settled !== undefined) return settled;
        const at = (requestOf[i] ?? 0) - 1;
        return requestOutcome(requests[at] as PortRequest, requestResults[at] as RequestOutcome, rows[i] as ValidRow);
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
        requests: report ? requests.filter((r) => report.results.has(r.batch)) : requests,
        elapsedMs: performance.now() - started,
        results: resultsPath,
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

/** A request's outcome, shared by its rows. */
type RequestOutcome = Pick<RowOutcome, "status" | "httpStatus" | "message" | "ticket">;

const PLANNED: RequestOutcome = { status: "planned", httpStatus: null, message: "", ticket: "" };

/** A row left out of the results' own columns (its input changed during the run): padded with empty cells. */
const NO_CELLS: readonly string[] = [];

function requestOutcome(request: PortRequest, result: RequestOutcome, row: ValidRow): RowOutcome {
  return {
    status: result.status,
    number: row.number,
    numberType: row.numberKind,
    operation: describeOperation(request.operation),
    batch: request.batch,
    ticket: result.ticket,
    httpStatus: result.httpStatus,
    message: result.message,
  };
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
      return exitCodeForSignal(stopped.signal);
    default:
      return null;
  }
}

