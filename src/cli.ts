#!/usr/bin/env node
/**
 * yargs wiring only, and the one place where what a command did, or the error that stopped
 * it, becomes the process's exit code (exit-codes.ts decides which).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Argv } from "yargs";
import type { PortinCommand } from "./commands/command.js";
import { COMMAND_LINES, SHEET_COMMANDS, type CommandName } from "./commands/names.js";
import { PortinError, UsageError } from "./errors.js";
import * as notices from "./messages/notices.js";
import { exitCodeForSignal, exitCodeOf, exitCodeOfError } from "./exit-codes.js";
import { readsWorkbook, startReaderThreadAhead } from "./input/reader-start.js";
import type { CommandIO } from "./io.js";
import { terminalSafe } from "./terminal-text.js";
import { suggestOptions } from "./closest.js";
import { VERSION } from "./version.js";

/**
 * Each command's module, loaded only when its name is on the command line: start-up pays
 * for the command that runs, not for every command's dependencies (got, zod, csv-parse, …).
 */
const LOADERS: Readonly<Record<CommandName, () => Promise<unknown>>> = {
  submit: async () => (await import("./commands/port-in.js")).submitCommand,
  plan: async () => (await import("./commands/port-in.js")).planCommand,
  status: async () => (await import("./commands/status.js")).statusCommand,
  report: async () => (await import("./commands/report.js")).reportCommand,
  journal: async () => (await import("./commands/journal.js")).journalCommand,
  loa: async () => (await import("./commands/loa.js")).loaCommand,
  template: async () => (await import("./commands/template.js")).templateCommand,
  trunks: async () => (await import("./commands/lookups.js")).trunksCommand,
  offerings: async () => (await import("./commands/lookups.js")).offeringsCommand,
  providers: async () => (await import("./commands/lookups.js")).providersCommand,
  sandbox: async () => (await import("./commands/sandbox.js")).sandboxCommand,
};

/**
 * The commands that stop what they do at a signal and say what they did (requests in flight
 * finished, results written, docs/contract.md §4): each watches `io.signal`. Any other command
 * (report, loa, template) holds nothing a second signal would lose, and ends at the first.
 */
const ENDS_GRACEFULLY: ReadonlySet<string> = new Set(["submit", "plan", "status", "trunks", "offerings", "providers", "sandbox"]);

async function main(argv: string[]): Promise<number> {
  const interrupt = new AbortController();
  const graceful = ENDS_GRACEFULLY.has(argv.find((word) => Object.hasOwn(LOADERS, word)) ?? "");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (!graceful) {
        process.stderr.write(`portin: ${signal}: exiting now\n`);
        process.exit(exitCodeForSignal(signal));
      }
      if (interrupt.signal.aborted) {
        // A second signal: the user means it. In-flight requests stay intents without
        // outcomes in the journal (and waiting ones, if the first signal's withdrawal of them
        // has not reached the disk yet: docs/contract.md §4), so the next run asks about them.
        process.stderr.write(notices.signalAgain(signal));
        process.exit(exitCodeForSignal(signal));
      }
      process.stderr.write(notices.signalFirst(signal));
      interrupt.abort(signal);
    });
  }
  const io: CommandIO = {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made when read: node builds standard input's stream at its first use, and only a sheet named `-` reads it.
    get stdin() {
      return process.stdin;
    },
    signal: interrupt.signal,
  };

  let exitCode = 0;
  let debug = argv.includes("--debug");
  // Every word that names a command loads that command (a file named "plan" loads one more
  // module, harmlessly); the others are listed by name and description alone, and yargs
  // calls a command's builder only when it is the one run.
  const wanted = new Set(argv);
  const register = async (y: Argv, name: CommandName): Promise<Argv> => {
    const { command, describe } = COMMAND_LINES[name];
    if (!wanted.has(name)) return y.command(command, describe);
    const loaded = (await LOADERS[name]()) as PortinCommand<unknown>;
    return y.command(command, describe, loaded.builder, async (args) => {
      exitCode = exitCodeOf(await loaded.run(args, io));
    });
  };

  // A workbook's reading thread loads its script while yargs and the command load (input/reader-start.ts).
  if (readsWorkbook(argv, SHEET_COMMANDS)) startReaderThreadAhead();
  const { default: yargs } = await import("yargs");
  let cli: Argv = withUsersLanguage(yargs(argv))
    .scriptName("portin")
    .usage("$0 <command> [options]\n\nPorts telephone numbers in, in bulk, through the Port-In Request Service.")
    .option("debug", { type: "boolean", default: false, describe: "print stack traces of errors" })
    .version(VERSION)
    .strict()
    .demandCommand(1, "name a command: submit, plan, status, report, journal, loa, template, trunks, offerings, providers or sandbox")
    .recommendCommands()
    // Completes commands, options and their choices in bash and zsh (docs/contract.md §2).
    .completion("completion", "print a bash/zsh completion script: portin completion >> ~/.bashrc")
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(
      "Exit codes: 0 all rows submitted/skipped/planned (status: every order open or completed); 1 some rows invalid, rejected, failed or unknown " +
        "(status: an order ended without porting or could not be learned); 2 could not run; 130/143 interrupted.\n\n" +
        "Shell completion: portin completion >> ~/.bashrc. From Node: import { connect, plan, submit, status } from \"portin\" (docs/library.md).",
    )
    .fail((message, error, usage) => {
      // yargs wraps what an option's coerce throws in its own YError: unwrap our errors, and
      // treat its own complaints (unknown option, missing argument) as usage errors.
      const cause: unknown = (error as { cause?: unknown } | undefined)?.cause;
      if (cause instanceof PortinError) throw cause;
      if (error instanceof PortinError) throw error;
      if (!error || error.name === "YError") {
        // The options of the command being parsed, for a did-you-mean after a typo.
        const options = Object.keys((usage as unknown as { getDescriptions(): Record<string, unknown> }).getDescriptions());
        throw new UsageError(suggestOptions(error?.message ?? message, options));
      }
      throw error;
    });
  for (const name of Object.keys(COMMAND_LINES) as CommandName[]) cli = await register(cli, name);
  skipEagerHelp(cli);

  try {
    const parsed = await cli.parseAsync();
    debug = Boolean(parsed["debug"]);
    return exitCode;
  } catch (error) {
    return report(error, debug);
  }
}

