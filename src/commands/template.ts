/**
 * `portin template` (docs/contract.md §2): an empty sheet with exactly the columns one
 * operation takes, and one example row `plan` accepts as written, from the account's own
 * trunks, offerings and providers (hence the connection options).
 */
import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { stringify } from "csv-stringify/sync";
import type { Argv } from "yargs";
import { describeOperation, isOfferingType, OFFERING_TYPES, routeFor } from "../catalog/operations.js";
import { UsageError, OutputError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import * as output from "../messages/output.js";
import type { CommandResult } from "../exit-codes.js";
import { templateFor } from "../input/template.js";
import type { CommandIO } from "../io.js";
import { resultsFormat } from "../paths.js";
import { describeSystemError } from "../system-error.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { connect, withConnectionOptions, type ConnectionArgs } from "./connection.js";
import { dashMeansStdio, wholeNumber } from "./values.js";
import { printedPath } from "../terminal-text.js";

interface TemplateArgs extends ConnectionArgs {
  type?: number;
  trunk?: boolean;
  tollFree: boolean;
  output: string;
}

/** A UTF-8 BOM: Excel then opens the template as UTF-8, and saves it back as "CSV UTF-8", accents intact. */
const BOM = "\uFEFF";

function templateOptions(yargs: Argv): Argv<TemplateArgs> {
  return withConnectionOptions(
    yargs.options({
      type: { requiresArg: true, coerce: wholeNumber("type", 1, 7), describe: "the offering Type the numbers go onto, 1-7 (see portin offerings) [number]" },
      trunk: { type: "boolean", describe: "numbers go onto a SIP trunk (the default when --type is not given)" },
      "toll-free": { type: "boolean", default: false, describe: "toll-free numbers (only a trunk or Type 5 takes them)" },
      output: {
        type: "string",
        default: "-",
        requiresArg: true,
        coerce: dashMeansStdio,
        describe: "where to write the template: a .csv, an .xlsx workbook, or - for stdout (CSV); an existing file is never overwritten",
      },
    }),
  )
    .conflicts("type", "trunk")
    .example("$0 template --trunk --output acme.csv", "DIDs onto a SIP trunk: fill in acme.csv, then portin plan acme.csv")
    .example("$0 template --type 4 --output acme-lines.xlsx", "business lines (offering Type 4), as a workbook whose cells are text")
    .example("$0 template --type 5 --toll-free", "toll-free permanent call forwards, on standard output") as unknown as Argv<TemplateArgs>;
}

async function run(args: TemplateArgs, io: CommandIO): Promise<CommandResult> {
  const target = args.type === undefined ? ({ kind: "trunk" } as const) : isOfferingType(args.type) ? ({ kind: "offering", type: args.type } as const) : null;
  if (target === null) throw new UsageError(commandLine.notAnOfferingType(String(args.type)));
  const route = routeFor(target, args.tollFree ? "toll-free" : "regular");
  if (!route.ok) throw new UsageError(commandLine.tollFreeOntoType(String(args.type), route.reason));
  const op = route.operation;
  // Checked again when writing ("wx"); here so that a taken path stops before anything connects.
  if (args.output !== "-" && existsSync(args.output)) throw new OutputError(output.templateExists(args.output));

  const connection = await connect(args, io);
  let account;
  try {
    const { client } = connection;
    const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
    account = { trunks, offerings, providers };
  } finally {
    await connection.close();
  }
  const template = templateFor(op, account);
  const text = stringify([template.header, template.example]);
  if (args.output === "-") io.stdout.write(text);
  else {
    // The workbook writer is loaded only for a workbook, as the reader and the results writer are.
    // An .xlsx only: portin reads .xls and .ods (paths.ts isWorkbookPath), but writes neither.
    const bytes = resultsFormat(args.output) === "xlsx" ? await (await import("./template-workbook.js")).templateWorkbook(template.header, template.example) : BOM + text;
    try {
      // "wx": a template must never replace a sheet someone has filled in.
      await writeFile(args.output, bytes, { flag: "wx", mode: PRIVATE_FILE_MODE });
      await chmod(args.output, PRIVATE_FILE_MODE);
    } catch (error) {
      const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
      throw new OutputError(
        exists ? output.templateExists(args.output) : output.cannotWrite(args.output, describeSystemError(error)),
        { cause: error },
      );
    }
  }
  const what = target.kind === "trunk" ? "a SIP trunk" : `Type ${target.type} (${OFFERING_TYPES[target.type]})`;
  const required = template.example.filter((cell) => cell !== "").length;
  const where = args.output === "-" ? "standard output" : printedPath(args.output);
  io.stderr.write(notices.templateWritten(args.tollFree ? "toll-free" : "regular", what, describeOperation(op), where, template.header.length, required));
  if (template.missing !== null) io.stderr.write(notices.templateExampleInvalid(template.missing));
  return { kind: "done" };
}

export const templateCommand: PortinCommand<TemplateArgs> = {
  ...COMMAND_LINES.template,
  builder: templateOptions,
  run,
};
