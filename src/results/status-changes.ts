/**
 * What changed since the last check, as `portin status` prints it before its summary
 * (docs/contract.md §6), so a cron mail's first lines say what happened overnight.
 */
import type { NumberChange, StatusChanges } from "../journal/history.js";
import * as statusWords from "../messages/status.js";

/** Numbers listed by name at most, per line; the rest are counted. */
const LISTED_AT_MOST = 10;

/** The lines, or null on a first check that found nothing moved (nothing to say yet). */
export function formatChanges(changes: StatusChanges): string | null {
  const lines = [statusWords.changesHeader(changes.previousCheck)];
  const list = (label: string, items: readonly NumberChange[], detail: (c: NumberChange) => string): void => {
    if (items.length === 0) return;
    const shown = items.slice(0, LISTED_AT_MOST).map((c) => `${c.number}${detail(c)}`).join(", ");
    const more = items.length > LISTED_AT_MOST ? `, and ${items.length - LISTED_AT_MOST} more` : "";
    lines.push(statusWords.newly(items.length, label, `${shown}${more}`));
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
    lines.push(statusWords.newlyRejected(changes.rejected.length, said.join("; "), left, ordersLeft));
  }
  for (const order of changes.silent) {
    lines.push(statusWords.silentOrder(order.ticket, order.numbers, order.status, order.since.slice(0, 10), order.businessDays));
  }
  if (lines.length === 1) {
    if (changes.previousCheck === null) return null;
    lines.push(statusWords.NOTHING_CHANGED);

  }
  return lines.join("\n");
}
