/**
 * How `submit`, `plan` and `status` open the same sheet the same way (docs/contract.md §3):
 * `--sheet`, `--encoding` and `--expand-ranges`, and the `--defaults` file's "columns"
 * mapping, so that `status` reads a customer's sheet exactly as the `submit` that sent it did.
 */
import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import { checkEncoding, UTF8 } from "../input/decode.js";
import { openSheet } from "../input/sheet.js";
import { describeLeftOut } from "../input/totals-row.js";
import type { Sheet } from "../input/reader.js";
import type { CommandIO } from "../io.js";
import { columnMapOf, readDefaultsFile } from "../validate/defaults.js";
import type { DefaultsFile } from "../validate/defaults.js";
import { defaultsPath } from "./run-paths.js";
import { dashMeansStdio } from "./values.js";
import { noticeOpenSheet } from "./sheet-notices.js";

export interface SheetArgs {
  input: string;
  defaults?: string;
  sheet?: string;
  encoding: string;
  expandRanges: boolean;
}

type SheetOptions = Pick<SheetArgs, "sheet" | "encoding" | "expandRanges">;

/** The `<input>` positional of every command that reads the sheet `submit` was given. */
export const SHEET_INPUT = {
  type: "string",
  demandOption: true,
  coerce: dashMeansStdio,
  describe: "the sheet submit was given: a CSV or workbook (.xlsx, .xls, .ods) path, or - for CSV on standard input",
} as const;

/** Adds --sheet, --encoding and --expand-ranges. */
export function withSheetOptions<T>(yargs: Argv<T>): Argv<T & SheetOptions> {
  return yargs.options({
    sheet: {
      type: "string",
      requiresArg: true,
      coerce: (value: unknown): string => {
        if (typeof value === "string" && value.trim() !== "") return value;
        throw new UsageError(commandLine.emptySheetName(String(value)));
      },
      describe: "the worksheet of a workbook input to read [default: the first visible one]",
    },
    encoding: {
      type: "string",
      default: UTF8,
      requiresArg: true,
      coerce: checkEncoding,
      describe: "the sheet's encoding when it is not UTF-8: windows-1252 for Excel's plain \"CSV\"; a UTF-16 byte order mark is read without it",
    },
    "expand-ranges": {
      type: "boolean",
      default: false,
      describe: "read a number cell written as a range (416-555-3720 - 3729) as each of its numbers, with a results row each",
    },
  }) as unknown as Argv<T & SheetOptions>;
}

/** The sheet, opened, and the --defaults file it was opened with (read once), or null for none. */
export interface CommandSheet {
  readonly sheet: Sheet;
  readonly defaults: DefaultsFile | null;
}

/** Reads the defaults file, then opens the sheet with its column mapping: header problems refuse it before anything connects. */
export async function openCommandSheet(args: SheetArgs, io: CommandIO): Promise<CommandSheet> {
  const path = defaultsPath(args);
  const defaults = path === null ? null : await readDefaultsFile(path);
  const columns = defaults === null ? undefined : columnMapOf(defaults);
  noticeOpenSheet(args.input, io);
  const sheet = await openSheet(args.input, {
    // Read only for a sheet named `-`: node makes standard input's stream at its first read (cli.ts).
    get stdin() {
      return io.stdin;
    },
    encoding: args.encoding,
    sheet: args.sheet,
    ...(columns === undefined ? {} : { columns }),
  });
  return { sheet, defaults };
}

/** Names, once a run has read the sheet, the totals rows it left out (docs/contract.md §3): once a run, never as invalid rows. */
export function noticeLeftOut(sheet: Sheet, io: CommandIO): void {
  for (const row of sheet.leftOut()) io.stderr.write(notices.totalsRowLeftOut(describeLeftOut(row)));

}
