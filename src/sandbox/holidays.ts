/**
 * What the sandbox answers to `GET /Holidays` (docs/contract.md §1.1): Canada's federal
 * statutory holidays (Canada Labour Code s. 166) of the sandbox's years, the year of its
 * day 0 through two years after its today, in the service's own spelling. A holiday on a
 * Saturday or Sunday is also observed on the next weekday that is not one already, as
 * employers and carriers observe it. Worked out here, not read from the client's code, so
 * that the sandbox can disagree with a client that gets a date wrong.
 */
import type { SandboxClock } from "./clock.js";

/** Years after the sandbox's today it answers for: a port date is rarely booked further ahead. */
const YEARS_AHEAD = 2;

const MS_PER_DAY = 86_400_000;

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const utc = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day);
const weekday = (ms: number): number => new Date(ms).getUTCDay();

/** Easter Sunday of `year` (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utc(year, month, day);
}

/** The `nth` Monday (1-based) of a month. */
function nthMonday(year: number, month: number, nth: number): number {
  const first = utc(year, month, 1);
  const offset = (8 - weekday(first)) % 7;
  return first + (offset + (nth - 1) * 7) * MS_PER_DAY;
}

/** The Monday before May 25: Victoria Day. */
function victoriaDay(year: number): number {
  const may24 = utc(year, 5, 24);
  return may24 - ((weekday(may24) + 6) % 7) * MS_PER_DAY;
}

export interface HolidayEntry {
  readonly Date: string;
  readonly Name: string;
}

/** One year's federal statutory holidays, observed days included, in date order. */
export function canadianHolidays(year: number): HolidayEntry[] {
  const sunday = easter(year);
  const days: [number, string][] = [
    [utc(year, 1, 1), "New Year's Day"],
    [sunday - 2 * MS_PER_DAY, "Good Friday"],
    [sunday + MS_PER_DAY, "Easter Monday"],
    [victoriaDay(year), "Victoria Day"],
    [utc(year, 7, 1), "Canada Day"],
    [nthMonday(year, 9, 1), "Labour Day"],
    [utc(year, 9, 30), "National Day for Truth and Reconciliation"],
    [nthMonday(year, 10, 2), "Thanksgiving Day"],
    [utc(year, 11, 11), "Remembrance Day"],
    [utc(year, 12, 25), "Christmas Day"],
    [utc(year, 12, 26), "Boxing Day"],
  ];
  const taken = new Set(days.map(([ms]) => ms));
  const observed: [number, string][] = [];
  for (const [ms, name] of days) {
    if (weekday(ms) !== 0 && weekday(ms) !== 6) continue;
    let day = ms + MS_PER_DAY;
    while (weekday(day) === 0 || weekday(day) === 6 || taken.has(day)) day += MS_PER_DAY;
    taken.add(day);
    observed.push([day, `${name} (observed)`]);
  }
  return [...days, ...observed].sort(([a], [b]) => a - b).map(([ms, name]) => ({ Date: `${iso(ms)}T00:00:00`, Name: name }));
}

/** The holidays of the sandbox's years. */
export function sandboxHolidays(clock: SandboxClock): HolidayEntry[] {
  const first = Number(clock.date(0).slice(0, 4));
  const last = Number(clock.date(clock.today()).slice(0, 4)) + YEARS_AHEAD;
  const out: HolidayEntry[] = [];
  for (let year = first; year <= last; year++) out.push(...canadianHolidays(year));
  return out;
}
