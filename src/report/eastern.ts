/**
 * Times as the report shows them (docs/contract.md §2 `report`): in Eastern time, the zone
 * the service schedules ports in (`RequestedPortTime` is Eastern, docs/contract.md §3), with
 * the zone's abbreviation, so a lead in Vancouver and one in Halifax read the same hour.
 */

/** The service's zone: its port times are Eastern. */
export const SERVICE_TIME_ZONE = "America/Toronto";

const FORMAT = new Intl.DateTimeFormat("en-CA", {
  timeZone: SERVICE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
});

/** `2026-12-01 01:30 EST` for an ISO instant; the text as given when it is not one. */
export function easternTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const part = Object.fromEntries(FORMAT.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part["year"]}-${part["month"]}-${part["day"]} ${part["hour"]}:${part["minute"]} ${part["timeZoneName"]}`;
}

/** The Eastern calendar date (YYYY-MM-DD) of an instant: "today" as the service counts days. */
export function easternDate(at: Date): string {
  return easternTime(at.toISOString()).slice(0, 10);
}
