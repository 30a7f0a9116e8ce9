/**
 * The engine behind `portin status` (docs/contract.md §6): the sheet read and validated as
 * `submit` reads it, the journal's orders asked about (learn-status.ts), one report row per
 * input row written through the results' encoders, and a summary. Like runPortIn, it is
 * handed a ready client and the journal's identity.
 */
import type { Sheet } from "../input/reader.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { CommandIO } from "../io.js";
import { journalExists, openJournalAt } from "../journal/open.js";
import { journalLabel } from "../journal/place.js";
import type { JournalPlace } from "../journal/place.js";
import { changesFold, rejectHistoryFold } from "../journal/history.js";
import type { NumberHistory, StatusChanges } from "../journal/history.js";
import type { StatusRecord } from "../journal/records.js";
import type { Journal } from "../journal/journal.js";
import { STATUS_COLUMN_SET, TRUNK_STATUS_COLUMN_SET } from "../results/order-status.js";
import type { CheckedOrderStatus } from "../results/order-status.js";
import { checkTrunkNumbers } from "./trunk-check.js";
import { takesE911 } from "../validate/e911.js";
import { summarizeStatus } from "../results/status-summary.js";
import type { StatusSummary } from "../results/status-summary.js";
import { InputCopy } from "../results/input-copy.js";
import { withRangesExpanded } from "../validate/ranges.js";
import { openReport, withResultsAhead } from "../results/writer.js";
import type { ResultColumnsAt } from "../results/encoder.js";
import { recordHolds, readAccount } from "./account-orders.js";
import { learnStatuses } from "./learn-status.js";
import type { ServiceLink } from "./port-in.js";
import { StatusAsker } from "./port-in-status.js";
import { prepare } from "./prepare.js";
import { resultsOptionsFor, writeResults } from "./write.js";
import { monotonicMs } from "../monotonic.js";
import * as statusWords from "../messages/status.js";

export interface StatusOptions {
  /** Opened by the command, so that a bad header refuses the file before anything connects. */
  readonly sheet: Sheet;
  /** Where the report goes: a path, or "-" for standard output. */
  readonly output: string;
  /** `--result-columns`: the status columns after the input's own (the default) or before them. */
  readonly resultColumns?: ResultColumnsAt;
  /** The --defaults file, read once by the command (its "columns" shaped how the sheet was opened). */
  readonly defaults: DefaultsFile | null;
  /** The journal `submit` wrote; null when there is none to read. */
  readonly state: JournalPlace | null;
  /** PortInStatus questions in flight at most. */
  readonly concurrency: number;
  /** `--expand-ranges`, as the submit that sent the sheet read it. */
  readonly expandRanges: boolean;
  /** `--silent-after`: business days with no change after which an open order is silent (journal/history.ts). */
  readonly silentAfter?: number;
}

export interface StatusReport {
  readonly summary: StatusSummary;
  /** What changed since the last check (journal/history.ts); null without a journal. */
  readonly changes: StatusChanges | null;
  /** Every number a check ever read as rejected, with its orders' changes; null without a journal. */
  readonly history: readonly NumberHistory[] | null;
  /** Set when a signal stopped the questions: the rows not asked about are `unchecked`. */
  readonly stopped: { readonly kind: "signal"; readonly signal: string } | null;
  /** Completed trunk numbers off their trunk or without a 9-1-1 record (trunk-check.ts): said first, and exit 1. */
  readonly trunkProblems?: readonly string[];
}

export function runStatus(options: StatusOptions, link: ServiceLink, io: CommandIO): Promise<StatusReport> {
  return withResultsAhead(options.output, () => statusRun(options, link, io));
}

