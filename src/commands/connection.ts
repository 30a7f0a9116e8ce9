/**
 * The connection options every command but `sandbox` takes (docs/contract.md §2), and the one function
 * that turns them into a client: the real service, or the built-in sandbox in-process.
 */
import type { Argv } from "yargs";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import { checkBaseUrl } from "../service/base-url.js";
import { createClient, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "../service/client.js";
import type { ServiceClient } from "../service/client.js";
import { remoteService, SANDBOX_SERVICE } from "../service/service.js";
import type { Service } from "../service/service.js";
import { USER_AGENT } from "../version.js";
import type { CommandIO } from "../io.js";
import { wholeNumber } from "./values.js";
import { printedPath } from "../terminal-text.js";

export interface ConnectionArgs {
  baseUrl?: string;
  user?: string;
  password?: string;
  timeout: number;
  allowInsecureHttp: boolean;
}

export interface Connection {
  readonly client: ServiceClient;
  /** The real service at its base URL, or the built-in sandbox (whose port the journal never records). */
  readonly service: Service;
  readonly user: string;
  /** Stops the in-process sandbox; nothing to do for the real service. */
  close(): Promise<void>;
}

/** An environment variable set to "" means unset, as in most shells' eyes. */
const fromEnv = (name: string): string | undefined => process.env[name] || undefined;

/** Adds --base-url, --user, --password, --timeout and --allow-insecure-http. */
export function withConnectionOptions<T>(yargs: Argv<T>): Argv<T & ConnectionArgs> {
  // Environment defaults are read here, but help shows only the variable's name
  // (`defaultDescription`): the password's value must never reach --help output.
  return yargs.options({
    "base-url": {
      type: "string",
      default: fromEnv("PORTIN_BASE_URL"),
      requiresArg: true,
      defaultDescription: "$PORTIN_BASE_URL, else the built-in sandbox",
      describe: "the service's root URL, e.g. https://api.thinktel.ca/rest.svc; without one, nothing real is ported",
    },
    user: { type: "string", default: fromEnv("PORTIN_USER"), requiresArg: true, defaultDescription: "$PORTIN_USER", describe: "the service's user (HTTP Basic)" },
    password: {
      type: "string",
      default: fromEnv("PORTIN_PASSWORD"),
      requiresArg: true,
      defaultDescription: "$PORTIN_PASSWORD",
      describe: "the service's password (HTTP Basic); prefer $PORTIN_PASSWORD, which ps does not show",
    },
    timeout: {
      default: DEFAULT_TIMEOUT_MS,
      requiresArg: true,
      coerce: wholeNumber("timeout", 1, Number.MAX_SAFE_INTEGER, " of milliseconds"),
      describe: "milliseconds to wait for each request's answer [number]",
    },
    "allow-insecure-http": {
      type: "boolean",
      default: false,
      describe: "allow a plain http:// base URL to a host other than loopback (sends the password unencrypted)",
    },
  }) as unknown as Argv<T & ConnectionArgs>;
}

/**
 * Connects to --base-url with --user/--password, or, without --base-url, starts the
 * built-in sandbox on a free loopback port and says so on stderr.
 */
export interface ConnectExtra {
  retries?: number;
  onRetry?: () => void;
  /** Where the built-in sandbox keeps its orders between runs of one sheet (run-paths.ts sandboxOrdersPath); null or absent: nowhere. */
  sandboxOrders?: string | null;
}

export async function connect(args: ConnectionArgs, io: CommandIO, extra: ConnectExtra = {}): Promise<Connection> {
  const retries = extra.retries ?? DEFAULT_RETRIES;
  const common = { timeoutMs: args.timeout, retries, userAgent: USER_AGENT, ...(extra.onRetry === undefined ? {} : { onRetry: extra.onRetry }) };
  if (args.baseUrl === "") throw new UsageError(commandLine.emptyBaseUrl());
  if (args.baseUrl === undefined) {
    // Credentials without a service are a forgotten PORTIN_BASE_URL, not a wish for the
    // sandbox: a cron job would report "submitted" for numbers that were never ported.
    const given = [args.user !== undefined && "--user/PORTIN_USER", args.password !== undefined && "--password/PORTIN_PASSWORD"].filter(Boolean);
    if (given.length > 0) {
      throw new UsageError(commandLine.credentialsWithoutService(given.join(" and ")));
    }
    // Loaded only when used: a run against the real service never loads the simulator.
    const { startSandbox } = await import("../sandbox/server.js");
    const kept = extra.sandboxOrders ?? undefined;
    const sandbox = await startSandbox({ port: 0, ...(kept === undefined ? {} : { keepOrdersIn: kept }) });
    io.stderr.write(notices.usingSandbox(sandbox.url));
    // Its orders outlive the run, so that status and a re-run see what an earlier run sent (docs/contract.md §2).
    if (kept !== undefined) io.stderr.write(notices.sandboxKeepsOrders(printedPath(kept)));
    const close = async (): Promise<void> => {
      try {
        await sandbox.close();
      } catch (error) {
        // The run's own outcome stands; only the sandbox's memory of it is lost.
        if (!(error instanceof UsageError)) throw error;
        io.stderr.write(notices.failed(error.message));
      }
    };
    try {
      const client = createClient({ ...common, baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password, allowInsecureHttp: false });
      return { client, service: SANDBOX_SERVICE, user: sandbox.user, close };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  const base = checkBaseUrl(args.baseUrl, args.allowInsecureHttp);
  if (args.user === undefined || args.user === "") {
    throw new UsageError(commandLine.missingUser(base.href));
  }
  if (args.password === undefined || args.password === "") {
    throw new UsageError(commandLine.missingPassword(args.user, base.href));

  }
  const client = createClient({ ...common, baseUrl: args.baseUrl, user: args.user, password: args.password, allowInsecureHttp: args.allowInsecureHttp });
  return { client, service: remoteService(base.href), user: args.user, close: () => Promise.resolve() };
}
