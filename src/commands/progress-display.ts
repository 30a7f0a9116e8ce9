/**
 * The live progress of `submit` and `plan` on stderr (docs/contract.md §2, "Progress"). On a terminal, a bar
 * redrawn in place by cli-progress; off one (cron, a pipe, a log file), one plain line at most
 * every PLAIN_EVERY_MS and no control codes, so a log stays readable; `--quiet`, nothing. It
 * reads the engine's counters (engine/progress.ts) on its own timer, so the run never waits on it.
 */
import { createRequire } from "node:module";
import type * as CliProgress from "cli-progress";
import type { RunPhase, RunProgress } from "../engine/progress.js";
import { monotonicMs } from "../monotonic.js";
import * as notices from "../messages/notices.js";

/** Loaded only to draw a bar: every other run (cron, tests, lookups) starts without it. */
const load = createRequire(import.meta.url);

/** Off a terminal, a line this often at most: a cron log gets a heartbeat, not a flood. */
export const PLAIN_EVERY_MS = 10_000;
/** A rate over less than this is noise: none is shown before. */
const RATE_AFTER_MS = 1_000;
/** On a terminal, how often the bar is redrawn. */
const REDRAW_EVERY_MS = 200;

export interface ProgressDisplay {
  /** Clears the bar (before the summary is printed); idempotent. */
  stop(): void;
}

export interface DisplayOptions {
  /** Whether stderr is a terminal: injectable, so both modes can be tested. */
  readonly isTTY: boolean;
  readonly quiet: boolean;
  /** Milliseconds since some fixed point; monotonicMs() unless a test supplies a clock. */
  readonly now?: () => number;
}

const PHASE_NAMES: Readonly<Record<RunPhase, string>> = notices.PROGRESS_PHASES;

export function showProgress(progress: RunProgress, stream: NodeJS.WritableStream, options: DisplayOptions): ProgressDisplay {
  if (options.quiet) return { stop: () => undefined };
  const now = options.now ?? (() => monotonicMs());
  return options.isTTY ? barDisplay(progress, stream, now) : plainDisplay(progress, stream, now);
}

/** "12,345": counts a person reads at a glance. */
const count = (n: number): string => n.toLocaleString("en-US");

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A rate over the phase so far, and the time left at that rate; "" until there is one. */
function rateAndEta(done: number, total: number | null, since: number, at: number, unit: string): string {
  const elapsed = at - since;
  if (elapsed < RATE_AFTER_MS || done === 0) return "";
  const rate = (done * 1000) / elapsed;
  const shown = rate >= 100 ? count(Math.round(rate)) : rate.toFixed(1);
  const eta = total !== null && total > done ? `, ETA ${seconds(((total - done) / rate) * 1000)}` : "";
  return `, ${shown} ${unit}/s${eta}`;
}

/** The line of text for the phase: the plain mode's line, and the bar's detail. */
function describe(progress: RunProgress, since: number, at: number): string {
  switch (progress.phase) {
    case "lookups":
      return notices.PROGRESS_LOOKUPS;
    case "reading":
    case "checking":
      return notices.progressRows(count(progress.rows), rateAndEta(progress.rows, null, since, at, "rows"));
    case "sending":
      return notices.progressSending(
        count(progress.sent),
        count(progress.requests),
        count(progress.inFlight),
        count(progress.retried),
        rateAndEta(progress.sent, progress.requests, since, at, "requests"),
      );
    case "writing":
      return notices.progressWriting(count(progress.rows));
  }
}

function plainDisplay(progress: RunProgress, stream: NodeJS.WritableStream, now: () => number): ProgressDisplay {
  let phase = progress.phase;
  let since = now();
  const timer = setInterval(() => {
    const at = now();
    if (progress.phase !== phase) {
      phase = progress.phase;
      since = at;
    }
    stream.write(notices.progressLine(PHASE_NAMES[progress.phase], describe(progress, since, at)));

  }, PLAIN_EVERY_MS);
  // A heartbeat must never keep a finished run alive.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function barDisplay(progress: RunProgress, stream: NodeJS.WritableStream, now: () => number): ProgressDisplay {
  const { SingleBar } = load("cli-progress") as typeof CliProgress;
  let bar: CliProgress.SingleBar | null = null;
  let phase: RunPhase | null = null;
  let since = now();
  const totalOf = (): number => (progress.phase === "sending" ? progress.requests : (progress.totalBytes ?? 0));
  const valueOf = (): number =>
    progress.phase === "sending" ? progress.sent : progress.phase === "writing" ? totalOf() : progress.phase === "lookups" ? 0 : progress.bytesRead();
  const draw = (): void => {
    if (progress.phase !== phase) {
      // One bar per phase: its ETA is cli-progress's, from that phase's own pace.
      bar?.stop();
      phase = progress.phase;
      since = now();
      bar = new SingleBar({
        stream,
        format: `portin ${PHASE_NAMES[phase]} {bar} {percentage}% | {detail}`,
        barsize: 20,
        hideCursor: true,
        clearOnComplete: true,
        gracefulExit: false,
        fps: 1000 / REDRAW_EVERY_MS,
      });
      bar.start(Math.max(1, totalOf()), 0, { detail: "" });
    }
    bar?.setTotal(Math.max(1, totalOf()));
    bar?.update(valueOf(), { detail: describe(progress, since, now()) });
  };
  draw();
  const timer = setInterval(draw, REDRAW_EVERY_MS);
  timer.unref();
  let stopped = false;
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      bar?.stop();
    },
  };
}
