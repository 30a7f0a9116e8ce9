/**
 * `portin submit` and `portin plan` (docs/contract.md §2): the flags, then the run prepared
 * for the engine — the sheet opened, the service connected, the paths resolved — and its
 * report printed.
 */
import type { Argv } from "yargs";
import { runPortIn } from "../engine/port-in.js";
import type { UnwrittenResults } from "../engine/port-in.js";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import type { CommandResult } from "../exit-codes.js";
import { exitCodeOfRun } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { defaultResultsPath } from "../paths.js";
import { DEFAULT_MAX_PER_REQUEST } from "../group/requests.js";
import { formatSummary, summaryJson } from "../results/summary.js";
import { DEFAULT_CONCURRENCY } from "../send/dispatch.js";
import { DEFAULT_RETRIES } from "../service/client.js";
import { VERSION } from "../version.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { connect, withConnectionOptions, type Connection, type ConnectionArgs } from "./connection.js";
import { resolveRunPaths, sandboxOrdersPath } from "./run-paths.js";
import { noticeLeftOut, openCommandSheet, withSheetOptions } from "./sheet-input.js";
import type { CommandSheet } from "./sheet-input.js";
import { noticeSheet } from "./sheet-notices.js";
import { showProgress, type ProgressDisplay } from "./progress-display.js";
import { RunProgress } from "../engine/progress.js";
import { MAX_CONCURRENCY, MAX_RETRIES, dashMeansStdio, nonEmptyPath, positiveNumber, resultsPath, wholeNumber } from "./values.js";
import type { ResultColumnsAt } from "../results/encoder.js";
import { terminalSafe } from "../terminal-text.js";
import { JOURNAL_OPTION } from "./journal-option.js";
import { journalLabel } from "../journal/place.js";

export interface PortInArgs extends ConnectionArgs {
  input: string;
  sheet?: string;
  results?: string;
  resultColumns: ResultColumnsAt;
  defaults?: string;
  state?: string;
  journal?: string;
  concurrency: number;
  rate?: number;
  maxPerRequest: number;
  retries: number;
  retryUnknown: boolean;
  retryRejected: boolean;
  orderCheck: boolean;
  checkPortability: boolean;
  json: boolean;
  encoding: string;
  expandRanges: boolean;
  quiet: boolean;
}


