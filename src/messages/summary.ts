/**
 * The summary `submit` and `plan` end with on stderr (docs/contract.md §2, §4): rows by status,
 * requests, and one `next:` line a step a user takes, each for the rows it concerns. Each
 * entry's comment says what it means, then, after "Next:", what the user does about it.
 */

/** The first line: rows by status. Next: read the next: lines. */
export const runHeader = (command: string, rows: string, byStatus: string): string => `portin ${command}: ${rows}${byStatus.length > 0 ? `: ${byStatus}` : ""}`;

/** What a plan would send. Next: portin submit sends it. */
export const wouldSend = (requests: string, elapsed: string): string => `would send ${requests} (planned in ${elapsed}; nothing was sent)`;

/** What a submit sent, and how fast. Next: nothing. */
export const sent = (requests: string, elapsed: string, rate: string): string => `sent ${requests} in ${elapsed}${rate}`;

/** The sandbox ported nothing real. Next: give --base-url to port for real. */
export const NOTHING_REAL = " (nothing real was ported)";

/** `next:` for invalid rows. Next: fix them (result_message says how) and run again. */
export const nextFixRow = (rows: string, where: string): string => `${rows} invalid: fix them (see result_message in ${where}) and run again`;

/** `next:` for rows the service rejected. Next: fix them and run again; unchanged rows go only with --retry-rejected. */
export const nextReadRejection = (rows: string, where: string): string =>
  `${rows} rejected by the service: see result_message in ${where}; fix those rows and run again ` +
  "(a rejected row is sent again only once it has changed, or with --retry-rejected)";

/** `next:` for numbers the service says are not portable. Next: remove the rows, or port the numbers another way. */
export const nextPortAnotherWay = (rows: string, where: string): string =>
  `${rows} not portable to this service, as the service says (see result_message in ${where}): remove those rows, or port these numbers another way; ` +
  "running again will not change them";

/** `next:` for rows rejected earlier and unchanged. Next: fix them, or pass --retry-rejected. */
export const nextFixOrRetryRejected = (rows: string): string =>
  `${rows} rejected by an earlier run and unchanged since: fix them and run again, or pass --retry-rejected to send them as they are`;

/** `next:` for rows whose order the carrier rejected, unchanged. Next: fix what it disputes, or pass --retry-rejected. */
export const nextFixCarrierRejection = (rows: string, where: string): string =>
  `${rows} whose order the losing carrier rejected, unchanged since: fix what it disputes (see result_message in ${where}) and run again, ` +
  "or pass --retry-rejected to send them as they are";

/** `next:` for failed rows. Next: run again later; failed rows are sent again. */
export const nextRunAgain = (rows: string, where: string): string => `${rows} failed: see result_message in ${where}; run again later: failed rows are sent again`;

/** `next:` after an interrupted run. Next: run again; the journal skips what was submitted. */
export const nextRunAgainInterrupted = (rows: string): string => `interrupted: run again to send the ${rows} not sent (the journal skips what was submitted)`;

/** `next:` for rows not sent after refused credentials. Next: fix the credentials and run again. */
export const nextFixCredentials = (rows: string): string =>
  `${rows} not sent: the service refused the credentials: fix --user/--password (or PORTIN_USER/PORTIN_PASSWORD) and run again`;

/** `next:` for rows whose outcome was lost. Next: run again with the same --state; add --retry-unknown for those PortInStatus lacks. */
export const nextRunAgainToConfirm = (rows: string): string =>
  `${rows} unknown (sent, but the outcome could not be learned; the service may have accepted them): run again with the same --state: ` +
  "each is checked with PortInStatus first and skipped if the service has it; add --retry-unknown to resend those it lacks";

/** `next:` for unsure rows PortInStatus does not have. Next: run again with --retry-unknown. */
export const nextRetryUnknown = (rows: string): string => `${rows} unknown (PortInStatus finds no port-in for them): run again with --retry-unknown to send them`;

/** `next:` for unsure rows PortInStatus could not be asked about. Next: run again later. */
export const nextRunAgainToCheck = (rows: string): string =>
  `${rows} unknown (checking PortInStatus failed, so they were not sent again): run again later to check them`;

/** `next:` for rows the service refused because an order placed outside this journal already holds them. Next: nothing; they are skipped from now on and portin status follows that order. */
export const nextRefusedHeld = (rows: string, where: string): string =>
  `${rows} sent and refused by the service: an order placed outside this journal already holds each (another run sending the same numbers, ` +
  `another sheet or the web portal; see result_ticket and result_message in ${where}): they are skipped, never sent again, and portin status follows that order`;

/** `next:` for rows refused because another order holds them, which PortInStatus does not show yet. Next: run again later. */
export const nextRunAgainRefusedHeld = (rows: string): string =>
  `${rows} sent and refused by the service because another order already holds each, which PortInStatus does not show yet: run again later: ` +
  "the account's order list names that order, and once PortInStatus shows it they are skipped with its ticket";

/** `next:` for rows an open order holds without a ticket. Next: run again later; if still none, ask the service about the order. */
export const nextAskAboutOrder = (rows: string, where: string): string =>
  `${rows} unknown (an open order of the account's order list holds them, but PortInStatus gives no ticket for it), not sent: ` +
  `run again later; if PortInStatus still gives none, ask the service about the order result_message names in ${where}`;

/** Where the results went when written to standard output, in next: lines. Next: (part of them). */
export const RESULTS_ON_STDOUT = "the results on standard output";
