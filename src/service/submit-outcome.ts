/**
 * docs/contract.md §4: what one POST's exchange means for its rows. Pure: the exchange has already
 * been through got's retries and has had its credentials scrubbed.
 */
import type { SubmitOutcome } from "./outcome.js";
import { REPLY_NAMES, ticketResponseSchema } from "./answers.js";
import { describeIssues } from "./zod-issues.js";
import { exceptionMessage, parseJson, retriesText, statusLine } from "./exchange.js";
import type { Exchange, HttpAnswer, Scrub } from "./exchange.js";
import { MAX_RETRY_AFTER_MS } from "./retry-policy.js";

const MAYBE_ACCEPTED = "it may have been accepted; check before resending with --retry-unknown";

/** "the service refused user 'x' (401): check …", shared by POST outcomes and lookups. */
export function authRefusal(user: string, status: number, serviceMessage: string): string {
  const said = serviceMessage === "" ? "" : ` (${serviceMessage})`;
  return `the service refused user '${user}' (${status})${said}: check --user/--password or PORTIN_USER/PORTIN_PASSWORD`;
}

export function submitOutcome(exchange: Exchange, user: string, scrub: Scrub): SubmitOutcome {
  if (exchange.kind === "transport") {
    if (!exchange.reachedService) {
      const retried = exchange.untrusted === true ? "" : ` ${retriesText(exchange.retries)}`;
      return { kind: "failed", httpStatus: null, message: `not sent: ${exchange.text}${retried}` };
    }
    return { kind: "unknown", httpStatus: null, message: `${exchange.text}: ${MAYBE_ACCEPTED}` };
  }
  const { status } = exchange;
  if (status >= 200 && status < 300) return ticketOutcome(exchange, scrub);
  const said = exceptionMessage(exchange.body, scrub);
  if (status === 401 || status === 403) return { kind: "auth", httpStatus: status, message: authRefusal(user, status, said) };
  if (status === 429 || status === 503) return { kind: "failed", httpStatus: status, message: throttledMessage(exchange, said) };
  if (status >= 300 && status < 400) {
    // Credentials must never travel to another host, so no redirect is followed (docs/contract.md §2);
    // the service committed nothing, so the rows are `failed` and the next run sends them (§4).
    const where = exchange.location === null ? "" : ` to ${exchange.location}`;
    return { kind: "failed", httpStatus: status, message: `not sent: HTTP ${statusLine(status)}: redirect${where} not followed; check --base-url` };
  }
  if (status === 408) {
    // The service gave up reading the request before acting on it: nothing committed (docs/contract.md §4).
    const what = said === "" ? "" : ` (${said})`;
    return { kind: "failed", httpStatus: status, message: `not accepted: HTTP ${statusLine(status)}${what}; the next run sends it again` };
  }
  if (status >= 400 && status < 500) return { kind: "rejected", httpStatus: status, message: said || `HTTP ${statusLine(status)}` };
  const what = said === "" ? `HTTP ${statusLine(status)}` : `HTTP ${statusLine(status)} (${said})`;
  return { kind: "unknown", httpStatus: status, message: `${what}: ${MAYBE_ACCEPTED}` };
}

function ticketOutcome(exchange: HttpAnswer, scrub: Scrub): SubmitOutcome {
  const { status } = exchange;
  const json = parseJson(exchange.body);
  const parsed = json.ok ? ticketResponseSchema().safeParse(json.value) : null;
  if (!parsed?.success) {
    const why = parsed ? describeIssues(parsed.error) : "not JSON";
    return { kind: "unknown", httpStatus: status, message: `HTTP ${status} without a TicketResponse (${scrub(why)}): ${MAYBE_ACCEPTED}` };
  }
  const ticket = parsed.data;
  const message = scrub(ticket.message);
  if (ticket.reply === 1 || ticket.reply === 2 || ticket.reply === 3) {
    return { kind: "accepted", httpStatus: status, reply: ticket.reply, ticket: scrub(ticket.ticketMask), message };
  }
  return { kind: "rejected", httpStatus: status, message: message || `Reply ${ticket.reply} (${REPLY_NAMES[ticket.reply]})` };
}

function throttledMessage(exchange: HttpAnswer, said: string): string {
  const what = `HTTP ${statusLine(exchange.status)}${said === "" ? "" : ` (${said})`}`;
  const wait = exchange.retryAfterMs;
  if (wait !== null && wait > MAX_RETRY_AFTER_MS) {
    return `not accepted: ${what} asked to wait ${Math.ceil(wait / 1000)} s, more than portin waits (${MAX_RETRY_AFTER_MS / 1000} s); resend later`;
  }
  return `not accepted: ${what} ${retriesText(exchange.retries)}`;
}