function portInOptions(yargs: Argv): Argv<PortInArgs> {
  return withConnectionOptions(
    withSheetOptions(yargs)
      .positional("input", { type: "string", demandOption: true, coerce: dashMeansStdio, describe: "the sheet: a CSV or workbook (.xlsx, .xls, .ods) path, or - for CSV on standard input" })
      .options({
        results: {
          type: "string",
          requiresArg: true,
          coerce: resultsPath("results"),
          describe:
            "where to write the results: .csv, .xlsx (a workbook) or .jsonl (JSON Lines); - for CSV on stdout [default: <input without .csv>.results.csv; .plan.csv for plan; .sandbox.results.csv on the built-in sandbox; the same ending in .xlsx for a workbook input; stdout for stdin]",
        },
        "result-columns": {
          choices: ["last", "first"] as const,
          default: "last" as const,
          requiresArg: true,
          describe: "where the result columns go: after the sheet's own columns, or first, where a wide sheet keeps them in view",
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
        journal: JOURNAL_OPTION,
        concurrency: {
          default: DEFAULT_CONCURRENCY,
          requiresArg: true,
          coerce: wholeNumber("concurrency", 1, MAX_CONCURRENCY),
          describe: "requests in flight at most [number]",
        },
        rate: {
          requiresArg: true,
          coerce: positiveNumber("rate", "0.5 is one request every 2 s"),
          describe: "requests started per second at most; fractions allowed: 0.5 is one every 2 s [number] [default: unlimited]",
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
        "order-check": {
          type: "boolean",
          default: true,
          describe: "read the account's order list before sending, so that numbers an order placed elsewhere holds are skipped, not sent twice (--no-order-check skips it)",
        },
        "check-portability": {
          type: "boolean",
          default: false,
          describe: "refuse (invalid) numbers outside the NPA-NXX prefixes the service ports in; exit 2 if the service cannot say",
        },
        json: { type: "boolean", default: false, describe: "print a machine-readable summary on stdout at the end" },
        quiet: { type: "boolean", default: false, describe: "no progress display (on a terminal, a live bar; otherwise a line every 10 s)" },
      }),
  ) as unknown as Argv<PortInArgs>;
}

function portInCommand(command: "submit" | "plan", examples: readonly (readonly [string, string])[]): PortinCommand<PortInArgs> {
  return {
    ...COMMAND_LINES[command],
    builder: (yargs) => examples.reduce((y, [line, what]) => y.example(line, what), portInOptions(yargs)),
    run: (args, io) => portIn(command, args, io),
  };
}

/** The command's run; with `given`, on that connection, left open (the library entry point, api.ts). */
export async function portIn(command: "submit" | "plan", args: PortInArgs, io: CommandIO, given?: Connection): Promise<CommandResult> {
  if (args.json && (args.results ?? defaultResultsPath(args.input, command)) === "-") {
    throw new UsageError(commandLine.jsonWithResultsOnStdout());
  }
  // Header problems, and a bad column mapping, refuse the file before anything connects.
  const opened = await openCommandSheet(args, io);
  try {
    return await runOn(opened, command, args, io, given);
  } finally {
    // A run that stopped before its rows were read leaves no reader behind (input/workbook.ts).
    await opened.sheet.close();
  }
}

async function runOn({ sheet, defaults }: CommandSheet, command: "submit" | "plan", args: PortInArgs, io: CommandIO, given: Connection | undefined): Promise<CommandResult> {
  noticeSheet(sheet.layout, io);
  const progress = new RunProgress();
  const connection = given ?? (await connect(args, io, { retries: args.retries, onRetry: () => void progress.retried++, sandboxOrders: sandboxOrdersPath(args.input) }));
  let display: ProgressDisplay | null = null;
  try {
    const paths = await resolveRunPaths(args, command, connection.service.kind === "sandbox", io);
    // Started once the start-of-run notices are out, so that the bar never cuts through them.
    display = showProgress(progress, io.stderr, { isTTY: (io.stderr as { isTTY?: boolean }).isTTY === true, quiet: args.quiet });
    const identity = { service: connection.service, user: connection.user, version: VERSION };
    const report = await runPortIn(
      {
        command,
        sheet,
        ...paths,
        defaults,
        concurrency: args.concurrency,
        rate: args.rate ?? null,
        maxPerRequest: args.maxPerRequest,
        retryUnknown: args.retryUnknown,
        retryRejected: args.retryRejected,
        expandRanges: args.expandRanges,
        resultColumns: args.resultColumns,
        progress,
        checkPortability: args.checkPortability,
        orderCheck: args.orderCheck,
      },
      { client: connection.client, identity },
      io,
    );
    display.stop();
    noticeLeftOut(sheet, io);
    io.stderr.write(terminalSafe(formatSummary(report.summary)) + "\n");
    if (args.json) io.stdout.write(summaryJson(report.summary, exitCodeOfRun(report)) + "\n");
    if (report.stopped?.kind === "journal") io.stderr.write(notices.failed(terminalSafe(report.stopped.error.message)));
    if (report.stopped?.kind === "auth") io.stderr.write(notices.stoppedSending(terminalSafe(report.stopped.message)));
    if (report.unwritten !== null) io.stderr.write(terminalSafe(describeUnwritten(report.unwritten, report.stopped?.kind === "journal")));
    return { kind: "port-in", report };
  } finally {
    display?.stop();
    if (given === undefined) await connection.close();
  }
}

/**
 * Results that failed after sending began never hide what was sent (docs/contract.md §4):
 * the error, then what this run submitted, under which tickets, and where that is recorded.
 */
function describeUnwritten({ error, state, tickets }: UnwrittenResults, journalFailed: boolean): string {
  const rows = [...tickets.values()].reduce((sum, count) => sum + count, 0);
  const sent =
    rows === 0
      ? notices.noRowSubmitted()
      : notices.rowsSubmittedUnder(plural(rows, "row"), listTickets(tickets));
  const kept =
    state === null
      ? notices.onlyRecordIsSummary()
      : journalFailed
        ? notices.journalHoldsIntents(journalLabel(state))
        : notices.journalHoldsTickets(journalLabel(state));
  return notices.resultsMissing(error.message, sent, kept);
}

/** The first tickets by name, then how many more: a 50,000-number run has hundreds. */
function listTickets(tickets: ReadonlyMap<string, number>): string {
  const shown = [...tickets].slice(0, TICKETS_SHOWN).map(([ticket, count]) => `${ticket} (${plural(count, "row")})`);
  const more = tickets.size - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${plural(more, "more ticket")}` : shown.join(", ");
}

const TICKETS_SHOWN = 10;

function plural(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

export const submitCommand = portInCommand("submit", [
  ["$0 submit fixtures/sample.csv", "send the sample sheet to the built-in sandbox (nothing real is ported)"],
  ["$0 submit acme.csv --base-url https://api.thinktel.ca/rest.svc --user acme", "the real thing; the password from $PORTIN_PASSWORD"],
  ["$0 submit acme.csv --rate 0.5 --concurrency 2", "gently: one request every 2 s, two in flight"],
  ["$0 submit acme.csv --retry-unknown", "a re-run that also resends the numbers PortInStatus shows the service lacks"],
]);

export const planCommand = portInCommand("plan", [
  ["$0 plan fixtures/sample.csv", "what the sample sheet would send, in fixtures/sample.plan.csv"],
  ["$0 plan fixtures/sample.csv --max-per-request 5 --quiet", "smaller requests, no progress display"],
  ["$0 plan customer.csv --encoding windows-1252 --expand-ranges", "a sheet Excel saved as plain CSV, with range rows"],
]);
