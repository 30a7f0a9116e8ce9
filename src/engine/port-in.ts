/**
 * The engine behind `submit` and `plan` (docs/architecture.md): prepare -> settle -> execute ->
 * write, each stage a function of its own file. The command hands it a ready client, the
 * journal's identity and resolved paths; it returns a report, from which exit-codes.ts
 * decides the exit code.
 */
import type { Sheet } from "../input/reader.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { CommandIO } from "../io.js";
import type { JournalIdentity } from "../journal/identity.js";
import { openJournalAt, readJournalAt } from "../journal/open.js";
import type { JournalPlace } from "../journal/place.js";
import { OutputError } from "../errors.js";
import type { RowOutcome } from "../results/row-outcome.js";
import { summarize } from "../results/summary.js";
import { describeSystemError } from "../system-error.js";
import type { RunSummary } from "../results/summary.js";
import { InputCopy } from "../results/input-copy.js";
import { withRangesExpanded } from "../validate/ranges.js";
import { openResults, withResultsAhead } from "../results/writer.js";
import type { ResultColumnsAt } from "../results/encoder.js";
import type { DispatchReport, StopReason } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import { readAccount, recordHolds } from "./account-orders.js";
import type { AccountHold } from "./verdict.js";
import { execute } from "./execute.js";
import { PendingAnswers } from "./pending-answers.js";
import { StatusAsker } from "./port-in-status.js";
import { rowOutcomes } from "./outcomes.js";
import { settleRows } from "./settle.js";
import { runningSubmit } from "./running-submit.js";
import { prepare } from "./prepare.js";
import { resultsOptionsFor, writeResults } from "./write.js";
import type { RunProgress } from "./progress.js";
import { monotonicMs } from "../monotonic.js";
import * as outputWords from "../messages/output.js";
import { verifyAddresses } from "./e911-verify.js";
import { registerE911, registeredEarlier } from "./e911-register.js";
import { withE911 } from "./e911-outcomes.js";
import { E911_RESULT_COLUMN_SET, RESULT_COLUMN_SET } from "../results/columns.js";

export interface PortInOptions {
  readonly command: "submit" | "plan";
  /** Opened by the command, so that a bad header refuses the file before anything connects. */
  readonly sheet: Sheet;
  /** Where the results go: a path, or "-" for standard output. */
  readonly results: string;
  /** `--result-columns`: the result columns after the input's own (the default) or before them. */
  readonly resultColumns?: ResultColumnsAt;
  /** The --defaults file, read once by the command (its "columns" shaped how the sheet was opened). */
  readonly defaults: DefaultsFile | null;
  /** The run journal: a file or a database (journal/place.ts); null keeps none. */
  readonly state: JournalPlace | null;
  readonly concurrency: number;
  readonly rate: number | null;
  readonly maxPerRequest: number;
  readonly retryUnknown: boolean;
  readonly retryRejected: boolean;
  /** `--expand-ranges`: a range row becomes one row per number. */
  readonly expandRanges?: boolean;
  /** Counters a progress display reads; null when nothing shows progress. */
  readonly progress?: RunProgress | null;
  /** `--check-portability`: rows outside the service's portable NPA-NXX are invalid. */
  readonly checkPortability?: boolean;
  /** Read the account's order list before sending (docs/contract.md §5); false for `--no-order-check`. */
  readonly orderCheck?: boolean;
}

/**
 * The service a run talks to, ready: its client, and whom the journal records (whose
 * `identity.service` is service/service.ts's `Service`, which real service or the sandbox).
 */
export interface ServiceLink {
  readonly client: ServiceClient;
  readonly identity: JournalIdentity;
}

export interface RunReport {
  readonly summary: RunSummary;
  /** Why the run stopped sending before the end, if it did: a signal, refused credentials, an unwritable journal. */
  readonly stopped: StopReason | null;
  /**
   * The results could not be written after sending had begun (docs/contract.md §4): the run
   * still reports what it sent, and exits 2.
   */
  readonly unwritten: UnwrittenResults | null;
}

export interface UnwrittenResults {
  readonly error: OutputError;
  /** The journal that holds what was sent, or null when the run kept none. */
  readonly state: JournalPlace | null;
  /** Tickets of the rows this run submitted, with how many rows each, in order of first appearance. */
  readonly tickets: ReadonlyMap<string, number>;
}

function ticketsOf(rows: number, outcomeOf: (index: number) => RowOutcome): Map<string, number> {
  const tickets = new Map<string, number>();
  for (let i = 0; i < rows; i++) {
    const outcome = outcomeOf(i);
    if (outcome.status === "submitted" && outcome.ticket !== "") tickets.set(outcome.ticket, (tickets.get(outcome.ticket) ?? 0) + 1);
  }
  return tickets;
}

/** A failure that is not already one of ours (an error the file system raised past the writer) still reads as one line. */
function asOutputError(results: string, error: unknown): OutputError {
  if (error instanceof OutputError) return error;
  return new OutputError(outputWords.cannotWriteResults(results, describeSystemError(error)), { cause: error });

}

export function runPortIn(options: PortInOptions, link: ServiceLink, io: CommandIO): Promise<RunReport> {
  return withResultsAhead(options.results, () => portIn(options, link, io));
}

async function portIn(options: PortInOptions, link: ServiceLink, io: CommandIO): Promise<RunReport> {
  // The input's own cells go to the results as the sheet is read; prepare only validates what it reads.
  const copy = new InputCopy(options.expandRanges === true ? withRangesExpanded(options.sheet) : options.sheet, options.results, options.resultColumns);
  try {
    return await portInCopying(options, link, io, copy);
  } finally {
    // Already closed by the write stage, unless the run stopped before it: a refused journal lock too.
    await copy.close();
  }
}

