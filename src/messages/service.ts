/**
 * What portin says of the service's answers: a lookup that failed (LookupError or AuthError,
 * exit 2), and what one POST's exchange means for its rows, the result_message of a `failed`,
 * `unknown` or `auth` row (docs/contract.md §4). Each entry's comment says what it means, then,
 * after "Next:", what the user does about it. The service's own words reach these scrubbed of
 * credentials (service/exchange.ts).
 */

/** A POST reached the service but its answer was lost: the service may hold the order (`unknown`). Next: check before resending with --retry-unknown. */
export const MAYBE_ACCEPTED = "it may have been accepted; check before resending with --retry-unknown";

/** The service refused the credentials (401/403), for a POST or a lookup. Next: fix --user/--password or PORTIN_USER/PORTIN_PASSWORD. */
export const authRefusal = (user: string, status: number, serviceMessage: string): string =>
  `the service refused user '${user}' (${status})${serviceMessage === "" ? "" : ` (${serviceMessage})`}: check --user/--password or PORTIN_USER/PORTIN_PASSWORD`;

/** How many times got retried before giving up, within another message. Next: (part of that message). */
export const afterRetries = (retries: number): string => `after ${retries} ${retries === 1 ? "retry" : "retries"}`;

/** The request never reached the service, so nothing was committed (`failed`). Next: the next run sends it again. */
export const notSent = (text: string, retried: string): string => `not sent: ${text}${retried}`;

/** An answer after the request reached the service, without a ticket: it may hold the order (`unknown`). Next: check before resending with --retry-unknown. */
export const maybeAccepted = (what: string): string => `${what}: ${MAYBE_ACCEPTED}`;

/** The service answered with a redirect, which portin never follows with credentials (docs/contract.md §2). Next: check --base-url. */
export const redirectNotFollowed = (statusLine: string, where: string): string => `not sent: HTTP ${statusLine}: redirect${where} not followed; check --base-url`;

/** The service gave up reading the request (408) before acting on it. Next: the next run sends it again. */
export const requestTimedOutAtService = (statusLine: string, said: string): string =>
  `not accepted: HTTP ${statusLine}${said === "" ? "" : ` (${said})`}; the next run sends it again`;

/** A 2xx answer that is not the TicketResponse the contract promises: the order may exist (`unknown`). Next: check before resending with --retry-unknown. */
export const noTicketResponse = (status: number, why: string): string => `HTTP ${status} without a TicketResponse (${why}): ${MAYBE_ACCEPTED}`;

/** The service asked to wait longer than portin waits within a run (`failed`). Next: run again later. */
export const waitTooLong = (what: string, waitSeconds: number, maxSeconds: number): string =>
  `not accepted: ${what} asked to wait ${waitSeconds} s, more than portin waits (${maxSeconds} s); resend later`;

/** The service kept throttling or was unavailable through every retry (`failed`). Next: the next run sends it again. */
export const throttled = (what: string, retries: string): string => `not accepted: ${what} ${retries}`;

/** A TLS certificate Node does not trust (docs/security.md). Next: name a private CA's certificate in NODE_EXTRA_CA_CERTS. */
export const untrustedCertificate = (hostPort: string, code: string, reason: string): string =>
  `the TLS certificate of ${hostPort} is not trusted (${code}: ${reason}); if a private CA signed it, name the CA's certificate file in NODE_EXTRA_CA_CERTS (docs/security.md)`;

/** No connection within --timeout. Next: check the network and --base-url, or raise --timeout. */
export const couldNotConnectWithin = (hostPort: string, timeoutMs: number): string => `could not connect to ${hostPort} within ${timeoutMs} ms`;

/** Connected, but no answer within --timeout. Next: raise --timeout, or try again later. */
export const noAnswerWithin = (timeoutMs: number): string => `no answer within ${timeoutMs} ms`;

/** Nothing listens at the service's address. Next: check --base-url and that the service is up. */
export const connectionRefused = (hostPort: string): string => `connection refused by ${hostPort}`;

/** The service's host name does not resolve. Next: check --base-url and the network's DNS. */
export const hostNotResolved = (host: string, code: string): string => `host ${host} not resolved (${code})`;

/** The connection closed before the answer came. Next: for a POST, the row is `unknown`; otherwise try again. */
export const connectionCut = (code: string): string => `connection cut before the answer (${code})`;

