/**
 * The result_message of a row `submit` or `plan` did not send as new: what earlier runs, the
 * account's order list and PortInStatus settled about its number (docs/contract.md §4, §5;
 * the verdict itself is engine/verdict.ts's), and why a row this run meant to send was not.
 * Each entry's comment says what it means, then, after "Next:", what the user does about it.
 */

/** How an order ended: "ticket PI-3 was rejected: <reason>", or "… ended as CANCELLED: …". Next: (part of a row's message). */
export const orderEnded = (ticket: string, status: string, reason: string): string =>
  `ticket ${ticket} ${/^rejected$/i.test(status) ? "was rejected" : `ended as ${status}`}${reason === "" ? "" : `: ${reason}`}`;

/** A row sent again after its order ended, said first in its message. Next: nothing; the new outcome follows. */
export const resubmittedAfter = (ended: string): string => `resubmitted after ${ended}`;

/** PortInStatus has no port-in for a number sent without a known outcome. Next: (part of the row's message, which says). */
export const NO_PORT_IN_FOUND = "PortInStatus finds no port-in for it";

/** The only order PortInStatus shows is the one the number was sent again after: the resend never took. Next: (part of the row's message). */
export const onlyTheEndedOrder = (ticket: string, status: string): string =>
  `the service shows only ticket ${ticket}, which ended as ${status} before it was sent again, and no newer port-in`;

/** What PortInStatus says of a number, as a clause. Next: (part of the row's message). */
export const portInStatusSays = (status: string): string => `PortInStatus says ${status}`;

/** The row was edited after it was sent; the order holds the old values, and the row is not sent again (`skipped`). Next: ask the service to change the order, or cancel it and run again. */
export const changedSinceSubmitted = (ticket: string): string =>
  `row changed since it was submitted in ${ticket || "an earlier run"}; that order holds the old values`;

/** An order placed outside this journal holds the number, recorded by an earlier run (`skipped`). Next: nothing; portin status follows it. */
export const inOrderPlacedOutside = (ticket: string): string => `already in order ${ticket} placed outside this journal (recorded by an earlier run); not sent again`;

/** Who sent a number an earlier run submitted, the start of the messages that follow. Next: (part of them). */
export const SUBMITTED_BY_EARLIER_RUN = "submitted by an earlier run";

/** This run sent the number and the service refused it: it is already ported in by an order outside this journal (`skipped`). Next: nothing. */
export const refusedAlreadyPorted = (ticket: string): string => `sent, and refused by the service: already ported in ${ticket}; not sent again`;

/** This run sent the number and the service refused it: an order placed outside this journal already holds it (`skipped`). Next: nothing; portin status follows that order. */
export const refusedHeldByOrder = (ticket: string, open: boolean): string =>
  `sent, and refused by the service: ${open ? "open " : ""}order ${ticket}, placed outside this journal (by another run sending the same numbers, another sheet or the web portal), already holds it; not sent again`;

/** This run sent the number and the service refused it because another order holds it, which PortInStatus does not show yet (`rejected`). Next: run again later. */
export const refusedHeldUnfound = (said: string): string =>
  `sent, and refused by the service because another order already holds it (${said}), which PortInStatus does not show yet: run again later: the account's order list names that order, and once PortInStatus shows it the row is skipped with its ticket`;

/** An earlier run of this journal sent the number and the service refused it: order `ticket`, placed outside the journal, held it. Next: (followed by what happens now). */
export const refusedEarlier = (ticket: string): string =>
  `sent by an earlier run and refused by the service: order ${ticket}, placed outside this journal, already held it`;

/** An earlier run submitted the number (`skipped`). Next: nothing; portin status follows it. */
export const SUBMITTED_EARLIER = "submitted by an earlier run; not sent again";

/** An earlier run submitted the number, and the row as it stands would now be invalid (`skipped`). Next: nothing for the order; fix the row for the record. */
export const submittedEarlierNowInvalid = (reason: string, earlier = SUBMITTED_BY_EARLIER_RUN): string =>
  `${earlier}; not sent again (the row as it stands would be invalid: ${reason})`;

/** An earlier run's number sits in an open order of the account's list without a ticket yet. Next: (followed by askAboutOrder). */
export const acceptedEarlierInOpenOrder = (orderId: string, why: string): string =>
  `accepted by an earlier run: the account's order list shows it in open order ${orderId} (${why}); not sent again`;

/** An open order holds the number but PortInStatus gives no ticket for it (`unknown`, exit 1). Next: run again later; if still no ticket, ask the service about the order. */
export const askAboutOrder = (held: string, orderId: string): string =>
  `${held}: run again later, and if PortInStatus still gives no ticket, ask the service about order ${orderId}`;

/** PortInStatus confirms an earlier run's order for the number (`skipped`). Next: nothing; portin status follows it. */
export const acceptedEarlierConfirmed = (status: string): string => `accepted by an earlier run (confirmed by PortInStatus: ${status}); not sent again`;

/** The carrier rejected the order and the row is unchanged since (`rejected`). Next: fix what the carrier disputes, or pass --retry-rejected. */
export const carrierRejectedUnchanged = (ended: string, details: string): string =>
  `${ended}${details === "" ? "" : ` (${details})`}; not sent again until the row changes: fix what the carrier disputes, or pass --retry-rejected`;

/** The service said the number is not portable, in an earlier run (`rejected`). Next: remove the row, or port the number another way. */
export const rejectedEarlierNotPortable = (said: string): string => `rejected by an earlier run: the service said ${said}`;

