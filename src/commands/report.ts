/**
 * `portin report <input>` (docs/contract.md §2 `report`): one self-contained HTML page of the
 * migration from the sheet and its journal, and with --calendar its port dates as iCalendar
 * events. It asks no service, so it takes no connection options.
 */
import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import type { CommandResult } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { journalService } from "../journal/read.js";
import { besideInput, defaultStatePath } from "../paths.js";
import { runReport } from "../report/report.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { defaultsPath, refuseSamePaths } from "./run-paths.js";
import { openCommandSheet, SHEET_INPUT, withSheetOptions } from "./sheet-input.js";
import { nonEmptyPath } from "./values.js";
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
    });
}

async function run(args: ReportArgs, io: CommandIO): Promise<CommandResult> {
  const state = args.state ?? defaultStatePath(args.input);
  const output = args.output ?? (await defaultOutput(args.input, state));
  const calendar = args.calendar ?? null;
  refuseSamePaths([
    ["the input sheet", args.input],
    ["--state", state],
    ["--output", output],
    ["--calendar", calendar],
  ]);
  const defaults = defaultsPath(args);
  if (defaults !== null && args.defaults === undefined) io.stderr.write(`portin: using defaults from ${printedPath(defaults)}\n`);
  const opened = await openCommandSheet(args, io);
  try {
    const result = await runReport({ sheet: opened.sheet, defaults: opened.defaults, state, output, calendar, now: new Date() });
    const kb = Math.ceil(result.bytes / 1024);
    io.stderr.write(`portin report: ${result.model.rows.length} rows, ${result.model.ported} numbers ported; wrote ${printedPath(output)} (${kb} KB)\n`);
    if (calendar !== null) io.stderr.write(`portin report: ${result.events ?? 0} port-date events in ${printedPath(calendar)}\n`);
    return { kind: "done" };
  } finally {
    await opened.sheet.close();
  }
}

/** Beside the sheet; a journal of the built-in sandbox gets its own name, so it cannot overwrite a real migration's page. */
async function defaultOutput(input: string, state: string | null): Promise<string> {
  if (input === "-") throw new UsageError("a sheet on standard input has no folder to write the report beside: give --output FILE.html");
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
