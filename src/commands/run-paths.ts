/**
 * The files a `submit` or `plan` run reads and writes, resolved before the engine runs
 * (docs/contract.md §2): beside the sheet by default, named so that neither a dry run nor a
 * run on the built-in sandbox can overwrite a real run's results.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as notices from "../messages/notices.js";
import type { CommandIO } from "../io.js";
import { journalService } from "../journal/read.js";
import { postgresPlace } from "../journal/place.js";
import type { JournalPlace } from "../journal/place.js";
import { besideInput, defaultResultsPath, defaultStatePath, defaultStatusPath } from "../paths.js";
import { printedPath, terminalSafe } from "../terminal-text.js";

export interface RunPathArgs {
  readonly input: string;
  readonly results?: string | undefined;
  readonly defaults?: string | undefined;
  readonly state?: string | undefined;
  /** `--journal` or PORTIN_JOURNAL: a postgres:// URL (docs/shared-journal.md). */
  readonly journal?: string | undefined;
}

export interface RunPaths {
  readonly results: string;
  readonly defaults: string | null;
  readonly state: JournalPlace | null;
}

/** Resolves the paths, says on stderr what a user could not guess, and refuses paths that would overwrite each other. */
export async function resolveRunPaths(args: RunPathArgs, command: "submit" | "plan", sandbox: boolean, io: CommandIO): Promise<RunPaths> {
  const results = args.results ?? defaultResultsPath(args.input, command === "plan" ? "plan" : sandbox ? "sandbox" : "submit");
  const { defaults, state } = await besideTheSheet(args, results, "--results", sandbox, io);
  if (state === null && !sandbox && command === "submit") {
    io.stderr.write(notices.noJournal());
  }
  return { results, defaults, state };
}

/**
 * Where the built-in sandbox keeps its orders between runs of this sheet (docs/contract.md §2):
 * `<input without .csv>.sandbox.orders.json`, sandbox-named like its results; none for
 * standard input, which has no place to keep them.
 */
export function sandboxOrdersPath(input: string): string | null {
  return input === "-" ? null : besideInput(input, ".sandbox.orders.json");
}

/** `--defaults`, or the defaults file beside the sheet; null for none. */
export function defaultsPath(args: Pick<RunPathArgs, "input" | "defaults">): string | null {
  return args.defaults ?? defaultsBeside(args.input);
}

export interface StatusPathArgs {
  readonly input: string;
  readonly output?: string | undefined;
  readonly defaults?: string | undefined;
  readonly state?: string | undefined;
  readonly journal?: string | undefined;
}

export interface StatusPaths {
  readonly output: string;
  readonly defaults: string | null;
  readonly state: JournalPlace | null;
}

/** The files `portin status` reads and writes, defaulted beside the sheet as `submit`'s are. */
export async function resolveStatusPaths(args: StatusPathArgs, sandbox: boolean, io: CommandIO): Promise<StatusPaths> {
  const output = args.output ?? defaultStatusPath(args.input, sandbox);
  return { output, ...(await besideTheSheet(args, output, "--output", sandbox, io)) };
}

/**
 * What every command on a sheet resolves alike: its journal and defaults beside it, the
 * paths that must not overwrite each other, and the notices a user could not guess.
 */
async function besideTheSheet(
  args: Pick<RunPathArgs, "input" | "defaults" | "state" | "journal">,
  output: string,
  outputOption: string,
  sandbox: boolean,
  io: CommandIO,
): Promise<{ readonly defaults: string | null; readonly state: JournalPlace | null }> {
  const shared = sharedJournal(args);
  // With the in-process sandbox no journal is kept unasked: its tickets are make-believe.
  const state = shared ?? args.state ?? (sandbox ? null : defaultStatePath(args.input));
  const defaults = defaultsPath(args);
  refuseOverwrites(args.input, output, typeof state === "string" ? state : null, outputOption);
  if (sandbox) await noticeRealJournal(args.input, output, io);
  if (defaults !== null && args.defaults === undefined) io.stderr.write(notices.usingDefaults(printedPath(defaults)));
  return { defaults, state };
}

/**
 * The shared journal `--journal` (or PORTIN_JOURNAL) names, or null for a file journal
 * (docs/shared-journal.md). UsageError when `--state` names a file journal too: one run keeps one journal.
 */
export function sharedJournal(args: Pick<RunPathArgs, "state" | "journal">): JournalPlace | null {
  if (args.journal === undefined) return null;
  if (args.state !== undefined) throw new UsageError(commandLine.STATE_AND_JOURNAL);
  return postgresPlace(args.journal, "--journal");
}

/**
 * `<input without .csv>.defaults.json`, when such a file exists: a customer's sheet and the
 * members it states once travel together, like its results and state files.
 */
function defaultsBeside(input: string): string | null {
  if (input === "-") return null;
  const path = besideInput(input, ".defaults.json");
  return existsSync(path) ? path : null;
}

/**
 * A sandbox run beside a real migration's journal is most likely a forgotten PORTIN_BASE_URL:
 * say so, since the sandbox's "submitted" rows port nothing.
 */
async function noticeRealJournal(input: string, results: string, io: CommandIO): Promise<void> {
  const journal = defaultStatePath(input);
  const service = journal === null ? null : await journalService(journal);
  if (journal === null || service === null || service.kind === "sandbox") return;
  io.stderr.write(notices.sandboxBesideRealJournal(terminalSafe(service.baseUrl), printedPath(journal), results === "-" ? "standard output" : printedPath(results)));
}

/** The results or the journal written over the sheet (or each other) would lose what they replace. */
function refuseOverwrites(input: string, results: string, state: string | null, resultsOption = "--results"): void {
  refuseSamePaths([
    ["the input sheet", input],
    [resultsOption, results],
    ["--state", state],
  ]);
}

/** Refuses two of the named paths (null or "-" for none) that are the same file: the later one would replace the earlier. */
export function refuseSamePaths(named: readonly (readonly [string, string | null])[]): void {
  const paths = named.filter((entry): entry is readonly [string, string] => entry[1] !== null && entry[1] !== "-");
  for (const [i, [a, pathA]] of paths.entries()) {
    for (const [b, pathB] of paths.slice(i + 1)) {
      if (resolve(pathA) === resolve(pathB)) throw new UsageError(commandLine.samePath(b, pathB, a));

    }
  }
}
