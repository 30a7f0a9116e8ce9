/**
 * Every exit code portin returns is decided here (docs/contract.md §7), from what a command
 * reports or from the error that stopped it. cli.ts turns them into the process's exit code,
 * api.ts hands them to a library's caller, and `submit`, `plan` and `status` also print
 * theirs in the --json summary.
 */
import type { LettersReport } from "./engine/letters.js";
import type { RunReport } from "./engine/port-in.js";
import type { StatusReport } from "./engine/status-run.js";
import { PortinError } from "./errors.js";
import { NEEDS_ATTENTION_STATES } from "./results/order-status.js";
import { e911Unsettled } from "./results/summary.js";
import type { RowStatus } from "./results/row-outcome.js";

/** What a command did, for its exit code. */
export type CommandResult =
  /** A lookup printed its list; the sandbox was stopped as it is meant to be, with Ctrl-C. */
  | { readonly kind: "done" }
  /** Stopped by SIGINT/SIGTERM before it had anything to report. */
  | { readonly kind: "interrupted"; readonly signal: string }
  /** A run of `submit` or `plan`. */
  | { readonly kind: "port-in"; readonly report: RunReport }
  /** A run of `status`. */
  | { readonly kind: "status"; readonly report: StatusReport }
  /** A run of `loa`: its invalid rows, in no letter, give the exit code `plan` would. */
  | { readonly kind: "letters"; readonly report: LettersReport };

const NEEDS_ATTENTION: readonly RowStatus[] = ["invalid", "rejected", "failed", "unknown"];

export function exitCodeOf(result: CommandResult): number {
  switch (result.kind) {
    case "done":
      return 0;
    case "interrupted":
      return exitCodeForSignal(result.signal);
    case "port-in":
      return exitCodeOfRun(result.report);
    case "status":
      return exitCodeOfStatus(result.report);
    case "letters":
      return result.report.invalid.length > 0 ? 1 : 0;
  }
}

/**
 * 130/143 after a signal; 1 when an order ended without porting (REJECTED, CANCELLED, …), is
 * unknown to the service, or could not be learned; else 0, rows never submitted included:
 * `submit` is the command that answers for those (docs/contract.md §7).
 */
export function exitCodeOfStatus(report: StatusReport): number {
  if (report.stopped) return exitCodeForSignal(report.stopped.signal);
  // A number that completed off its trunk or without 9-1-1 needs someone now (docs/contract.md §2 "9-1-1 addresses").
  if ((report.trunkProblems?.length ?? 0) > 0) return 1;
  return NEEDS_ATTENTION_STATES.some((state) => report.summary.states[state] > 0) ? 1 : 0;
}

/**
 * 2 when sending stopped on refused credentials or an unwritable journal, or the results could
 * not be written after sending; 130/143 after a signal; else by the rows.
 */
export function exitCodeOfRun(report: RunReport): number {
  if (report.unwritten !== null && report.stopped?.kind !== "signal") return 2;
  switch (report.stopped?.kind) {
    case "auth":
    case "journal":
      return 2;
    case "signal":
      return exitCodeForSignal(report.stopped.signal);
    case undefined:
      // A 9-1-1 record not known to be registered needs another run as much as a failed row does (docs/e911.md).
      return e911Unsettled(report.summary) > 0 ? 1 : exitCodeForCounts(report.summary.counts);
  }
}

/** 0 when every row is submitted, skipped or planned; 1 otherwise. */
export function exitCodeForCounts(counts: Readonly<Record<RowStatus, number>>): 0 | 1 {
  return NEEDS_ATTENTION.some((status) => counts[status] > 0) ? 1 : 0;
}

/** 2 for anything that stopped a command: a user's mistake (a PortinError) or a bug. */
export function exitCodeOfError(error: unknown): number {
  return error instanceof PortinError ? error.exitCode : 2;
}

/** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number). */
export function exitCodeForSignal(signal: unknown): 130 | 143 {
  return signal === "SIGTERM" ? 143 : 130;
}
