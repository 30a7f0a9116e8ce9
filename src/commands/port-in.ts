/**
 * `portin submit` and `portin plan` (docs/contract.md §2): the flags, then the run prepared
 * for the engine — the sheet opened, the service connected, the paths resolved — and its
 * report printed.
 */
import type { Argv } from "yargs";
import { runPortIn } from "../engine/port-in.js";
import { UsageError } from "../errors.js";
import type { CommandResult } from "../exit-codes.js";
import { exitCodeOfRun } from "../exit-codes.js";
import { openSheet } from "../input/sheet.js";
import type { CommandIO } from "../io.js";
import { defaultResultsPath } from "../paths.js";
import { DEFAULT_MAX_PER_REQUEST } from "../plan/plan.js";
import { formatSummary, summaryJson } from "../results/summary.js";
import { DEFAULT_CONCURRENCY } from "../send/dispatch.js";
import { DEFAULT_RETRIES } from "../service/client.js";
import { VERSION } from "../version.js";
import type { PortinCommand } from "./command.js";
import { connect, withConnectionOptions, type ConnectionArgs } from "./connection.js";
import { resolveRunPaths } from "./run-paths.js";
import { dashMeansStdio, nonEmptyPath, wholeNumber } from "./values.js";

interface PortInArgs extends ConnectionArgs {
  input: string;
  results?: string;
  defaults?: string;
  state?: string;
  concurrency: number;
  rate?: number;
  maxPerRequest: number;
  retries: number;
  retryUnknown: boolean;
  retryRejected: boolean;
  checkPortability: boolean;
  json: boolean;
}

/** Beyond these a typo is likelier than a wish: 64 in flight already saturates a core (see README, Performance). */
const MAX_CONCURRENCY = 256;
const MAX_RETRIES = 20;

function portInOptions(yargs: Argv): Argv<PortInArgs> {
  return withConnectionOptions(
    yargs
      .positional("input", { type: "string", demandOption: true, coerce: dashMeansStdio, describe: "the sheet: a CSV path, or - for standard input" })
      .options({
        results: {
          type: "string",
          requiresArg: true,
          coerce: nonEmptyPath("results"),
          describe:
            "where to write the results CSV (- for stdout) [default: <input without .csv>.results.csv; .plan.csv for plan; .sandbox.results.csv on the built-in sandbox; stdout for stdin]",
        },
        defaults: {
          type: "string",
          requiresArg: true,
          coerce: nonEmptyPath("defaults"),
          describe:
            'JSON {"portForm": {…}, "request": {…}, "item": {…}} used where a row leaves a member empty [default: <input without .csv>.defaults.json, if it exists]',
        },
        state: {
          type: "string",
          requiresArg: true,
          coerce: nonEmptyPath("state"),
          describe: "the run journal [default: <input without .csv>.state.jsonl; none on the built-in sandbox or for stdin]",
        },
        concurrency: {
          default: DEFAULT_CONCURRENCY,
          requiresArg: true,
          coerce: wholeNumber("concurrency", 1, MAX_CONCURRENCY),
          describe: "requests in flight at most [number]",
        },
        rate: {
          requiresArg: true,
          coerce: wholeNumber("rate", 1),
          describe: "requests started per second at most [number] [default: unlimited]",
        },
        "max-per-request": {
          default: DEFAULT_MAX_PER_REQUEST,
          requiresArg: true,
          coerce: wholeNumber("max-per-request", 1),
          describe: "numbers per request at most [number]",
        },
        retries: {
          default: DEFAULT_RETRIES,
          requiresArg: true,
          coerce: wholeNumber("retries", 0, MAX_RETRIES),
          describe: "automatic retries of a retryable failure: 429, 503, connection refused [number]",
        },
        "retry-unknown": { type: "boolean", default: false, describe: "resend numbers an earlier run could not learn the outcome of, once PortInStatus shows the service lacks them" },
        "retry-rejected": {
          type: "boolean",
          default: false,
          describe: "resend rows an earlier run saw rejected even if they have not changed since (a changed row is resent anyway)",
        },
        "check-portability": {
          type: "boolean",
          default: false,
          describe: "refuse (invalid) numbers outside the NPA-NXX prefixes the service ports in; exit 2 if the service cannot say",
        },
        json: { type: "boolean", default: false, describe: "print a machine-readable summary on stdout at the end" },
      }),
  ) as unknown as Argv<PortInArgs>;
}

function portInCommand(command: "submit" | "plan", describe: string, example: string): PortinCommand<PortInArgs> {
  return {
    command: `${command} <input>`,
    describe,
    builder: (yargs) => portInOptions(yargs).example(example, ""),
    run: (args, io) => run(command, args, io),
  };
}

async function run(command: "submit" | "plan", args: PortInArgs, io: CommandIO): Promise<CommandResult> {
  if (args.json && (args.results ?? defaultResultsPath(args.input, command)) === "-") {
    throw new UsageError("--json and results on standard output would mix on stdout: give --results PATH");
  }
  // Header problems refuse the file before anything connects.
  const sheet = await openSheet(args.input, { stdin: io.stdin });
  const connection = await connect(args, io, { retries: args.retries });
  try {
    const paths = await resolveRunPaths(args, command, connection.sandbox, io);
    const identity = { baseUrl: connection.serviceName, user: connection.user, version: VERSION };
    const report = await runPortIn(
      {
        command,
        sheet,
        ...paths,
        concurrency: args.concurrency,
        rate: args.rate ?? null,
        maxPerRequest: args.maxPerRequest,
        retryUnknown: args.retryUnknown,
        retryRejected: args.retryRejected,
        checkPortability: args.checkPortability,
      },
      { client: connection.client, identity },
      io,
    );
    io.stderr.write(formatSummary(report.summary) + "\n");
    if (args.json) io.stdout.write(summaryJson(report.summary, exitCodeOfRun(report)) + "\n");
    if (report.stopped?.kind === "journal") io.stderr.write(`portin: ${report.stopped.error.message}\n`);
    if (report.stopped?.kind === "auth") io.stderr.write(`portin: stopped sending: ${report.stopped.message}\n`);
    return { kind: "port-in", report };
  } finally {
    await connection.close();
  }
}

export const submitCommand = portInCommand(
  "submit",
  "validate, look up, group, send, and write results",
  "$0 submit numbers.csv --base-url https://api.thinktel.ca/rest.svc --defaults customer.json",
);

export const planCommand = portInCommand(
  "plan",
  "the dry run: everything submit does except the POSTs",
  "$0 plan numbers.csv --max-per-request 50",
);
