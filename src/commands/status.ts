/**
 * `portin status <input>` (docs/contract.md §2, §6): the live status of every order the
 * journal holds for the sheet's numbers, one report row per input row, a summary by status.
 */
import * as e911Words from "../messages/e911.js";
import type { Argv } from "yargs";
import { runStatus } from "../engine/status-run.js";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import type { CommandResult } from "../exit-codes.js";
import { exitCodeOfStatus } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { defaultStatusPath } from "../paths.js";
import { formatChanges } from "../results/status-changes.js";
import { formatStatusSummary, statusSummaryJson } from "../results/status-summary.js";
import { DEFAULT_CONCURRENCY } from "../send/dispatch.js";
import { DEFAULT_RETRIES } from "../service/client.js";
import { VERSION } from "../version.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { connect, withConnectionOptions } from "./connection.js";
import type { Connection, ConnectionArgs } from "./connection.js";
import { resolveStatusPaths, sandboxOrdersPath } from "./run-paths.js";
import { noticeLeftOut, openCommandSheet, SHEET_INPUT, withSheetOptions } from "./sheet-input.js";
import type { CommandSheet } from "./sheet-input.js";
import { MAX_CONCURRENCY, MAX_RETRIES, nonEmptyPath, resultsPath, wholeNumber } from "./values.js";
import type { ResultColumnsAt } from "../results/encoder.js";
import { terminalSafe } from "../terminal-text.js";
import { JOURNAL_OPTION } from "./journal-option.js";
import { SILENT_AFTER_OPTION } from "./silent-after.js";

export interface StatusArgs extends ConnectionArgs {
  input: string;
  sheet?: string;
  encoding: string;
  expandRanges: boolean;
  output?: string;
  resultColumns: ResultColumnsAt;
  defaults?: string;
  state?: string;
  journal?: string;
  concurrency: number;
  retries: number;
  silentAfter: number;
  json: boolean;
}


function statusOptions(yargs: Argv): Argv<StatusArgs> {
  return withConnectionOptions(
    withSheetOptions(yargs)
      .positional("input", SHEET_INPUT)
      .options({
        output: {
          type: "string",
          requiresArg: true,
          coerce: resultsPath("output"),
          describe:
            "where to write the status report: .csv, .xlsx or .jsonl; - for CSV on stdout [default: <input without .csv>.status.csv; .sandbox.status.csv on the built-in sandbox; the same ending in .xlsx for a workbook input; stdout for stdin]",
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
          describe: "the --defaults submit was given [default: <input without .csv>.defaults.json, if it exists]",
        },
        state: {
          type: "string",
          requiresArg: true,
          coerce: nonEmptyPath("state"),
          describe: "the run journal submit wrote [default: <input without .csv>.state.jsonl; none on the built-in sandbox or for stdin]",
        },
        journal: JOURNAL_OPTION,
        concurrency: {
          default: DEFAULT_CONCURRENCY,
          requiresArg: true,
          coerce: wholeNumber("concurrency", 1, MAX_CONCURRENCY),
          describe: "PortInStatus requests in flight at most [number]",
        },
        retries: {
          default: DEFAULT_RETRIES,
          requiresArg: true,
          coerce: wholeNumber("retries", 0, MAX_RETRIES),
          describe: "retries of a PortInStatus request that failed: 429, 5xx, timeout, connection refused [number]",
        },
        "silent-after": SILENT_AFTER_OPTION,
        json: { type: "boolean", default: false, describe: "print a machine-readable summary on stdout at the end" },
      }),
    // yargs types `result-columns` by its dashed name; argv also holds it camel-cased.
  ) as unknown as Argv<StatusArgs>;
}

/** The command's run; with `given`, on that connection, left open (the library entry point, api.ts). */
export async function status(args: StatusArgs, io: CommandIO, given?: Connection): Promise<CommandResult> {
  if (args.json && (args.output ?? defaultStatusPath(args.input, false)) === "-") {
    throw new UsageError(commandLine.jsonWithStatusOnStdout());

  }
  // Read as submit read it: the same worksheet, encoding and column mapping.
  const opened = await openCommandSheet(args, io);
  try {
    return await runOn(opened, args, io, given);
  } finally {
    await opened.sheet.close();
  }
}

async function runOn({ sheet, defaults }: CommandSheet, args: StatusArgs, io: CommandIO, given: Connection | undefined): Promise<CommandResult> {
  const connection = given ?? (await connect(args, io, { retries: args.retries, sandboxOrders: sandboxOrdersPath(args.input) }));
  try {
    const paths = await resolveStatusPaths(args, connection.service.kind === "sandbox", io);
    const identity = { service: connection.service, user: connection.user, version: VERSION };
    const report = await runStatus({ sheet, ...paths, defaults, concurrency: args.concurrency, silentAfter: args.silentAfter, expandRanges: args.expandRanges, resultColumns: args.resultColumns }, { client: connection.client, identity }, io);
    noticeLeftOut(sheet, io);
    // A number that completed off its trunk or without 9-1-1 comes before anything else (docs/contract.md §2).
    const trunkProblems = report.trunkProblems ?? [];
    if (trunkProblems.length > 0) io.stderr.write(terminalSafe(e911Words.notSafeToUse(trunkProblems)) + "\n");
    // What changed comes first: a cron mail's first lines say what happened overnight.
    const changes = report.changes === null ? null : formatChanges(report.changes);
    if (changes !== null) io.stderr.write(terminalSafe(changes) + "\n");
    io.stderr.write(terminalSafe(formatStatusSummary(report.summary)) + "\n");
    if (args.json) io.stdout.write(statusSummaryJson(report.summary, exitCodeOfStatus(report), report.changes, report.history) + "\n");
    return { kind: "status", report };
  } finally {
    if (given === undefined) await connection.close();
  }
}

export const statusCommand: PortinCommand<StatusArgs> = {
  ...COMMAND_LINES.status,
  builder: (yargs) =>
    statusOptions(yargs)
      .example("$0 status numbers.csv", "one GET per order; writes numbers.status.csv")
      .example("$0 status numbers.csv --json >status.json", "for cron: the summary as JSON; exit 1 when an order ended without porting"),
  run: (args, io) => status(args, io),
};
