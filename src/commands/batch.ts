import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import { DEFAULT_MAX_PER_REQUEST } from "../plan/plan.js";
import { runBatch } from "../run/batch.js";
import { DEFAULT_CONCURRENCY } from "../send/dispatch.js";
import { DEFAULT_RETRIES } from "../service/client.js";
import type { PortinCommand } from "./command.js";
import { withConnectionOptions, type ConnectionArgs } from "./connection.js";

interface BatchArgs extends ConnectionArgs {
  input: string;
  results?: string;
  defaults?: string;
  state?: string;
  concurrency: number;
  rate?: number;
  maxPerRequest: number;
  retries: number;
  retryUnknown: boolean;
  json: boolean;
}

/** A yargs coerce that refuses, with the offending value, anything but a whole number >= min. */
function wholeNumber(option: string, min: number) {
  return (value: unknown): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${option} takes a whole number >= ${min}, not "${String(value)}"`);
    return n;
  };
}

/**
 * yargs turns a lone "-" into "" (yargs/yargs#1312, yargs-parser#381); "-" is how SPEC spells
 * standard input and output, and an empty path names no file, so "" can only have been "-".
 */
const dashMeansStdio = (value: string): string => (value === "" ? "-" : value);

function batchOptions(yargs: Argv): Argv<BatchArgs> {
  return withConnectionOptions(
    yargs
      .positional("input", { type: "string", demandOption: true, coerce: dashMeansStdio, describe: "the sheet: a CSV path, or - for standard input" })
      .options({
        results: {
          type: "string",
          coerce: dashMeansStdio,
          describe: "where to write the results CSV (- for stdout) [default: <input without .csv>.results.csv; stdout for stdin]",
        },
        defaults: {
          type: "string",
          describe:
            'JSON {"portForm": {…}, "request": {…}, "item": {…}} used where a row leaves a member empty [default: <input without .csv>.defaults.json, if it exists]',
        },
        state: {
          type: "string",
          describe: "the run journal [default: <input without .csv>.state.jsonl; none on the built-in sandbox or for stdin]",
        },
        concurrency: { type: "number", default: DEFAULT_CONCURRENCY, coerce: wholeNumber("concurrency", 1), describe: "requests in flight at most" },
        rate: { type: "number", coerce: wholeNumber("rate", 1), describe: "requests started per second at most [default: unlimited]" },
        "max-per-request": {
          type: "number",
          default: DEFAULT_MAX_PER_REQUEST,
          coerce: wholeNumber("max-per-request", 1),
          describe: "numbers per request at most",
        },
        retries: { type: "number", default: DEFAULT_RETRIES, coerce: wholeNumber("retries", 0), describe: "automatic retries of a retryable failure (429, 503, connection refused)" },
        "retry-unknown": { type: "boolean", default: false, describe: "resend requests whose outcome an earlier run could not learn" },
        json: { type: "boolean", default: false, describe: "print a machine-readable summary on stdout at the end" },
      }),
  ) as unknown as Argv<BatchArgs>;
}

function batchCommand(command: "submit" | "plan", describe: string, example: string): PortinCommand<BatchArgs> {
  return {
    command: `${command} <input>`,
    describe,
    builder: (yargs) => batchOptions(yargs).example(example, ""),
    run: (args, io) =>
      runBatch(
        {
          command,
          input: args.input,
          results: args.results,
          defaults: args.defaults,
          state: args.state,
          concurrency: args.concurrency,
          rate: args.rate ?? null,
          maxPerRequest: args.maxPerRequest,
          retries: args.retries,
          retryUnknown: args.retryUnknown,
          json: args.json,
          connection: args,
        },
        io,
      ),
  };
}

export const submitCommand = batchCommand(
  "submit",
  "validate, look up, group, send, and write results",
  "$0 submit numbers.csv --base-url https://api.thinktel.ca/rest.svc --defaults customer.json",
);

export const planCommand = batchCommand(
  "plan",
  "the dry run: everything submit does except the POSTs",
  "$0 plan numbers.csv --max-per-request 50",
);
