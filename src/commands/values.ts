/**
 * Option values, checked once, up front, with the offending value in the message. Options
 * carry no yargs `type: "number"`: it would turn "abc" into NaN before we could name it.
 */
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import { resultsFormat } from "../paths.js";

const numberFrom = (value: unknown): number =>
  typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;

/** A whole number in min..max, or a UsageError naming the option and the value given. */
export function wholeNumber(option: string, min: number, max = Number.MAX_SAFE_INTEGER, unit = "") {
  return (value: unknown): number => {
    const n = numberFrom(value);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    const range = commandLine.wholeNumberRange(min, max === Number.MAX_SAFE_INTEGER ? null : max);
    throw new UsageError(commandLine.notAWholeNumber(option, unit, range, String(value)));
  };
}

/** A number above 0, fractions allowed: `--rate 0.5` is one request every 2 s. */
export function positiveNumber(option: string, example: string) {
  return (value: unknown): number => {
    const n = numberFrom(value);
    if (Number.isFinite(n) && n > 0) return n;
    throw new UsageError(commandLine.notAPositiveNumber(option, example, String(value)));
  };
}

/** A share from 0 to 1, for fault rates. */
export function share(option: string) {
  return (value: unknown): number => {
    const n = numberFrom(value);
    if (Number.isFinite(n) && n >= 0 && n <= 1) return n;
    throw new UsageError(commandLine.notAShare(option, String(value)));
  };
}

/**
 * A file path that must not be empty: `--state "$STATE"` with STATE unset must not quietly
 * mean "no journal", which would let a re-run send every number again.
 */
export function nonEmptyPath(option: string) {
  return (value: unknown): string => {
    if (typeof value === "string" && value.trim() !== "") return value;
    throw new UsageError(commandLine.emptyPath(option, String(value)));
  };
}

/**
 * yargs turns a lone "-" positional into "" (yargs/yargs#1312, yargs-parser#381); "-" is how
 * The contract spells standard input, and an empty path names no file, so "" can only have been "-".
 * (`--results -` is joined into `--results=-` in cli.ts, which yargs reads as meant.)
 */
export const dashMeansStdio = (value: unknown): string => (value === "" ? "-" : String(value));

/** Beyond these a typo is likelier than a wish: 64 in flight already saturates a core (bench/README.md). */
export const MAX_CONCURRENCY = 256;
export const MAX_RETRIES = 20;

/**
 * A `--results` or `--output` path in a format portin writes (docs/contract.md §2): `.csv`
 * (or `.txt`, `.tsv`: delimited text in the input's delimiter), `.xlsx`, `.jsonl` or "-"; any other is refused before anything is read or sent, rather than
 * written as CSV under a name that says otherwise.
 */
export function resultsPath(option: string) {
  const path = nonEmptyPath(option);
  return (value: unknown): string => {
    const given = path(value);
    if (resultsFormat(given) !== null) return given;
    throw new UsageError(commandLine.notAResultsFormat(option, given));
   };
}
