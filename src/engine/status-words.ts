/**
 * The words `status` and `report` give a row (docs/contract.md §6): its order's status as the
 * service gave it, as an earlier check last learned it, or why it has none, with what to do
 * next. Pure: no I/O.
 */
import { formatRejectDetails, portInPhase } from "../catalog/account.js";
import type { PortInStatus } from "../catalog/account.js";
import type { EndedOrder, KnownStatus } from "../journal/prior.js";
import { noOrder, orderStatus } from "../results/order-status.js";
import type { OrderFacts, OrderStatus } from "../results/order-status.js";
import { NOT_PORTABLE_ADVICE, saysNotPortable } from "../results/row-outcome.js";
import { absentText } from "./earlier-runs.js";
import type { Asked } from "./port-in-status.js";

/** A number earlier runs never sent and no order holds. */
export function notSubmittedYet(): string {
  return "not submitted yet: portin submit sends it";
}

/**
 * A number the service rejected when an earlier run sent it. No edit makes a number portable
 * (docs/contract.md §6); a row changed since is the user's fix, which submit sends.
 */
export function rejectedBefore(message: string, changed: boolean): string {
  const next = changed ? "the row has changed since: portin submit sends it again" : saysNotPortable(message) ? NOT_PORTABLE_ADVICE : "fix the row and run portin submit";
  return `never submitted: the service rejected it (${message}); ${next}`;
}

/** An order an earlier `status` recorded as ended: what submit will do with the row. */
export function fromEnded(order: EndedOrder, changed: boolean): OrderStatus {
  const next = changed
    ? "the row has changed since: portin submit sends it again"
    : "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)";
  return {
    status: order.status,
    state: "ended",
    ticket: order.ticket,
    portDate: "",
    rejectReason: order.reason,
    rejectSummary: order.summary,
    rejectDetails: order.details,
    checkedAt: order.at,
    message: `ticket ${order.ticket} ended as ${order.status} without porting${order.reason ? `: ${order.reason}` : ""}; ${next}`,
  };
}

/**
 * A number sent again after its order ended, the outcome never learned, for which the service
 * still shows only that ended order: the resend never took. Said as submit says it
 * (earlier-runs.ts absentText), never as news of the old order.
 */
export function resentAfterEnd(answer: Asked | undefined, after: string | undefined): OrderStatus | null {
  if (after === undefined || answer?.kind !== "found" || answer.status.ticketId !== after || portInPhase(answer.status.status) !== "ended") return null;
  const what = absentText({ status: answer.status.status, ticket: answer.status.ticketId }, after);
  return noOrder("not-found", "", answer.at, `an earlier run sent this number again without learning the outcome; ${what}: portin submit --retry-unknown sends it again`);
}

/** How a number was asked about: by `ticket`, or by number ("" ticket) as `unsure`, or as held by the list's `order` without a ticket. */
export interface AskedAbout {
  readonly ticket: string;
  readonly unsure: boolean;
  readonly order?: string | undefined;
  readonly known: KnownStatus | null;
}

export function fromAnswer(answer: Asked | undefined, asked: AskedAbout): OrderStatus {
  if (answer === undefined || answer.kind === "failed") {
    const reason = answer?.reason ?? "not checked";
    if (asked.known !== null) return fromKnown(asked.known, reason);
    return noOrder("unchecked", asked.ticket, answer?.at ?? "", `${reason}: run portin status again later`);
  }
  if (answer.kind === "missing") {
    const message =
      asked.ticket !== ""
        ? `the service has no port-in ticket ${asked.ticket} (404): ask the service about it before sending these numbers again`
        : asked.order !== undefined
          ? `held by open order ${asked.order} of the account's order list, and PortInStatus has no port-in for it: ask the service about order ${asked.order}; portin does not send it while the list holds it`
          : asked.unsure
            ? "an earlier run sent this number without learning the outcome, and the service has no port-in for it: portin submit --retry-unknown sends it again"
            : "submitted by an earlier run without a ticket, and the service has no port-in for it: ask the service about it before sending it again";
    return noOrder("not-found", asked.ticket, answer.at, message);
  }
  return fromService(answer.status, answer.at, asked.unsure);
}

/**
 * A number whose status this check could not learn keeps the last one an earlier check
 * learned, with when (docs/contract.md §6): never a blank. A completed or ended order stays
 * so; an open one is reported `unchecked` (exit 1), its Status word and port date kept.
 */
function fromKnown(known: KnownStatus, reason: string): OrderStatus {
  const phase = portInPhase(known.status);
  return {
    status: known.status,
    state: phase === "open" ? "unchecked" : phase,
    ticket: known.ticket,
    portDate: known.portDate,
    rejectReason: known.reason,
    rejectSummary: known.summary,
    rejectDetails: known.details,
    checkedAt: known.at,
    message: `${known.status}${known.portDate === "" ? "" : ` (port date ${known.portDate})`} as last learned at ${known.at}; ${reason}: run portin status again later`,
  };
}

export function fromService(status: PortInStatus, at: string, unsure: boolean): OrderStatus {
  const phase = portInPhase(status.status);
  const ticket = status.ticketId;
  const base: OrderFacts = {
    status: status.status,
    state: phase,
    ticket,
    portDate: status.portDate,
    rejectReason: status.rejectReason,
    rejectSummary: status.rejectSummary,
    rejectDetails: formatRejectDetails(status.rejectDetails),
    checkedAt: at,
  };
  const found = unsure ? " (an earlier run had not learned that the service accepted it)" : "";
  switch (phase) {
    case "completed":
      return orderStatus(base, `ported${status.portDate ? ` on ${status.portDate}` : ""}${found}; nothing to do`);
    case "ended":
      return orderStatus(
        base,
        `ticket ${ticket} ended as ${status.status} without porting${status.rejectReason ? `: ${status.rejectReason}` : ""}${found}; ` +
          "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)",
      );
    case "open":
      if (/^submitted$/i.test(status.status)) return orderStatus(base, `waiting for the losing carrier to confirm a port date${found}`);
      if (/^confirmed$/i.test(status.status)) {
        return orderStatus(base, `the losing carrier confirmed the port${status.portDate ? ` for ${status.portDate}` : ""}${found}`);
      }
      return orderStatus(base, `still open: the service says ${status.status}${found}`);
  }
}

/**
 * What the account holds of a row that its sheet does not say (docs/contract.md §6): an order
 * placed outside this journal (the web portal, another sheet, a lost journal), and a port date
 * other than the row's RequestedPortDate, on which the numbers move. Added to the row's message.
 */
export function withAccountFacts(status: OrderStatus, outside: boolean, requestedDate: string): OrderStatus {
  const notes: string[] = [];
  if (outside && status.ticket !== "") notes.push(`order ${status.ticket} was placed outside this journal (web portal, another sheet)`);
  const held = status.portDate.slice(0, 10);
  if (requestedDate !== "" && /^\d{4}-\d{2}-\d{2}$/.test(held) && held !== requestedDate && (status.state === "open" || status.state === "completed")) {
    notes.push(`the account holds ${held}, not the sheet's RequestedPortDate ${requestedDate}: the numbers move on ${held}`);
  }
  return notes.length === 0 ? status : { ...status, message: `${status.message}; ${notes.join("; ")}` };
}
