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
import { portDateApart } from "./verdict.js";
import * as outcomes from "../messages/outcomes.js";
import type { Asked } from "./port-in-status.js";
import * as statusWords from "../messages/status.js";

/** A number earlier runs never sent and no order holds. */
export function notSubmittedYet(): string {
  return statusWords.NOT_SUBMITTED_YET;
}

/**
 * A number the service rejected when an earlier run sent it. No edit makes a number portable
 * (docs/contract.md §6); a row changed since is the user's fix, which submit sends. A rejection
 * an older portin recorded without the row's fingerprint (`recorded` false) is sent again too
 * (docs/verdicts.md), though nothing says the row changed.
 */
export function rejectedBefore(message: string, changed: boolean, recorded = true): string {
  const resend = recorded ? statusWords.CHANGED_SINCE : statusWords.SENT_ROW_NOT_RECORDED;
  const next = changed ? resend : saysNotPortable(message) ? NOT_PORTABLE_ADVICE : statusWords.FIX_AND_SUBMIT;
  return statusWords.rejectedBefore(message, next);
}

/** An order an earlier `status` recorded as ended: what submit will do with the row. */
export function fromEnded(order: EndedOrder, changed: boolean): OrderStatus {
  const next = changed ? statusWords.CHANGED_SINCE : statusWords.FIX_CARRIER_DISPUTE;
  return {
    status: order.status,
    state: "ended",
    ticket: order.ticket,
    portDate: "",
    rejectReason: order.reason,
    rejectSummary: order.summary,
    rejectDetails: order.details,
    checkedAt: order.at,
    message: statusWords.orderEndedWithoutPorting(order.ticket, order.status, order.reason, "", next),
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
  return noOrder("not-found", "", answer.at, statusWords.resentNeverTook(what));
}

/**
 * A number this journal sent, which the service refused because the order `status` follows,
 * placed outside the journal, already held it (docs/contract.md §5): said first, so that the
 * order's status is never read as this journal's own.
 */
export function refusedFirst(status: OrderStatus): OrderStatus {
  return orderStatus(status, `${outcomes.refusedEarlier(status.ticket)}; ${status.message}`);
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
    return noOrder("unchecked", asked.ticket, answer?.at ?? "", statusWords.couldNotLearn(reason));
  }
  if (answer.kind === "missing") {
    const message =
      asked.ticket !== ""
        ? statusWords.noSuchTicket(asked.ticket)
        : asked.order !== undefined
          ? statusWords.heldByOrderWithoutPortIn(asked.order)
          : asked.unsure
            ? statusWords.UNSURE_NOT_FOUND
            : statusWords.SUBMITTED_NOT_FOUND;
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
    message: statusWords.lastLearned(known.status, known.portDate, known.at, reason),
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
  const found = unsure ? statusWords.FOUND_UNSURE : "";
  switch (phase) {
    case "completed":
      return orderStatus(base, statusWords.ported(status.portDate, found));
    case "ended":
      return orderStatus(base, statusWords.orderEndedWithoutPorting(ticket, status.status, status.rejectReason, found, statusWords.FIX_CARRIER_DISPUTE));
    case "open":
      if (/^submitted$/i.test(status.status)) return orderStatus(base, statusWords.waitingForCarrier(found));
      if (/^confirmed$/i.test(status.status)) {
        return orderStatus(base, statusWords.carrierConfirmed(status.portDate, found));
      }
      return orderStatus(base, statusWords.stillOpen(status.status, found));

  }
}

/**
 * What the account holds of a row that its sheet does not say (docs/contract.md §6): an order
 * placed outside this journal (the web portal, another sheet, a lost journal), and a port date
 * other than the row's RequestedPortDate, on which the numbers move. Added to the row's message.
 */
export function withAccountFacts(status: OrderStatus, outside: boolean, requestedDate: string): OrderStatus {
  const notes: string[] = [];
  if (outside && status.ticket !== "") notes.push(statusWords.placedOutside(status.ticket));
  const held = status.state === "open" || status.state === "completed" ? portDateApart(status.portDate, requestedDate) : null;
  if (held !== null) notes.push(statusWords.otherPortDate(held, requestedDate));
  return notes.length === 0 ? status : { ...status, message: `${status.message}; ${notes.join("; ")}` };
}
