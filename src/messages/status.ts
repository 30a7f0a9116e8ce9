/**
 * `portin status`'s words (docs/contract.md §6): each row's status_message (which `report`
 * shows too), the changes since the last check, and the summary with its `next:` lines.
 * Each entry's comment says what it means, then, after "Next:", what the user does about it.
 */

/** An earlier run never sent the number and no order holds it (`not-submitted`). Next: portin submit sends it. */
export const NOT_SUBMITTED_YET = "not submitted yet: portin submit sends it";

/** The row changed after it was refused or its order ended. Next: portin submit sends it again. */
export const CHANGED_SINCE = "the row has changed since: portin submit sends it again";

/** A rejection an older portin recorded without the row as sent: nothing says whether it changed. Next: portin submit sends it again. */
export const SENT_ROW_NOT_RECORDED = "the row as it was sent is not recorded: portin submit sends it again";

/** The service rejected the row, and it is unchanged. Next: fix the row and run portin submit. */
export const FIX_AND_SUBMIT = "fix the row and run portin submit";

/** What to do about an order the carrier ended, the row unchanged. Next: fix what the carrier disputes; unchanged rows go only with --retry-rejected. */
export const FIX_CARRIER_DISPUTE = "fix what the carrier disputes in the sheet, then portin submit sends it again (as it is, only with --retry-rejected)";

/** The service rejected the number when an earlier run sent it (`not-submitted`). Next: what `next` says. */
export const rejectedBefore = (message: string, next: string): string => `never submitted: the service rejected it (${message}); ${next}`;

/** An order an earlier check recorded as ended without porting (`ended`). Next: what `next` says. */
export const orderEndedWithoutPorting = (ticket: string, status: string, reason: string, found: string, next: string): string =>
  `ticket ${ticket} ended as ${status} without porting${reason ? `: ${reason}` : ""}${found}; ${next}`;

/** A number resent after its order ended, and the service shows only that order: the resend never took (`not-found`). Next: portin submit --retry-unknown sends it again. */
export const resentNeverTook = (what: string): string =>
  `an earlier run sent this number again without learning the outcome; ${what}: portin submit --retry-unknown sends it again`;

/** PortInStatus could not be asked, and no earlier check learned anything (`unchecked`). Next: run portin status again later. */
export const couldNotLearn = (reason: string): string => `${reason}: run portin status again later`;

/** The service has no port-in under the journal's ticket (`not-found`). Next: ask the service before sending these numbers again. */
export const noSuchTicket = (ticket: string): string =>
  `the service has no port-in ticket ${ticket} (404): ask the service about it before sending these numbers again`;

/** An open order of the account's list holds the number, and PortInStatus has none for it (`not-found`). Next: ask the service about the order; portin does not send the number meanwhile. */
export const heldByOrderWithoutPortIn = (order: string): string =>
  `held by open order ${order} of the account's order list, and PortInStatus has no port-in for it: ask the service about order ${order}; portin does not send it while the list holds it`;

/** An earlier run's unsure number the service has no port-in for (`not-found`). Next: portin submit --retry-unknown sends it again. */
export const UNSURE_NOT_FOUND =
  "an earlier run sent this number without learning the outcome, and the service has no port-in for it: portin submit --retry-unknown sends it again";

/** A number recorded as submitted without a ticket, which the service does not have (`not-found`). Next: ask the service before sending it again. */
export const SUBMITTED_NOT_FOUND =
  "submitted by an earlier run without a ticket, and the service has no port-in for it: ask the service about it before sending it again";

/** This check could not learn the status; the last one learned stands, with when (docs/contract.md §6). Next: run portin status again later. */
export const lastLearned = (status: string, portDate: string, at: string, reason: string): string =>
  `${status}${portDate === "" ? "" : ` (port date ${portDate})`} as last learned at ${at}; ${reason}: run portin status again later`;

/** Said after a status when an earlier run had not known the service accepted the number. Next: (part of the row's message). */
export const FOUND_UNSURE = " (an earlier run had not learned that the service accepted it)";

/** The number is ported (`completed`). Next: nothing to do. */
export const ported = (portDate: string, found: string): string => `ported${portDate ? ` on ${portDate}` : ""}${found}; nothing to do`;

/** The order waits for the losing carrier (`open`, SUBMITTED). Next: wait; check again tomorrow. */
export const waitingForCarrier = (found: string): string => `waiting for the losing carrier to confirm a port date${found}`;

/** The carrier confirmed the port (`open`, CONFIRMED). Next: nothing before the port date. */
export const carrierConfirmed = (portDate: string, found: string): string => `the losing carrier confirmed the port${portDate ? ` for ${portDate}` : ""}${found}`;

/** The order is open in another phase (`open`). Next: check again later. */
export const stillOpen = (status: string, found: string): string => `still open: the service says ${status}${found}`;

/** The row is invalid, so it was never sent (`not-submitted`). Next: fix the row (the reason says how). */
export const invalidNeverSubmitted = (reason: string): string => `never submitted: the row is invalid: ${reason}`;

