/**
 * `plan` beside a running `submit` (docs/contract.md §5): `plan` only reads the journal, so a
 * `submit` may hold it meanwhile. The numbers that run has in flight are shown as in flight,
 * not as planned, and stderr says why.
 */
import { hostname } from "node:os";
import type { CommandIO } from "../io.js";
import { inFlight } from "../journal/in-flight.js";
import { lockHolder } from "../journal/lock.js";
import { readJournalFile } from "../journal/read.js";
import { printedPath, terminalSafe } from "../terminal-text.js";

export interface RunningSubmit {
  /** "pid 4242", or "pid 4242 on host build-2". */
  readonly who: string;
  /** Its requests' numbers with an intent and no outcome in the journal. */
  readonly numbers: ReadonlySet<string>;
}

/** The `submit` holding `state`, with what it has in flight, after saying so on stderr; null when no run holds it. */
export async function runningSubmit(state: string, io: CommandIO): Promise<RunningSubmit | null> {
  const holder = lockHolder(state);
  if (holder === null) return null;
  const { owner } = holder;
  const who = owner === null ? "" : `pid ${owner.pid}${owner.hostname === hostname() ? "" : ` on host ${owner.hostname}`}`;
  const running = owner === null ? null : inFlight((await readJournalFile(state)).records, owner.pid);
  if (running?.submit !== true) {
    // A `status` run, or a run that has not named itself yet: it has recorded nothing in flight.
    io.stderr.write(`portin: another portin run${who === "" ? "" : ` (${terminalSafe(who)})`} holds ${printedPath(state)}; it has no request in flight recorded there, so rows it may be about to send show as planned\n`);
    return null;
  }
  io.stderr.write(
    `portin: a submit run (${terminalSafe(who)}) holds ${printedPath(state)}: the numbers it has in flight are shown as in flight, not planned; rows it has not sent yet still show as planned\n`,
  );
  return { who, numbers: running.numbers };
}

/** The results message of a row whose number that run has in flight. */
export function inFlightMessage(running: RunningSubmit): string {
  return `in flight: being sent by the submit run (${running.who}) holding the journal; not planned here`;
}
