/**
 * `RequestedPortDate` as the service can honour it (docs/contract.md §3 "Values the losing
 * carrier checks"): not in the past, not a Saturday or Sunday, not one of the service's
 * holidays. "Today" is the machine's date in Eastern time, the zone the service schedules
 * ports in (`RequestedPortTime` is Eastern too): a run at 22:00 in Vancouver is already
 * tomorrow in Toronto, and a port date of "today" there is still allowed.
 */
import * as rows from "../messages/rows.js";

/** The service's holidays, by YYYY-MM-DD, with their names. */
export type Holidays = ReadonlyMap<string, string>;

export interface PortCalendar {
  /** YYYY-MM-DD, Eastern time. */
  readonly today: string;
  /** The service's holidays: asked once per run, when a row first gives a date (docs/contract.md §3). */
  holidays(): Holidays | Promise<Holidays>;
}

export const NO_HOLIDAYS: Holidays = new Map();

/**
 * A calendar that asks for the holidays the first time a row needs them and never again:
 * one request per run, none for a sheet without dates (docs/contract.md §3). A failure to
 * get them rejects every row that asks, and so stops the run like any lookup's.
 */
export function calendarAsking(today: string, ask: () => Promise<Holidays>): PortCalendar {
  let known: Holidays | null = null;
  let asked: Promise<Holidays> | null = null;
  return {
    today,
    holidays() {
      if (known !== null) return known;
      asked ??= ask().then((holidays) => (known = holidays));
      return asked;
    },
  };
}

/** The zone the service works in (docs/contract.md §1.2: `RequestedPortTime` is Eastern). */
export const SERVICE_TIME_ZONE = "America/Toronto";

const HOUR_MS = 3_600_000;

/**
 * YYYY-MM-DD of `now` in Eastern time. Eastern time is 4 hours behind UTC in summer and 5 in
 * winter: except in the hour when those two readings fall on different days (04:00 to 05:00
 * UTC), either is the date, and ICU's time-zone rules are not asked. Their first use costs a
 * start some 30 ms of CPU, a tenth of a small `plan` (docs/contract.md §8, "Start-up").
 */
export function easternToday(now: Date = new Date()): string {
  const summer = new Date(now.getTime() - 4 * HOUR_MS).toISOString().slice(0, 10);
  const winter = new Date(now.getTime() - 5 * HOUR_MS).toISOString().slice(0, 10);
  if (summer === winter) return summer;
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone: SERVICE_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

const WEEKEND: Readonly<Record<number, string>> = { 0: "Sunday", 6: "Saturday" };

/** Why a port date the service cannot honour is refused, holidays apart; null when it can be. */
export function portDayProblem(date: string, today: string): string | null {
  const quoted = JSON.stringify(date);
  // Both are YYYY-MM-DD: their text orders as the days do.
  if (date < today) return rows.dateInPast(quoted, today);
  const weekday = WEEKEND[new Date(`${date}T00:00:00Z`).getUTCDay()];
  if (weekday !== undefined) return rows.dateOnWeekend(quoted, weekday);
  return null;
}

/** Why a port date that is one of the service's holidays is refused; null when it is not one. */
export function holidayProblem(date: string, holidays: Holidays): string | null {
  const name = holidays.get(date);
  if (name === undefined) return null;
  return rows.dateOnHoliday(JSON.stringify(date), name);

}
