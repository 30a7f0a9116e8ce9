/**
 * `portin sandbox` (docs/contract.md §2): serves the built-in simulator of the Port-In Request Service
 * until SIGINT/SIGTERM. The base URL goes alone on stdout, so scripts can capture it.
 */
import * as e911Words from "../messages/e911.js";
import type { Argv } from "yargs";
import { parseStartDate } from "../sandbox/clock.js";
import { DEFAULT_REJECT_RATE, DEFAULT_SANDBOX_PASSWORD, DEFAULT_SANDBOX_PORT, DEFAULT_SANDBOX_USER, startSandbox } from "../sandbox/server.js";
import * as notices from "../messages/notices.js";
import type { SandboxOptions } from "../sandbox/server.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { share, wholeNumber } from "./values.js";
import { UsageError } from "../errors.js";

/** The numeric options arrive as yargs left them (number or string) and are checked in run(). */
export interface SandboxArgs {
  port: unknown;
  user: string;
  password: string;
  account?: string;
  latency: unknown;
  failRate: unknown;
  throttleRate: unknown;
  seed?: unknown;
  rejectRate: unknown;
  daySeconds: unknown;
  startDate?: string;
  orderListDown: boolean;
  statusLag: unknown;
  e911RefuseCity?: unknown;
  e911FailRate: unknown;
  offTrunk?: unknown;
}

const MAX_PORT = 65535;
const MAX_LATENCY_MS = 600_000;
// mulberry32 takes a 32-bit seed.
const MAX_SEED = 2 ** 32 - 1;
// A sandbox day of more than a real day is a typo; so is a status lag of more than a day.
const MAX_DAY_SECONDS = 86_400;
const MAX_STATUS_LAG_SECONDS = 86_400;

// The numeric options are checked in run() by the shared checkers of values.ts.
function sandboxOptions(yargs: Argv): Argv<SandboxArgs> {
  return yargs
    .options({
      port: { default: DEFAULT_SANDBOX_PORT, requiresArg: true, describe: "port to listen on, on 127.0.0.1; 0 picks a free one [number]" },
      user: { type: "string", default: DEFAULT_SANDBOX_USER, requiresArg: true, describe: "the user name clients must send" },
      password: { type: "string", default: DEFAULT_SANDBOX_PASSWORD, requiresArg: true, describe: "the password clients must send" },
      account: {
        type: "string",
        requiresArg: true,
        describe:
          'JSON file of trunks, offerings, providers, unportable numbers and orders placed in the web portal ("orders": [{"numbers": ["4165550100-0199"], "status"?, "ticket"?}]) [default: fixtures/sandbox-account.json]',
      },
      latency: { default: 0, requiresArg: true, describe: "time from each request's arrival to its answer, in milliseconds [number]" },
      "fail-rate": { default: 0, requiresArg: true, describe: "share of port-in POSTs answered 500, half of them after accepting the request [number]" },
      "throttle-rate": { default: 0, requiresArg: true, describe: "share of port-in POSTs answered 429 with Retry-After [number]" },
      seed: { requiresArg: true, describe: "seed of the fault draws and of the carriers' rejections, to replay a run [default: random, printed on stderr]" },
      "reject-rate": {
        default: DEFAULT_REJECT_RATE,
        requiresArg: true,
        describe: "share of accepted orders the losing carrier rejects, a business day after they are accepted [number]",
      },
      "day-seconds": {
        default: 0,
        requiresArg: true,
        describe: "real seconds per sandbox day; 0: days pass only by POST /_sandbox/clock {\"advanceDays\": n} [number]",
      },
      "start-date": { type: "string", requiresArg: true, describe: "the sandbox's first day, YYYY-MM-DD [default: today, UTC]" },
      "order-list-down": {
        type: "boolean",
        default: false,
        describe: "the account's order list (GET …/Dashboard/PortInInfo) answers 500, to test a client that must go on without it",
      },
      "status-lag": {
        default: 0,
        requiresArg: true,
        describe: "PortInStatus answers 404 for an order accepted less than this many real seconds ago, while the order list shows it at once [number]",
      },
      "e911-refuse-city": {
        type: "string",
        array: true,
        requiresArg: true,
        describe: 'a city the 9-1-1 database does not know, and the one it suggests: "Torontoo=Toronto" (repeatable)',
      },
      "e911-fail-rate": { default: 0, requiresArg: true, describe: "share of 9-1-1 registrations (POST, PUT /v2/V911s) answered 500 after the record was made [number]" },
      "off-trunk": { type: "string", array: true, requiresArg: true, describe: "a number its completed port leaves off its trunk (repeatable)" },
    })
    .example("$0 sandbox --port 0 --fail-rate 0.1 --throttle-rate 0.2 --seed 42", "serve on a free port; 10% of POSTs fail, 20% are throttled, repeatably")
    .example("$0 sandbox --day-seconds 60 --reject-rate 0.5", "a sandbox day passes every minute; the carriers reject half the orders")
    .example("$0 sandbox --port 0 --status-lag 30", "an accepted order is in the order list at once, but in PortInStatus only 30 s later") as unknown as Argv<SandboxArgs>;
}

