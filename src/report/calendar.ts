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
import type { PortDay } from "./model.js";

const HOUR_MS = 3_600_000;

export function renderCalendar(days: readonly PortDay[], options: { readonly title: string; readonly now: Date }): string {
  const calendar = ical({ name: `portin: ${options.title}`, prodId: { company: "portin", product: "report", language: "EN" }, method: ICalCalendarMethod.PUBLISH });
  for (const day of days) {
    const time = day.window === "" ? undefined : looseTime(day.window);
    const numbers = day.numbers.length;
    const summary = `Port-in: ${numbers} number${numbers === 1 ? "" : "s"} for ${day.customer}`;
    const description = [`${day.status}, port date ${day.date}${day.window === "" ? "" : `, time window ${day.window}`}.`, "Numbers:", ...day.numbers].join("\n");
    // A stable UID: a calendar that imports the file again updates the event rather than adding one.
    const id = createHash("sha256").update(JSON.stringify([day.date, day.customer, day.window])).digest("hex").slice(0, 32);
    const common = { id: `${id}@portin`, stamp: options.now, summary, description };
    if (time === undefined) {
      calendar.createEvent({ ...common, start: new Date(`${day.date}T00:00:00Z`), allDay: true });
    } else {
      const start = new Date(`${day.date}T${time}:00Z`);
      calendar.createEvent({ ...common, start, end: new Date(start.getTime() + HOUR_MS), floating: true });
    }
  }
  return calendar.toString();
}
