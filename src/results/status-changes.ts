/**
 * What changed since the last check, as `portin status` prints it before its summary
 * (docs/contract.md §6), so a cron mail's first lines say what happened overnight.
 */
import type { NumberChange, StatusChanges } from "../journal/history.js";

/** Numbers listed by name at most, per line; the rest are counted. */
const LISTED_AT_MOST = 10;

/** The lines, or null on a first check that found nothing moved (nothing to say yet). */
export function formatChanges(changes: StatusChanges): string | null {
  const since = changes.previousCheck === null ? "since submit (first check)" : `since the last check (${changes.previousCheck})`;
  const lines = [`portin status: changes ${since}:`];
  const list = (label: string, items: readonly NumberChange[], detail: (c: NumberChange) => string): void => {
    if (items.length === 0) return;
    const shown = items.slice(0, LISTED_AT_MOST).map((c) => `${c.number}${detail(c)}`).join(", ");
    const more = items.length > LISTED_AT_MOST ? `, and ${items.length - LISTED_AT_MOST} more` : "";
    lines.push(`  ${items.length} newly ${label}: ${shown}${more}`);
  };
  list("CONFIRMED", changes.confirmed, (c) => (c.portDate === "" ? "" : ` for ${c.portDate}`));
  list("COMPLETED", changes.completed, () => "");
  // An order's numbers share its reason: said once per order. Ten numbers are named in all,
  // as on the other lines; the orders past them are counted (docs/contract.md §6).
  const orders = new Map<string, NumberChange[]>();
  for (const change of changes.rejected) orders.set(change.ticket, [...(orders.get(change.ticket) ?? []), change]);
  if (orders.size > 0) {
    const said: string[] = [];
    let named = 0;
    let left = 0;
    let ordersLeft = 0;
    for (const [ticket, items] of orders) {
      if (named >= LISTED_AT_MOST) {
        left += items.length;
        ordersLeft++;
        continue;
      }
      const shown = items.slice(0, LISTED_AT_MOST - named);
      named += shown.length;
      const more = items.length > shown.length ? `, and ${items.length - shown.length} more` : "";
      said.push(`${ticket} (${shown.map((c) => c.number).join(", ")}${more})${items[0]?.reason ? `: ${items[0].reason}` : ""}`);
    }
    const rest = ordersLeft === 0 ? "" : `; and ${left} more number${left === 1 ? "" : "s"} in ${ordersLeft} more order${ordersLeft === 1 ? "" : "s"}`;
    lines.push(`  ${changes.rejected.length} newly REJECTED: ${said.join("; ")}${rest}`);
  }
  for (const order of changes.silent) {
    lines.push(`  silent: ${order.ticket} (${order.numbers} number${order.numbers === 1 ? "" : "s"}) ${order.status} since ${order.since.slice(0, 10)}, ${order.businessDays} business days with no change: ask the service or the losing carrier`);
  }
  if (lines.length === 1) {
    if (changes.previousCheck === null) return null;
    lines.push("  nothing changed");
  }
  return lines.join("\n");
}