/**
 * yargs's own words (its help headings, its complaints) in the user's language: LANG=fr_CA gives
 * "Commandes :". yargs reads its translations from a folder beside its own files; bundled
 * (scripts/bundle.ts) it looks beside the bundle and finds none, so they are read from its
 * installed folder and handed to it with its documented `updateLocale`. English, its own
 * language, needs nothing read.
 */
function withUsersLanguage(cli: Argv): Argv {
  const locale = cli.locale();
  if (/^en(?:[_-]|$)/i.test(locale)) return cli;
  let folder: string;
  try {
    folder = join(dirname(createRequire(import.meta.url).resolve("yargs/package.json")), "locales");
  } catch {
    return cli; // not found where node looks: yargs speaks English, as without a translation
  }
  // As yargs picks a file: the locale's own (fr_CA), else its language's (fr).
  for (const name of [locale, locale.split(/[_-]/)[0] ?? locale]) {
    try {
      return cli.updateLocale(JSON.parse(readFileSync(join(folder, `${name}.json`), "utf8")) as Record<string, string>);
    } catch {
      // no translation under this name: the next, or English
    }
  }
  return cli;
}

/**
 * yargs renders a command's whole --help before running it, in case the handler shows it
 * later (yargs lib/command.js, cacheHelpMessage): a sixth of a small `plan`'s CPU, measuring
 * every option's text. No handler here shows help (a usage error says to run --help), so the
 * rendering is skipped; should yargs's internals change, this does nothing.
 */
function skipEagerHelp(cli: Argv): void {
  const internals = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.();
  const usage = internals?.getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

function report(error: unknown, debug: boolean): number {
  if (error instanceof PortinError) {
    process.stderr.write(notices.failed(terminalSafe(error.message)));
    if (error instanceof UsageError) process.stderr.write(notices.usageHint());
    if (debug) process.stderr.write(`${error.stack ?? ""}\n`);
    return exitCodeOfError(error);
  }
  // A bug, not a user's mistake: say so, and keep the stack for --debug.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(notices.internalError(terminalSafe(message), debug));

  if (debug && error instanceof Error) process.stderr.write(`${error.stack ?? ""}\n`);
  return exitCodeOfError(error);
}

/**
 * yargs reads a lone "-" after an option as a positional, not as the option's value
 * (yargs/yargs#1312), so `--results -` would fail; `--results=-` is read as meant. Only
 * --results (and status's --output) take "-": after a flag such as --json, a "-" is the input.
 */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if ((arg === "--results" || arg === "--output") && argv[i + 1] === "-") {
      out.push(`${arg}=-`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

// `portin --version` alone is answered before this loads (launcher.ts, docs/contract.md §8).
// No top-level await: the build makes this file a CommonJS bundle (scripts/bundle.ts), which cannot await at its top.
void main(joinDashValues(process.argv.slice(2))).then((code) => {
  // Flush what is buffered for a pipe before leaving; lingering sockets must not hold the exit.
  process.stdout.write("", () => process.exit(code));
});
