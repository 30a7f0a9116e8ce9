/**
 * The sandbox's calendar: a port-in takes days (docs/contract.md §1.4), and a test cannot
 * wait days. Sandbox days pass every `daySeconds` of real time (never, when 0) and whenever
 * someone advances the clock (`POST /_sandbox/clock`, RunningSandbox.advanceDays).
 */
import { UsageError } from "../errors.js";

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day 0's date at UTC midnight, in ms; throws UsageError for what is not a real YYYY-MM-DD date. */
export function parseStartDate(text: string): number {
  const match = ISO_DATE.exec(text);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw new UsageError(`--start-date '${text}' is not a date: give YYYY-MM-DD, e.g. 2026-03-02`);
  }
  return ms;
}

export interface ClockOptions {
  /** YYYY-MM-DD of day 0; default today (UTC). */
  readonly startDate?: string;
  /** Real seconds per sandbox day; 0 (default) stops real time from moving the clock. */
  readonly daySeconds?: number;
  /** Real time in ms; tests pass their own. */
  readonly now?: () => number;
  /**
   * Days pass with the real calendar from `startDate` on, as for the built-in sandbox that
   * keeps its orders between runs (docs/contract.md §2): a sheet submitted yesterday has a
   * carrier's answer today. `daySeconds` is then not used.
   */
  readonly followsCalendar?: boolean;
}

/** Noon in Eastern time, standard (17:00 UTC); 13:00 in summer time: the same day either way. */
const NOON_EASTERN_MS = 17 * 60 * 60 * 1000;

export class SandboxClock {
  readonly daySeconds: number;
  private readonly start: number;
  private readonly startedAt: number;
  private readonly now: () => number;
  private advanced = 0;
  private readonly followsCalendar: boolean;

  constructor(options: ClockOptions = {}) {
    this.now = options.now ?? Date.now;
    this.daySeconds = options.daySeconds ?? 0;
    this.startedAt = this.now();
    this.start = options.startDate === undefined ? Math.floor(this.startedAt / MS_PER_DAY) * MS_PER_DAY : parseStartDate(options.startDate);
    this.followsCalendar = options.followsCalendar ?? false;
  }

  /** Whole sandbox days since day 0. */
  today(): number {
    if (this.followsCalendar) return Math.floor((this.now() - this.start) / MS_PER_DAY) + this.advanced;
    const passed = this.daySeconds > 0 ? Math.floor((this.now() - this.startedAt) / (this.daySeconds * 1000)) : 0;
    return passed + this.advanced;
  }

  advance(days: number): void {
    this.advanced += days;
  }

  /** YYYY-MM-DD of a sandbox day. */
  date(day: number): string {
    return new Date(this.start + day * MS_PER_DAY).toISOString().slice(0, 10);
  }

  /** The sandbox day of a YYYY-MM-DD date, or null for what is not one. */
  dayOf(date: string): number | null {
    const match = ISO_DATE.exec(date);
    if (!match) return null;
    const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    return Number.isNaN(ms) ? null : Math.round((ms - this.start) / MS_PER_DAY);
  }

  /** The day `count` business days (Monday to Friday) after `day`. */
  addBusinessDays(day: number, count: number): number {
    let at = day;
    for (let left = count; left > 0; ) {
      at += 1;
      const weekday = new Date(this.start + at * MS_PER_DAY).getUTCDay();
      if (weekday !== 0 && weekday !== 6) left -= 1;
    }
    return at;
  }

  /**
   * The `Date` header of the sandbox's answers: its today, as a service's clock says it
   * (docs/contract.md §3: a run judges port dates by the service's calendar), at noon Eastern
   * time (17:00 UTC), which is that same day in Eastern time in summer and in winter.
   */
  httpDate(): string {
    return new Date(this.start + this.today() * MS_PER_DAY + NOON_EASTERN_MS).toUTCString();
  }

  /** What `GET /_sandbox/clock` answers. */
  describe(): { today: string; day: number; daySeconds: number } {
    const day = this.today();
    return { today: this.date(day), day, daySeconds: this.daySeconds };
  }
}
