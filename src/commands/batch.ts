import type { Argv } from "yargs";
import { DEFAULT_MAX_PER_REQUEST } from "../plan/plan.js";
import { runBatch } from "../run/batch.js";
import { DEFAULT_CONCURRENCY } from "../send/dispatch.js";
import { DEFAULT_RETRIES } from "../service/client.js";
import type { PortinCommand } from "./command.js";
import { withConnectionOptions, type ConnectionArgs } from "./connection.js";
import { dashMeansStdio, nonEmptyPath, wholeNumber } from "./values.js";

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
  retryRejected: boolean;
  json: boolean;
}

/** Beyond these a typo is likelier than a wish: 64 in flight already saturates a core (see README, Performance). */
const MAX_CONCURRENCY = 256;
const MAX_RETRIES = 20;

function batchOptions(yargs: Argv): Argv<BatchArgs> {
  return withConnectionOptions(
    yargs
      .positional("input", { type: "string", demandOption: true, coerce: dashMeansStdio, describe: "the sheet: a CSV path, or - for standard input" })
      .options({
        results: {
          type: "string",
          requiresArg: true,
          coerce: nonEmptyPath("results"),
          describe:
            "where to write the results CSV (- for stdout) [default: <input without .csv>.results.csv; .plan.csv for plan; .sandbox.results.csv on the built-in sandbox; stdout for stdin]",
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
        concurrency: {
          default: DEFAULT_CONCURRENCY,
          requiresArg: true,
          coerce: wholeNumber("concurrency", 1, MAX_CONCURRENCY),
          describe: "requests in flight at most [number]",
        },
        rate: {
          requiresArg: true,
          coerce: wholeNumber("rate", 1),
          describe: "requests started per second at most [number] [default: unlimited]",
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
          retryRejected: args.retryRejected,
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
