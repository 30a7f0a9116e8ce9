/**
 * `portin loa <input>` (docs/contract.md §2, "Letters of authorization"): one pre-filled
 * letter of authorization per customer, as a PDF to sign, from the sheet `submit` will send.
 * It checks the rows as `plan` does, so it connects like `plan` (the built-in sandbox without
 * --base-url): the losing carrier is printed by the name the service gives its ID.
 */
import { join, parse } from "node:path";
import type { Argv } from "yargs";
import { formatNumber } from "../letters/pdf.js";
import { runLetters } from "../engine/letters.js";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import type { CommandResult } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { printedPath, terminalSafe } from "../terminal-text.js";
import { VERSION } from "../version.js";
import type { PortinCommand } from "./command.js";
import { connect, withConnectionOptions, type ConnectionArgs } from "./connection.js";
import { COMMAND_LINES } from "./names.js";
import { defaultsPath } from "./run-paths.js";
import { noticeLeftOut, openCommandSheet, SHEET_INPUT, withSheetOptions } from "./sheet-input.js";
import { nonEmptyPath } from "./values.js";

interface LoaArgs extends ConnectionArgs {
  input: string;
  sheet?: string;
  encoding: string;
  expandRanges: boolean;
  output?: string;
  defaults?: string;
  language?: "en" | "fr";
}

function loaOptions(yargs: Argv): Argv<LoaArgs> {
  return withConnectionOptions(
    withSheetOptions(yargs)
      .positional("input", SHEET_INPUT)
      .options({
        output: { type: "string", requiresArg: true, coerce: nonEmptyPath("output"), describe: "the folder to write the letters in, made if missing [default: <input without extension>.loa]" },
        defaults: { type: "string", requiresArg: true, coerce: nonEmptyPath("defaults"), describe: "the --defaults submit will be given [default: <input without .csv>.defaults.json, if it exists]" },
        language: {
          choices: ["en", "fr"] as const,
          requiresArg: true,
          describe: "write every letter in English or French [default: French for a customer whose rows' item.Locale is FrenchCA, else English]",
        },
      }),
  );
}

async function run(args: LoaArgs, io: CommandIO): Promise<CommandResult> {
  const output = args.output ?? defaultOutput(args.input);
  const defaults = defaultsPath(args);
  if (defaults !== null && args.defaults === undefined) io.stderr.write(notices.usingDefaults(printedPath(defaults)));
  const opened = await openCommandSheet(args, io);
  try {
    const connection = await connect(args, io);
    try {
      const report = await runLetters(
        { sheet: opened.sheet, defaults: opened.defaults, output, language: args.language ?? null, expandRanges: args.expandRanges, producer: `portin ${VERSION}` },
        connection.client,
      );
      noticeLeftOut(opened.sheet, io);
      for (const row of report.invalid) {
        const number = row.number === "" ? "" : ` (${formatNumber(row.number)})`;
        io.stderr.write(terminalSafe(notices.rowInNoLetter(row.line, number, row.reason)) + "\n");
      }
      for (const letter of report.letters) {
        const { numbers, customer } = letter.content;
        io.stderr.write(`portin loa: ${printedPath(letter.path)}: ` + terminalSafe(notices.letterOf(customer, numbers.length, letter.language === "fr")) + "\n");
      }
      io.stderr.write(notices.lettersWritten(report.letters.length, printedPath(output), report.invalid.length));
      return { kind: "letters", report };
    } finally {
      await connection.close();
    }
  } finally {
    await opened.sheet.close();
  }
}

/** `<input without extension>.loa`, beside the sheet. */
function defaultOutput(input: string): string {
  if (input === "-") throw new UsageError(commandLine.lettersNeedOutput());

  const { dir, name } = parse(input);
  return join(dir, `${name}.loa`);
}

export const loaCommand: PortinCommand<LoaArgs> = {
  ...COMMAND_LINES.loa,
  builder: (yargs) =>
    loaOptions(yargs)
      .example("$0 loa fixtures/sample.csv", "one PDF per customer of the sample sheet in fixtures/sample.loa/, to sign and attach as portform.FileLetterOfAuthorization")
      .example("$0 loa fixtures/sample.csv --language fr --output lettres", "every letter in French, in lettres/")
      .example("$0 loa acme.csv --base-url https://api.thinktel.ca/rest.svc --user acme", "the carriers named as the real service names them"),
  run,
};
