/**
 * How `submit`, `plan` and `status` open the same sheet the same way (docs/contract.md §3):
 * `--sheet`, `--encoding` and `--expand-ranges`, and the `--defaults` file's "columns"
 * mapping, so that `status` reads a customer's sheet exactly as the `submit` that sent it did.
 */
import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import { checkEncoding, UTF8 } from "../input/decode.js";
import { openSheet } from "../input/sheet.js";
import type { Sheet } from "../input/sheet.js";
import type { CommandIO } from "../io.js";
import { readColumnMap } from "../validate/defaults.js";
import { defaultsPath } from "./run-paths.js";

export interface SheetArgs {
  input: string;
  defaults?: string;
  sheet?: string;
  encoding: string;
  expandRanges: boolean;
}

type SheetOptions = Pick<SheetArgs, "sheet" | "encoding" | "expandRanges">;

/** Adds --sheet, --encoding and --expand-ranges. */
export function withSheetOptions<T>(yargs: Argv<T>): Argv<T & SheetOptions> {
  return yargs.options({
    sheet: {
      type: "string",
      requiresArg: true,
      coerce: (value: unknown): string => {
        if (typeof value === "string" && value.trim() !== "") return value;
        throw new UsageError(`--sheet needs a worksheet's name, not "${String(value)}"`);
      },
      describe: "the worksheet of an .xlsx input to read [default: the first visible one]",
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

/** Opens the sheet with the defaults file's column mapping: header problems refuse it before anything connects. */
export async function openCommandSheet(args: SheetArgs, io: CommandIO): Promise<Sheet> {
  const defaults = defaultsPath(args);
  const columns = defaults === null ? undefined : await readColumnMap(defaults);
  return openSheet(args.input, { stdin: io.stdin, encoding: args.encoding, sheet: args.sheet, ...(columns === undefined ? {} : { columns }) });
}