/** An answer past client.ts's size cap, left unread. Next: check --base-url (the caller says what else). */
export const answerTooLarge = (mebibytes: number): string => `the answer passed ${mebibytes} MiB, more than portin reads, and was not read`;

/** A lookup's oversize answer most often means the URL names something else. Next: check --base-url. */
export const LOOKUP_TOO_LARGE_NEXT = "check --base-url: it names something other than the service";

/** The order list's oversize answer: more orders than portin reads, or not the service. Next: check --base-url. */
export const ORDER_LIST_TOO_LARGE_NEXT = "the account holds more orders than portin reads, or --base-url names something other than the service";

/** The order list's answer is not JSON. Next: check --base-url. */
export const orderListNotJson = (name: string, start: string): string => `${name} did not answer JSON (it began "${start}"); check --base-url`;

/** The order list's answer has no Orders list. Next: check --base-url. */
export const orderListWithoutOrders = (name: string): string => `${name} did not answer a list of port-in orders: it has no Orders list; check --base-url`;

/** The order list's answer is not a list of port-in orders. Next: check --base-url. */
export const orderListNotAList = (name: string): string => `${name} did not answer a list of port-in orders; check --base-url`;

/** A lookup's answer was too large to read. Next: what `next` says. */
export const lookupTooLarge = (name: string, text: string, next: string): string => `${name}: ${text}; ${next}`;

/** A lookup could not reach the service at all. Next: check --base-url and that the service is up (`retries` says how hard portin tried). */
export const lookupUnreachable = (name: string, baseUrl: string, text: string, retries: string | null): string =>
  retries === null ? `${name} could not reach ${baseUrl}: ${text}` : `${name} could not reach ${baseUrl}: ${text} ${retries}; check --base-url and that the service is up`;

/** A lookup's redirect, which portin does not follow. Next: (part of lookupAnswered). */
export const redirectTo = (location: string): string => ` (redirect to ${location} not followed)`;

/** A lookup answered another status than 200. Next: try again later for 429/5xx, else check --base-url. */
export const lookupAnswered = (name: string, statusLine: string, where: string, words: string, retryable: boolean): string =>
  `${name} answered ${statusLine}${where}${words === "" ? "" : `: ${words}`}; ${retryable ? "try again later" : "check --base-url"}`;

/** A lookup's answer is not JSON: most likely not the service. Next: check --base-url. */
export const lookupNotJson = (name: string, start: string): string => `${name} did not answer JSON (it began "${start}"); check --base-url`;

/** A lookup's JSON is not what the contract describes. Next: check --base-url; the issues say what differs. */
export const lookupNotAsExpected = (name: string, what: string, issues: string): string => `${name} did not answer ${what}: ${issues}`;

/** A holiday's date in the service's list is not a date (a schema issue, named in lookupNotAsExpected). Next: ask the service. */
export const NOT_A_HOLIDAY_DATE = "is not a date such as 2026-12-25T00:00:00";

/** A portable prefix in the service's list is not an NPA-NXX (a schema issue). Next: ask the service. */
export const NOT_AN_NPA_NXX = "is not a 6-digit NPA-NXX";

/** --check-portability could learn neither the list of portable prefixes nor a prefix's own check (exit 2). Next: try again later, or leave out --check-portability. */
export const portabilityUnknown = (listFailure: string, npaNxx: string, reason: string): string =>
  `--check-portability: cannot learn which NPA-NXX the service ports in: the list failed (${listFailure}) and so did the check of ${npaNxx} ` +
  `(${reason}); try again later, or leave out --check-portability`;

/** The client's own check of a body it built (service/body-schema.ts): a number that is not NANP. Next: a fault of portin's; report it. */
export const BODY_NOT_NANP = "must be a 10-digit NANP telephone number";

/** The client's own check of a body: a request without numbers. Next: a fault of portin's; report it. */
export const BODY_NO_NUMBERS = "must list at least one number";

/** The client's own check of a body: a regular number's PortForm without its provider. Next: a fault of portin's; report it. */
export const BODY_NO_PROVIDER = "a regular-number PortForm needs CurrentProvider or CurrentReseller";

/** The client's own check of a body: an item list without items. Next: a fault of portin's; report it. */
export const BODY_NO_ITEMS = "must list at least one item";