async function portInCopying(options: PortInOptions, link: ServiceLink, io: CommandIO, copy: InputCopy): Promise<RunReport> {
  const started = monotonicMs();
  const progress = options.progress ?? null;
  const portability = options.checkPortability === true ? { concurrency: options.concurrency } : null;
  const prepared = await prepare(copy.reading(), link.client, options.defaults, { progress, portability, letters: "check" });
  if (progress !== null) progress.phase = "checking";
  // `plan` only reads the journal: a dry run must not block, or be blocked by, a real run.
  const journal = options.command === "submit" && options.state !== null ? await openJournalAt(options.state, link.identity) : null;
  try {
    const prior = journal?.prior ?? (options.state === null ? null : await readJournalAt(options.state, link.identity));
    // Read after the journal, so a request answered in between is read as answered (docs/contract.md §5).
    const running = journal === null && options.state !== null ? await runningSubmit(options.state, link.identity, io) : null;
    if (options.command === "submit") {
      // The first requests' connections open while the account's orders and earlier runs are
      // asked about, rather than after the first intent: a handshake with a distant service
      // then delays no request (service/connections.ts). If every row turns out sent already,
      // they close unused when the run ends.
      let valid = 0;
      for (const row of prepared.rows) if (row.valid) valid++;
      link.client.connect(Math.min(options.concurrency, valid));
    }
    // One breaker for every PortInStatus question of the run: the account check's, the unsure
    // numbers' and the pending answers' (port-in-status.ts).
    const asker = new StatusAsker({ concurrency: options.concurrency, signal: io.signal });
    // docs/contract.md §2 "9-1-1 addresses": each distinct address verified once, before the rows are grouped.
    const verified = prepared.e911.addresses.size === 0 ? new Set<number>() : await verifyAddresses(prepared.rows, prepared.e911, link.client, prior, options.concurrency);
    const account = options.orderCheck === false ? null : await readAccount(prepared.rows, prior, link, io, options.concurrency, true, asker);
    if (account !== null && journal !== null) await recordHolds(account, journal, prepared.rows);
    const settlement = await settleRows(prepared.rows, prior, {
      ...(account === null ? {} : { account }),
      portInStatus: (number, watch) => link.client.portInStatus(number, watch),
      running,
      record: journal ? (number, ticket, status) => journal.confirmed(number, ticket, status) : null,
      concurrency: options.concurrency,
      signal: io.signal,
      asker,
      retryUnknown: options.retryUnknown,
      retryRejected: options.retryRejected,
      maxPerRequest: options.maxPerRequest,
    });
    // Opened only now, after every row is read: a file refused mid-way leaves no results behind;
    // and before sending, so an unwritable results path stops the run before anything is sent.
    const columns = prepared.e911.given ? E911_RESULT_COLUMN_SET : RESULT_COLUMN_SET;
    const results = await openResults(options.results, options.sheet.layout.header, resultsOptionsFor(options.sheet, prepared.rows.length, io, options.resultColumns), columns);
    let sent: DispatchReport | null = null;
    let held: ReadonlyMap<string, AccountHold> = new Map();
    if (options.command === "submit") {
      if (progress !== null) Object.assign(progress, { phase: "sending", requests: settlement.requests.length });
      const pending = new PendingAnswers({ client: link.client, journal, concurrency: options.concurrency, signal: io.signal, asker });
      const othersHeld = (named: ReadonlyMap<string, string>, others: readonly string[]) => pending.othersHeld(named, others);
      sent = await execute(settlement.requests, { client: link.client, journal, concurrency: options.concurrency, rate: options.rate, signal: io.signal, progress, othersHeld });
      // Refused credentials stopped the run: asking would only be refused too.
      held = sent.stopped?.kind === "auth" ? pending.holds : await pending.resolve(sent).catch(() => pending.holds);
    }
    if (progress !== null) progress.phase = "writing";
    const portOutcomeOf = rowOutcomes(prepared.rows, settlement, sent, held);
    // After the port-ins: a registration needs its number's port-in accepted, and never holds one up (docs/contract.md §1.5).
    const registered =
      options.command === "submit" && sent?.stopped?.kind !== "auth"
        ? await registerE911(prepared.rows, prepared.e911, portOutcomeOf, { client: link.client, journal, prior, concurrency: options.concurrency, signal: io.signal })
        : registeredEarlier(prepared.rows, prepared.e911, prior);
    const outcomeOf = withE911(prepared.rows, { rows: prepared.e911, verified, registered, plan: options.command === "plan" }, portOutcomeOf);
    let unwritten: UnwrittenResults | null = null;
    try {
      await writeResults(copy, outcomeOf, results, io);
    } catch (error) {
      // Before sending, a results file that cannot be written stops the run as before; after,
      // it must not hide what was sent.
      if (sent === null) throw error;
      await results.close().catch(() => undefined);
      unwritten = { error: asOutputError(options.results, error), state: options.state, tickets: ticketsOf(prepared.rows.length, outcomeOf) };
    }

    const summary = summarize({
      command: options.command,
      outcomes: (function* () {
        for (let i = 0; i < prepared.rows.length; i++) yield outcomeOf(i);
      })(),
      // After a stop, count only what was sent.
      requests: sent === null ? settlement.requests : [...settlement.requests, ...sent.resent].filter((request) => sent.results.has(request.sequence)),
      elapsedMs: monotonicMs() - started,
      results: options.results,
      service: link.identity.service,
    });
    // A signal that came after the last request started still means the run was interrupted.
    const interrupted: StopReason | null = io.signal.aborted ? { kind: "signal", signal: String(io.signal.reason) } : null;
    return { summary, stopped: sent?.stopped ?? interrupted, unwritten };
  } finally {
    await journal?.close();
  }
}
