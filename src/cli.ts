#!/usr/bin/env node
/**
 * yargs wiring only, and the one place where what a command did, or the error that stopped
 * it, becomes the process's exit code (exit-codes.ts decides which).
 */
import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { planCommand, submitCommand } from "./commands/port-in.js";
import type { PortinCommand } from "./commands/command.js";
import { offeringsCommand, providersCommand, trunksCommand } from "./commands/lookups.js";
import { sandboxCommand } from "./commands/sandbox.js";
import { reportCommand } from "./commands/report.js";
import { statusCommand } from "./commands/status.js";
import { templateCommand } from "./commands/template.js";
import { PortinError, UsageError } from "./errors.js";
import { exitCodeForSignal, exitCodeOf, exitCodeOfError } from "./exit-codes.js";
import type { CommandIO } from "./io.js";
import { terminalSafe } from "./terminal-text.js";
import { suggestOptions } from "./closest.js";
import { VERSION } from "./version.js";

async function main(argv: string[]): Promise<number> {
  const interrupt = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (interrupt.signal.aborted) {
        // A second signal: the user means it. In-flight requests stay intents without
        // outcomes in the journal, so the next run reports them `unknown`.
        process.stderr.write(`portin: ${signal} again: exiting now\n`);
        process.exit(exitCodeForSignal(signal));
      }
      process.stderr.write(`portin: ${signal}: finishing requests in flight, then writing results (send it again to quit at once)\n`);
      interrupt.abort(signal);
    });
  }
  const io: CommandIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, signal: interrupt.signal };

  let exitCode = 0;
  let debug = argv.includes("--debug");
  const register = <A>(y: Argv, command: PortinCommand<A>): Argv =>
    y.command(command.command, command.describe, command.builder, async (args) => {
      exitCode = exitCodeOf(await command.run(args as A, io));
    });

  let cli: Argv = yargs(argv)
    .scriptName("portin")
    .usage("$0 <command> [options]\n\nPorts telephone numbers in, in bulk, through the Port-In Request Service.")
    .option("debug", { type: "boolean", default: false, describe: "print stack traces of errors" })
    .version(VERSION)
    .strict()
    .demandCommand(1, "name a command: submit, plan, status, report, template, trunks, offerings, providers or sandbox")
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(
      "Exit codes: 0 all rows submitted/skipped/planned (status: every order open or completed); 1 some rows invalid, rejected, failed or unknown " +
        "(status: an order ended without porting or could not be learned); 2 could not run; 130/143 interrupted.",
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
  for (const command of [submitCommand, planCommand, statusCommand, reportCommand, templateCommand, trunksCommand, offeringsCommand, providersCommand, sandboxCommand]) {
    cli = register(cli, command as PortinCommand<unknown>);
  }

  try {
    const parsed = await cli.parseAsync();
    debug = Boolean(parsed["debug"]);
    return exitCode;
  } catch (error) {
    return report(error, debug);
  }
}

function report(error: unknown, debug: boolean): number {
  if (error instanceof PortinError) {
    process.stderr.write(`portin: ${terminalSafe(error.message)}\n`);
    if (error instanceof UsageError) process.stderr.write("Run 'portin --help' for usage.\n");
    if (debug) process.stderr.write(`${error.stack ?? ""}\n`);
    return exitCodeOfError(error);
  }
  // A bug, not a user's mistake: say so, and keep the stack for --debug.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`portin: internal error: ${terminalSafe(message)}${debug ? "" : " (run with --debug for details)"}\n`);
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

const code = await main(joinDashValues(hideBin(process.argv)));
// Flush what is buffered for a pipe before leaving; lingering sockets must not hold the exit.
process.stdout.write("", () => process.exit(code));
