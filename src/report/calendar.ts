/**
 * The port dates as iCalendar events (docs/contract.md §2 `report --calendar`): one event per
 * customer, port date and time window, listing its numbers, so a team sees the cutovers in its
 * own calendar. Written through ical-generator, which folds lines and escapes text as RFC 5545
 * wants. A window is the sheet's RequestedPortTime: the event starts then, in the port's own
 * local time (floating), and lasts an hour; without one, the event takes the whole day.
 */
import { createHash } from "node:crypto";
import ical, { ICalCalendarMethod } from "ical-generator";
import { looseTime } from "../validate/writings.js";
import { SERVICE_TIME_ZONE } from "./eastern.js";
import type { PortDay } from "./model.js";

/**
 * America/Toronto's rules since 2007 (second Sunday of March to first Sunday of November), as
 * RFC 5545 §3.6.5 wants a VTIMEZONE for every TZID a file names: the one zone the report uses,
 * so a table of every zone (a dependency) would carry 600 for one.
 */
const TORONTO_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  `TZID:${SERVICE_TIME_ZONE}`,
  `X-LIC-LOCATION:${SERVICE_TIME_ZONE}`,
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:-0500",
  "TZOFFSETTO:-0400",
  "TZNAME:EDT",
  "DTSTART:20070311T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:-0400",
  "TZOFFSETTO:-0500",
  "TZNAME:EST",
  "DTSTART:20071104T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

export function renderCalendar(days: readonly PortDay[], options: { readonly title: string; readonly now: Date }): string {
  const calendar = ical({ name: `portin: ${options.title}`, prodId: { company: "portin", product: "report", language: "EN" }, method: ICalCalendarMethod.PUBLISH });
  calendar.timezone({ name: SERVICE_TIME_ZONE, generator: (zone) => (zone === SERVICE_TIME_ZONE ? TORONTO_VTIMEZONE : null) });
  for (const day of days) {
    const time = day.window === "" ? undefined : looseTime(day.window);
    const numbers = day.numbers.length;
    const flags = [...(day.outside.length > 0 ? ["placed outside this journal"] : []), ...(day.sheetDates.length > 0 ? [`not the sheet's ${day.sheetDates.join(", ")}`] : [])];
    const flag = flags.length === 0 ? "" : ` (${flags.join("; ")})`;
    const summary = `Port-in: ${numbers} number${numbers === 1 ? "" : "s"} for ${day.customer}${flag}`;
    const { who } = day;
    const account = who.account === "" ? [] : [`Account ${who.account}${who.provider === "" ? "" : ` at ${who.provider}`}.`];
    const names = who.names.length < 2 ? [] : [`Names on its rows: ${who.names.join("; ")}.`];
    const window = day.window === "" ? "" : `, time window ${day.window} Eastern`;
    const outside = day.outside.length === 0 ? [] : [`Placed outside this journal (web portal, another sheet): ${day.outside.join(", ")}.`];
    const sheetDates = day.sheetDates.length === 0 ? [] : [`The sheet asked for ${day.sheetDates.join(", ")}; the account holds ${day.date}.`];
    const description = [`${day.status}, port date ${day.date}${window}.`, ...outside, ...sheetDates, ...account, ...names, "Numbers:", ...day.numbers].join("\n");
    // A stable UID: a calendar that imports the file again updates the event rather than adding one.
    const id = createHash("sha256").update(JSON.stringify([day.date, day.customer, day.window])).digest("hex").slice(0, 32);
    const common = { id: `${id}@portin`, stamp: options.now, summary, description };
    if (time === undefined) {
      calendar.createEvent({ ...common, start: new Date(`${day.date}T00:00:00Z`), allDay: true });
    } else {
      // ical-generator writes a native Date under a TZID by the Date's local fields (its README,
      // "Date, Time & Timezones"): built from local fields, they are the port's Eastern wall time
      // whatever the machine's zone.
      const [year, month, date] = day.date.split("-").map(Number) as [number, number, number];
      const [hour, minute] = time.split(":").map(Number) as [number, number];
      const start = new Date(year, month - 1, date, hour, minute);
      calendar.createEvent({ ...common, start, end: new Date(year, month - 1, date, hour + 1, minute), timezone: SERVICE_TIME_ZONE });
    }
  }
  return calendar.toString();
}
