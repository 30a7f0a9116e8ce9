/**
 * `plan` beside a running `submit` (docs/contract.md §5): `plan` only reads the journal, so a
 * `submit` may hold it meanwhile. The numbers that run has in flight are shown as in flight,
 * not as planned, and stderr says why.
 */
import { hostname } from "node:os";
import type { CommandIO } from "../io.js";
import * as notices from "../messages/notices.js";
import * as outcomes from "../messages/outcomes.js";
import { inFlight } from "../journal/in-flight.js";
import type { JournalIdentity } from "../journal/identity.js";
import { journalHolder } from "../journal/open.js";
import { journalLabel } from "../journal/place.js";
import type { JournalPlace } from "../journal/place.js";
import { printedPath, terminalSafe } from "../terminal-text.js";

export interface RunningSubmit {
  /** "pid 4242", or "pid 4242 on host build-2". */
  readonly who: string;
  /** Its requests' numbers with an intent and no outcome in the journal. */
  readonly numbers: ReadonlySet<string>;
}

/** The `submit` holding `state`, with what it has in flight, after saying so on stderr; null when no run holds it. */
export async function runningSubmit(state: JournalPlace, identity: JournalIdentity, io: CommandIO): Promise<RunningSubmit | null> {
  const holder = await journalHolder(state, identity);
  if (holder === null) return null;
  const { owner } = holder;
  const who = owner === null ? "" : `pid ${owner.pid}${owner.hostname === hostname() ? "" : ` on host ${owner.hostname}`}`;
  const running = owner === null ? null : inFlight(await holder.records(), owner.pid);
  if (running?.submit !== true) {
    // A `status` run, or a run that has not named itself yet: it has recorded nothing in flight.
    io.stderr.write(notices.otherRunHoldsJournal(terminalSafe(who), printedPath(journalLabel(state))));
    return null;
  }
  io.stderr.write(notices.submitHoldsJournal(terminalSafe(who), printedPath(journalLabel(state))));
  return { who, numbers: running.numbers };
}

/** The results message of a row whose number that run has in flight. */
export function inFlightMessage(running: RunningSubmit): string {
  return outcomes.inFlightElsewhere(running.who);

}