async function statusRun(options: StatusOptions, link: ServiceLink, io: CommandIO): Promise<StatusReport> {
  const started = monotonicMs();
  // Readings at or after this instant are this check's: the changes compare them with the ones before.
  const since = new Date().toISOString();
  // What changed since the check before: the journal's readings folded as it opens and as this check appends its own.
  const changes = changesFold(since, options.silentAfter);
  // Every number ever rejected and what became of it, read from the same readings (docs/contract.md §6).
  const history = rejectHistoryFold();
  const journalOptions = {
    runRecord: false,
    onStatusReading: (reading: StatusRecord): void => {
      changes.take(reading);
      history.take(reading);
    },
  };
  // Validated as submit would, so that a row never sent can say why.
  const copy = new InputCopy(options.expandRanges ? withRangesExpanded(options.sheet) : options.sheet, options.output, options.resultColumns);
  let journal: Journal | null = null;
  try {
    const prepared = await prepare(copy.reading(), link.client, options.defaults);
    // Locked like a submit: the records status appends rest on what it read, which a run in between could change.
    if (options.state !== null && (await journalExists(options.state, link.identity))) journal = await openJournalAt(options.state, link.identity, journalOptions);
    // A lost journal, or numbers it does not hold, are rebuilt from the account (docs/contract.md §5).
    // One breaker for every PortInStatus question of the check, the account's and the journal's (port-in-status.ts).
    const asker = new StatusAsker({ concurrency: options.concurrency, signal: io.signal });
    const account = await readAccount(prepared.rows, journal?.prior ?? null, link, io, options.concurrency, false, asker);
    if (journal === null && options.state !== null && [...account.values()].some((hold) => hold.ticket !== "")) {
      journal = await openJournalAt(options.state, link.identity, journalOptions);
    }
    if (journal !== null) await recordHolds(account, journal, prepared.rows);
    const learned = await learnStatuses(prepared.rows, journal?.prior ?? null, {
      account,
      asker,
      client: link.client,
      concurrency: options.concurrency,
      signal: io.signal,
      journal,
      noJournal:
        options.state === null
          ? statusWords.NO_JOURNAL_TO_READ
          : statusWords.noJournalYet(journalLabel(options.state)),
    });
    const reportOptions = resultsOptionsFor(options.sheet, prepared.rows.length, io, options.resultColumns, "--output");
    let trunkProblems: readonly string[] = [];
    // docs/contract.md §6: a sheet with a regular number on a SIP trunk (or that gives 9-1-1
    // addresses) has each completed trunk number asked whether it is on its trunk and has its
    // 9-1-1 record, with or without e911 columns: a sheet without them is where numbers lack one.
    if (prepared.e911.given || prepared.rows.some((row) => takesE911(row.operation))) {
      const trunk = await checkTrunkNumbers(prepared.rows, prepared.e911, learned.statusOf, { client: link.client, prior: journal?.prior ?? null, concurrency: options.concurrency, journal });
      trunkProblems = trunk.problems;
      const report = await openReport(options.output, options.sheet.layout.header, reportOptions, TRUNK_STATUS_COLUMN_SET);
      const checkedOf = (index: number): CheckedOrderStatus => {
        const check = trunk.checks.get(index);
        return { order: learned.statusOf(index), onTrunk: check?.onTrunk ?? "", e911: check?.e911 ?? "" };
      };
      await writeResults(copy, checkedOf, report, io);
    } else {
      const report = await openReport(options.output, options.sheet.layout.header, reportOptions, STATUS_COLUMN_SET);
      await writeResults(copy, learned.statusOf, report, io);
    }
    const summary = summarizeStatus({
      statuses: (function* () {
        for (let i = 0; i < prepared.rows.length; i++) yield learned.statusOf(i);
      })(),
      requests: learned.requests,
      elapsedMs: monotonicMs() - started,
      output: options.output,
      service: link.identity.service,
    });
    return {
      summary,
      changes: journal === null ? null : changes.changes(),
      history: journal === null ? null : history.histories(),
      stopped: io.signal.aborted ? { kind: "signal", signal: String(io.signal.reason) } : null,
      trunkProblems,
    };
  } finally {
    await journal?.close();
    // Already closed by the write stage, unless the run stopped before it.
    await copy.close();
  }
}
