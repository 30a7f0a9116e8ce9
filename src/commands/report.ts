/**
 * `portin report <input>` (docs/contract.md §2 `report`): one self-contained HTML page of the
 * migration from the sheet and its journal, and with --calendar its port dates as iCalendar
 * events. It asks no service, so it takes no connection options.
 */
import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import type { CommandResult } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { journalService } from "../journal/read.js";
import { basename } from "node:path";
import { besideInput, defaultStatePath, defaultStatusPath } from "../paths.js";
import { runReport } from "../report/report.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { defaultsPath, refuseSamePaths, sharedJournal } from "./run-paths.js";
import { JOURNAL_OPTION } from "./journal-option.js";
import { openCommandSheet, SHEET_INPUT, withSheetOptions } from "./sheet-input.js";
import { nonEmptyPath } from "./values.js";
import { SILENT_AFTER_OPTION } from "./silent-after.js";
import { printedPath } from "../terminal-text.js";

interface ReportArgs {
  input: string;
  sheet?: string;
  encoding: string;
  expandRanges: boolean;
  output?: string;
  calendar?: string;
  defaults?: string;
  state?: string;
  journal?: string;
  silentAfter: number;
}

function reportOptions(yargs: Argv): Argv<ReportArgs> {
  return withSheetOptions(yargs)
    .positional("input", SHEET_INPUT)
    .options({
      output: {
        type: "string",
        requiresArg: true,
        coerce: nonEmptyPath("output"),
        describe: "where to write the HTML page [default: <input without .csv>.report.html; .sandbox.report.html for a journal of the built-in sandbox]",
      },
      calendar: { type: "string", requiresArg: true, coerce: nonEmptyPath("calendar"), describe: "also write the port dates as iCalendar events (.ics), one per customer, date and time window" },
      defaults: { type: "string", requiresArg: true, coerce: nonEmptyPath("defaults"), describe: "the --defaults submit was given [default: <input without .csv>.defaults.json, if it exists]" },
      state: { type: "string", requiresArg: true, coerce: nonEmptyPath("state"), describe: "the run journal submit and status wrote [default: <input without .csv>.state.jsonl]" },
      journal: JOURNAL_OPTION,
      "silent-after": SILENT_AFTER_OPTION,
      // yargs types `silent-after` by its dashed name; argv also holds it camel-cased.
    }) as unknown as Argv<ReportArgs>;
}

async function run(args: ReportArgs, io: CommandIO): Promise<CommandResult> {
  const shared = sharedJournal(args);
  const state = args.state ?? defaultStatePath(args.input);
  const output = args.output ?? (await defaultOutput(args.input, shared === null ? state : null));
  const calendar = args.calendar ?? null;
  refuseSamePaths([
    ["the input sheet", args.input],
    ["--state", shared === null ? state : null],
    ["--output", output],
    ["--calendar", calendar],
  ]);
  const defaults = defaultsPath(args);
  if (defaults !== null && args.defaults === undefined) io.stderr.write(notices.usingDefaults(printedPath(defaults)));
  const opened = await openCommandSheet(args, io);
  try {
    const result = await runReport({ sheet: opened.sheet, defaults: opened.defaults, state: shared ?? state, output, calendar, now: new Date(), silentAfter: args.silentAfter, rowsFile: await rowsFile(args.input, state) });
    const kb = Math.ceil(result.bytes / 1024);
    io.stderr.write(notices.reportWritten(result.model.rows.length, result.model.ported, printedPath(output), kb));
    if (calendar !== null) io.stderr.write(notices.calendarWritten(result.events ?? 0, printedPath(calendar)));
    return { kind: "done" };
  } finally {
    await opened.sheet.close();
  }
}

/** The status report `portin status` writes beside the sheet, by name: what a bounded page points to for every row. */
async function rowsFile(input: string, state: string | null): Promise<string> {
  if (input === "-") return notices.STATUS_REPORT_BY_NAME;
  const sandbox = state !== null && (await journalService(state))?.kind === "sandbox";
  return basename(defaultStatusPath(input, sandbox));
}

/** Beside the sheet; a journal of the built-in sandbox gets its own name, so it cannot overwrite a real migration's page. */
async function defaultOutput(input: string, state: string | null): Promise<string> {
  if (input === "-") throw new UsageError(commandLine.reportNeedsOutput());

  const sandbox = state !== null && (await journalService(state))?.kind === "sandbox";
  return besideInput(input, sandbox ? ".sandbox.report.html" : ".report.html");
}

export const reportCommand: PortinCommand<ReportArgs> = {
  ...COMMAND_LINES.report,
  builder: (yargs) =>
    reportOptions(yargs)
      .example("$0 report numbers.csv", "writes numbers.report.html from numbers.csv and numbers.state.jsonl; no service is asked")
      .example("$0 report numbers.csv --calendar cutovers.ics", "also the port dates as calendar events"),
  run,
};