/** Every option checked once, up front, before anything listens. */
export function sandboxOptionsFrom(args: SandboxArgs): SandboxOptions {
  return {
    port: wholeNumber("port", 0, MAX_PORT)(args.port),
    user: args.user,
    password: args.password,
    latencyMs: wholeNumber("latency", 0, MAX_LATENCY_MS, " of milliseconds")(args.latency),
    failRate: share("fail-rate")(args.failRate),
    throttleRate: share("throttle-rate")(args.throttleRate),
    rejectRate: share("reject-rate")(args.rejectRate),
    daySeconds: wholeNumber("day-seconds", 0, MAX_DAY_SECONDS, " of seconds")(args.daySeconds),
    orderListDown: args.orderListDown,
    statusLagSeconds: wholeNumber("status-lag", 0, MAX_STATUS_LAG_SECONDS, " of seconds")(args.statusLag),
    e911FailRate: share("e911-fail-rate")(args.e911FailRate),
    e911RefusedCities: refusedCities(args.e911RefuseCity),
    offTrunk: offTrunk(args.offTrunk),
    ...(args.startDate === undefined ? {} : { startDate: checkedDate(args.startDate) }),
    ...(args.account === undefined ? {} : { accountFile: args.account }),
    ...(args.seed === undefined ? {} : { seed: wholeNumber("seed", 0, MAX_SEED)(args.seed) }),
  };
}

/** `--e911-refuse-city Torontoo=Toronto`, each as given: the city refused, then the one suggested. */
function refusedCities(given: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of listOf(given)) {
    const at = pair.indexOf("=");
    const city = pair.slice(0, at).trim();
    const suggested = pair.slice(at + 1).trim();
    if (at < 0 || city === "" || suggested === "") throw new UsageError(e911Words.refuseCityForm(pair));
    out[city] = suggested;
  }
  return out;
}

/** `--off-trunk 4165550101`: 10-digit numbers. */
function offTrunk(given: unknown): string[] {
  return listOf(given).map((number) => {
    if (!/^\d{10}$/.test(number.trim())) throw new UsageError(e911Words.offTrunkForm(number));
    return number.trim();
  });
}

function listOf(given: unknown): string[] {
  if (given === undefined) return [];
  return (Array.isArray(given) ? given : [given]).map(String);
}

function checkedDate(text: string): string {
  parseStartDate(text);
  return text;
}

export const sandboxCommand: PortinCommand<SandboxArgs> = {
  ...COMMAND_LINES.sandbox,
  builder: sandboxOptions,
  run: async (args, io) => {
    const sandbox = await startSandbox({ ...sandboxOptionsFrom(args), keepReceived: false, log: (line) => io.stderr.write(`sandbox: ${line}\n`) });
    io.stdout.write(`${sandbox.url}\n`);
    // The password is the user's to know: it is never echoed, not even the sandbox's.
    io.stderr.write(notices.sandboxServing(sandbox.url, sandbox.user, String(sandbox.seed)));

    await aborted(io.signal);
    await sandbox.close();
    // Ctrl-C is how a sandbox is meant to stop: its normal end, not an interruption (docs/contract.md §7).
    return { kind: "done" };
  },
};

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
