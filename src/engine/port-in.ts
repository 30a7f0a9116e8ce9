/**
 * The engine behind `submit` and `plan` (docs/architecture.md): prepare -> plan -> execute ->
 * write, each stage a function of its own file. The command hands it a ready client, the
 * journal's identity and resolved paths; it returns a report, from which exit-codes.ts
 * decides the exit code.
 */
import type { Sheet } from "../input/sheet.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { CommandIO } from "../io.js";
import type { JournalIdentity } from "../journal/identity.js";
import { openJournal, readJournal } from "../journal/journal.js";
import { summarize } from "../results/summary.js";
import type { RunSummary } from "../results/summary.js";
import { copiesRowText, openResults } from "../results/writer.js";
import type { DispatchReport, StopReason } from "../send/dispatch.js";
import type { ServiceClient } from "../service/client.js";
import { execute } from "./execute.js";
import { rowOutcomes } from "./outcomes.js";
import { planRun } from "./plan-run.js";
import { prepare } from "./prepare.js";
import { writeResults } from "./write.js";
import type { RunProgress } from "./progress.js";

export interface PortInOptions {
  readonly command: "submit" | "plan";
  /** Opened by the command, so that a bad header refuses the file before anything connects. */
  readonly sheet: Sheet;
  /** Where the results go: a path, or "-" for standard output. */
  readonly results: string;
  /** The --defaults file, read once by the command (its "columns" shaped how the sheet was opened). */
  readonly defaults: DefaultsFile | null;
  /** The run journal; null keeps none. */
  readonly state: string | null;
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
}

/** The service a run talks to, ready: its client, and whom the journal records. */
export interface Service {
  readonly client: ServiceClient;
  readonly identity: JournalIdentity;
}

export interface RunReport {
  readonly summary: RunSummary;
  /** Why the run stopped sending before the end, if it did: a signal, refused credentials, an unwritable journal. */
  readonly stopped: StopReason | null;
}

export async function runPortIn(options: PortInOptions, service: Service, io: CommandIO): Promise<RunReport> {
  const started = performance.now();
  const progress = options.progress ?? null;
  const portability = options.checkPortability === true ? { concurrency: options.concurrency } : null;
  const prepared = await prepare(options.sheet, service.client, options.defaults, {
    expandRanges: options.expandRanges ?? false,
    progress,
    portability,
    copyRowText: copiesRowText(options.results),
  });
  if (progress !== null) progress.phase = "checking";
  // `plan` only reads the journal: a dry run must not block, or be blocked by, a real run.
  const journal = options.command === "submit" && options.state !== null ? await openJournal(options.state, service.identity) : null;
  try {
    const prior = journal?.prior ?? (options.state === null ? null : await readJournal(options.state, service.identity));
    const plan = await planRun(prepared.rows, prior, {
      portInStatus: (number, watch) => service.client.portInStatus(number, watch),
      record: journal ? (number, ticket, status) => journal.confirmed(number, ticket, status) : null,
      concurrency: options.concurrency,
      signal: io.signal,
      retryUnknown: options.retryUnknown,
      retryRejected: options.retryRejected,
      maxPerRequest: options.maxPerRequest,
    });
    // Opened only now, after every row is read: a file refused mid-way leaves no results behind;
    // and before sending, so an unwritable results path stops the run before anything is sent.
    const results = await openResults(options.results, options.sheet.layout.header, {
      delimiter: options.sheet.layout.delimiter,
      ...options.sheet.textFormat(),
      stdout: io.stdout,
      rows: prepared.rows.length,
    });
    let sent: DispatchReport | null = null;
    if (options.command === "submit") {
      if (progress !== null) Object.assign(progress, { phase: "sending", requests: plan.requests.length });
      sent = await execute(plan.requests, { client: service.client, journal, concurrency: options.concurrency, rate: options.rate, signal: io.signal, progress });
    }
    if (progress !== null) progress.phase = "writing";
    const outcomeOf = rowOutcomes(prepared.rows, plan, sent);
    await writeResults(prepared, outcomeOf, results, io);

    const summary = summarize({
      command: options.command,
      outcomes: (function* () {
        for (let i = 0; i < prepared.rows.length; i++) yield outcomeOf(i);
      })(),
      // After a stop, count only what was sent.
      requests: sent === null ? plan.requests : [...plan.requests, ...sent.resent].filter((request) => sent.results.has(request.sequence)),
      elapsedMs: performance.now() - started,
      results: options.results,
      service: service.identity.baseUrl,
    });
    // A signal that came after the last request started still means the run was interrupted.
    const interrupted: StopReason | null = io.signal.aborted ? { kind: "signal", signal: String(io.signal.reason) } : null;
    return { summary, stopped: sent?.stopped ?? interrupted };
  } finally {
    await journal?.close();
    // Already closed by the write stage, unless the run stopped before it.
    await prepared.keptCells.close();
  }
}