/** `status` or `report` without a journal (no --state, e.g. stdin). Next: give --state, the journal submit wrote. */
export const NO_JOURNAL_TO_READ = "no journal to read: give --state, the journal portin submit wrote for this sheet";

/** No journal at the default path yet: nothing was submitted (`not-submitted`). Next: portin submit writes it. */
export const noJournalYet = (path: string): string => `not submitted: there is no journal at ${path} yet; portin submit writes it`;

/** The first line of the changes: since submit, or since the last check. Next: read the lines that follow. */
export const changesHeader = (previousCheck: string | null): string =>
  `portin status: changes ${previousCheck === null ? "since submit (first check)" : `since the last check (${previousCheck})`}:`;

/** Numbers newly CONFIRMED or COMPLETED since the last check. Next: nothing. */
export const newly = (count: number, label: string, shown: string): string => `  ${count} newly ${label}: ${shown}`;

/** Numbers newly REJECTED since the last check, by order with its reason. Next: fix what the carrier disputes (the summary's next: line). */
export const newlyRejected = (count: number, said: string, numbersLeft = 0, ordersLeft = 0): string =>
  `  ${count} newly REJECTED: ${said}` +
  (ordersLeft === 0 ? "" : `; and ${numbersLeft} more number${numbersLeft === 1 ? "" : "s"} in ${ordersLeft} more order${ordersLeft === 1 ? "" : "s"}`);

/** An order with no news for many business days. Next: ask the service or the losing carrier. */
export const silentOrder = (ticket: string, numbers: number, status: string, since: string, businessDays: number): string =>
  `  silent: ${ticket} (${numbers} number${numbers === 1 ? "" : "s"}) ${status} since ${since}, ${businessDays} business days with no change: ask the service or the losing carrier`;

/** Nothing moved since the last check. Next: nothing. */
export const NOTHING_CHANGED = "  nothing changed";

/** The summary's first line: rows by status. Next: read the next: lines. */
export const statusHeader = (rows: number, byStatus: string): string => `portin status: ${rows} ${rows === 1 ? "row" : "rows"}${byStatus.length > 0 ? `: ${byStatus}` : ""}`;

/** How many orders were asked about, with how many requests. Next: nothing. */
export const askedAbout = (orders: number, requests: number, elapsed: string): string =>
  `asked about ${orders} ${orders === 1 ? "order" : "orders"} with ${requests} PortInStatus ${requests === 1 ? "request" : "requests"} in ${elapsed}`;

/** `next:` for orders that ended without porting. Next: fix what the carrier disputes; submit sends changed rows (unchanged only with --retry-rejected). */
export const nextEnded = (n: string, where: string): string =>
  `${n}: the order ended without porting (see status_reject_reason and status_reject_details in ${where}): fix what the carrier disputes in the sheet, ` +
  "then portin submit sends the changed rows again (unchanged ones only with --retry-rejected)";

/** `next:` for numbers the service has no port-in for. Next: read status_message, which says whom to ask. */
export const nextNotFound = (n: string, where: string): string => `${n}: the service has no port-in for them: see status_message in ${where}`;

/** `next:` for statuses not learned. Next: run portin status again later. */
export const nextUnchecked = (n: string, where: string): string =>
  `${n}: their status could not be learned (see status_message in ${where}): run portin status again later`;

/** `next:` for ported numbers. Next: nothing to do. */
export const nextCompleted = (n: string): string => `${n}: ported; nothing to do`;

/** `next:` for rows never accepted. Next: portin submit sends the rows it can. */
export const nextNotSubmitted = (n: string, where: string): string =>
  `${n}: no order was accepted for them (see status_message in ${where}): portin submit sends the rows it can`;

/** `next:` for orders waiting on the carrier. Next: run portin status again tomorrow. */
export const nextWaiting = (n: string): string => `${n}: waiting for the losing carrier to confirm a port date: run portin status again tomorrow`;

/** `next:` for confirmed orders. Next: nothing before the port date. */
export const nextConfirmed = (n: string, where: string): string => `${n}: the port date is set (see status_port_date in ${where}); nothing to do before it`;

/** `next:` for orders open in another phase. Next: run portin status again later. */
export const nextOpen = (n: string): string => `${n}: still open: run portin status again later`;

/** Where the status report went when written to standard output, in next: lines. Next: (part of them). */
export const REPORT_ON_STDOUT = "the report on standard output";

/** The order holding the row was placed outside this journal (the web portal, another sheet, a lost journal). Next: nothing; check its port date. */
export const placedOutside = (ticket: string): string => `order ${ticket} was placed outside this journal (web portal, another sheet)`;

/** The account holds a port date other than the sheet's RequestedPortDate: the numbers move on the account's. Next: change the order with the service, or the sheet, so they agree. */
export const otherPortDate = (held: string, requested: string): string => `the account holds ${held}, not the sheet's RequestedPortDate ${requested}: the numbers move on ${held}`;