/** The service rejected the row in an earlier run, and it is unchanged since (`rejected`). Next: fix the row, or pass --retry-rejected. */
export const rejectedEarlier = (said: string): string => `rejected by an earlier run; fix the row or pass --retry-rejected (the service said: ${said})`;

/** An earlier run sent the number and the answer was unsure. Next: (part of the row's message). */
export const sentWithoutOutcome = (message: string): string => `an earlier run sent this number but could not learn the outcome (${message || "no answer"})`;

/** An earlier run stopped between sending the number and recording the answer. Next: (part of the row's message). */
export const SENT_THEN_STOPPED = "an earlier run sent this number and stopped before learning the outcome";

/** PortInStatus has no port-in for an unsure number (`unknown`, exit 1). Next: re-run with --retry-unknown to send it. */
export const unsureAbsent = (earlier: string, absent: string): string => `${earlier}; ${absent}: re-run with --retry-unknown to send it again`;

/** PortInStatus could not be asked about an unsure number, so it is not sent (`unknown`). Next: re-run later to check again. */
export const unsureUnchecked = (earlier: string, reason: string): string =>
  `${earlier}; checking its port-in status failed (${reason}), so it is not sent again: re-run later to check again`;

/** The number is already ported by an order of the account's (`skipped`). Next: nothing. */
export const alreadyPorted = (ticket: string): string => `already ported in ${ticket}; not sent`;

/** The carrier rejected an order placed outside this journal (`rejected`). Next: fix what the carrier disputes; portin submit sends the changed row. */
export const outsideOrderRejected = (ticket: string): string => `its order ${ticket}, placed outside this journal, was rejected by the losing carrier`;

/** An open order placed outside this journal holds the number (`skipped`). Next: nothing; its order ports it. */
export const inOpenOrderOutside = (ticket: string): string => `already in open order ${ticket} placed outside this journal; not sent`;

/** An open order of the account's list holds the number; its ticket is not known yet. Next: (followed by askAboutOrder). */
export const inOpenOrderNoTicket = (orderId: string, why: string): string =>
  `already in open order ${orderId} of the account's order list, placed outside this journal (its ticket is not known yet: ${why}); not sent`;

/** Why an open order has no ticket: PortInStatus was asked about its numbers instead. Next: (part of inOpenOrderNoTicket). */
export const NOT_ASKED_BY_ORDER = "not asked: PortInStatus is asked about its numbers themselves";

/** Why an open order has no ticket: PortInStatus failed. Next: (part of inOpenOrderNoTicket). */
export const portInStatusFailed = (reason: string): string => `PortInStatus failed: ${reason}`;

/** Why an open order has no ticket: PortInStatus does not show it yet. Next: (part of inOpenOrderNoTicket). */
export const NOT_SHOWN_YET = "PortInStatus does not show it yet";

/** Why an open order has no ticket: PortInStatus shows only an older order. Next: (part of inOpenOrderNoTicket). */
export const onlyAnEarlierOrder = (ticket: string, status: string): string => `PortInStatus shows only an earlier order, ${ticket} ${status}`.trimEnd();

/** The `submit` holding the journal is sending the number now (`skipped` in a plan). Next: nothing; that run settles it. */
export const inFlightElsewhere = (who: string): string => `in flight: being sent by the submit run (${who}) holding the journal; not planned here`;

/** The service rejected a request again because of other numbers, and the row was not resent (`failed`). Next: run again to send it. */
export const REJECTED_FOR_OTHERS = "not accepted: the service rejected its request again because of other numbers; run again to send it";

/** The run stopped on refused credentials before this row's request (`failed`). Next: fix the credentials and run again. */
export const notSentAfterAuth = (message: string): string => `not sent: run stopped after ${message}`;

/** The run was interrupted before this row's request (`failed`). Next: run again. */
export const NOT_SENT_INTERRUPTED = "not sent: the run was interrupted; run again";

/** The run stopped for a reason named after it before this row's request (`failed`). Next: what the reason says. */
export const notSentBecause = (reason: string): string => `not sent: ${reason}`;

/** The run stopped before this row's request, for no reason of its own (`failed`). Next: run again. */
export const NOT_SENT = "not sent";

/** A request whose intent was journaled but which never left (`failed`). Next: the next run sends it. */
export const WITHDRAWN = "not sent: the run stopped before this request left; the next run sends it";

/** A number in the same pending or completed order as the one the service named. Next: nothing; it is skipped with that ticket. */
export const inSamePortIn = (number: string, completed: boolean, ticket: string): string =>
  `${number} is in the same ${completed ? "completed" : "pending"} port-in (ticket ${ticket}), as PortInStatus shows`;

/** --check-portability refused the row: the service does not port its NPA-NXX in (`invalid`). Next: remove the row, or port the number another way. */
export const notPortableHere = (npaNxx: string): string => `NPA-NXX ${npaNxx} is not portable to this service`;

/** PortInStatus was not asked (breaker open). Next: run again later. */
export const UNAVAILABLE = "not checked: PortInStatus unavailable";

/** PortInStatus was not asked because the run was interrupted. Next: run again. */
export const notCheckedInterrupted = (signal: string): string => `not checked: run interrupted by ${signal}`;

/** PortInStatus was not asked (the run stopped asking). Next: run again. */
export const NOT_CHECKED = "not checked";
