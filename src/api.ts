/**
 * portin as a library (`import { connect, plan } from "portin"`): the commands `submit`,
 * `plan` and `status`, each a function of an options object (the command's options, in
 * camelCase, defaults as on the command line) and a client from `connect`. They write the
 * same files as the commands, and resolve to the report and the exit code the command would
 * have ended with (docs/contract.md §7); a PortinError is thrown where the command would
 * have printed one and exited 2.
 *
 * `portin report` asks no service and is not here yet: run the command for it.
 */
import { PassThrough } from "node:stream";
import type { Connection } from "./commands/connection.js";
import { connect as connectCommand } from "./commands/connection.js";
import { portIn, type PortInArgs } from "./commands/port-in.js";
import { status as statusCommand, type StatusArgs } from "./commands/status.js";
import type { RunReport } from "./engine/port-in.js";
import type { StatusReport } from "./engine/status-run.js";
import { exitCodeOf } from "./exit-codes.js";
import type { CommandIO } from "./io.js";
import { UTF8 } from "./input/decode.js";
import { DEFAULT_MAX_PER_REQUEST } from "./group/requests.js";
import { DEFAULT_CONCURRENCY } from "./send/dispatch.js";
import { SILENT_AFTER_BUSINESS_DAYS } from "./journal/history.js";
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "./service/client.js";

export type { Connection } from "./commands/connection.js";
export type { RunReport } from "./engine/port-in.js";
export type { StatusReport } from "./engine/status-run.js";
export { PortinError } from "./errors.js";

/** Where a library call writes what the command would print; by default nothing is printed. */
export interface Output {
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
  /** Aborting it is the command's Ctrl-C: requests in flight finish, results are written. */
  readonly signal?: AbortSignal;
}

/** --base-url, --user, --password, --timeout and --allow-insecure-http; no baseUrl starts the built-in sandbox. */
export type ConnectOptions = Partial<Pick<StatusArgs, "baseUrl" | "user" | "password" | "allowInsecureHttp">> & { readonly timeoutMs?: number };

/** The options of `portin submit` and `portin plan`; only `input` is required. */
export type PortInOptions = Partial<Omit<PortInArgs, keyof ConnectOptions | "timeout" | "json" | "quiet">> & { readonly input: string };

/** The options of `portin status`; only `input` is required. */
export type StatusOptions = Partial<Omit<StatusArgs, keyof ConnectOptions | "timeout" | "json">> & { readonly input: string };

export interface Outcome<R> {
  readonly report: R;
  /** What the command would have exited with. */
  readonly exitCode: number;
}

/** A client of the service at `baseUrl`, or of a built-in sandbox started for it; `close()` it when done. */
export async function connect(options: ConnectOptions = {}, output: Output = {}): Promise<Connection> {
  return connectCommand({ ...options, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, allowInsecureHttp: options.allowInsecureHttp ?? false }, commandIO(output));
}

/** `portin submit`: validates, looks up, groups, sends, and writes results. */
export function submit(options: PortInOptions, client: Connection, output: Output = {}): Promise<Outcome<RunReport>> {
  return runPortIn("submit", options, client, output);
}

/** `portin plan`: everything submit does except the POSTs. */
export function plan(options: PortInOptions, client: Connection, output: Output = {}): Promise<Outcome<RunReport>> {
  return runPortIn("plan", options, client, output);
}

/** `portin status`: the live status of every submitted number's port-in order. */
export async function status(options: StatusOptions, client: Connection, output: Output = {}): Promise<Outcome<StatusReport>> {
  const args: StatusArgs = { encoding: UTF8, expandRanges: false, concurrency: DEFAULT_CONCURRENCY, retries: DEFAULT_RETRIES, resultColumns: "last", silentAfter: SILENT_AFTER_BUSINESS_DAYS, ...options, ...connectionArgs(), json: false };
  const result = await statusCommand(args, commandIO(output), client);
  if (result.kind !== "status") throw new Error(`portin status ended as ${result.kind}`);
  return { report: result.report, exitCode: exitCodeOf(result) };
}

async function runPortIn(command: "submit" | "plan", options: PortInOptions, client: Connection, output: Output): Promise<Outcome<RunReport>> {
  const args: PortInArgs = {
    encoding: UTF8,
    expandRanges: false,
    concurrency: DEFAULT_CONCURRENCY,
    maxPerRequest: DEFAULT_MAX_PER_REQUEST,
    retries: DEFAULT_RETRIES,
    retryUnknown: false,
    retryRejected: false,
    checkPortability: false,
    orderCheck: true,
    resultColumns: "last",
    ...options,
    ...connectionArgs(),
    json: false,
    quiet: true,
  };
  const result = await portIn(command, args, commandIO(output), client);
  if (result.kind !== "port-in") throw new Error(`portin ${command} ended as ${result.kind}`);
  return { report: result.report, exitCode: exitCodeOf(result) };
}

/** The client is given: the connection options only fill the type. */
function connectionArgs(): Pick<PortInArgs, "timeout" | "allowInsecureHttp"> {
  return { timeout: DEFAULT_TIMEOUT_MS, allowInsecureHttp: false };
}

function commandIO(output: Output): CommandIO {
  const discard = () => new PassThrough().resume();
  return { stdout: output.stdout ?? discard(), stderr: output.stderr ?? discard(), stdin: new PassThrough().end(), signal: output.signal ?? new AbortController().signal };
}
