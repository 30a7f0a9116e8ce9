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
import * as serviceWords from "../messages/service.js";
import { authRefusal } from "../messages/service.js";

export function submitOutcome(exchange: Exchange, user: string, scrub: Scrub): SubmitOutcome {
  if (exchange.kind === "transport") {
    if (!exchange.reachedService) {
      const retried = exchange.untrusted === true ? "" : ` ${retriesText(exchange.retries)}`;
      return { kind: "failed", httpStatus: null, message: serviceWords.notSent(exchange.text, retried) };
    }
    return { kind: "unknown", httpStatus: null, message: serviceWords.maybeAccepted(exchange.text) };
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
    return { kind: "failed", httpStatus: status, message: serviceWords.redirectNotFollowed(statusLine(status), where) };
  }
  if (status === 408) {
    // The service gave up reading the request before acting on it: nothing committed (docs/contract.md §4).
    return { kind: "failed", httpStatus: status, message: serviceWords.requestTimedOutAtService(statusLine(status), said) };
  }
  if (status >= 400 && status < 500) return { kind: "rejected", httpStatus: status, message: said || `HTTP ${statusLine(status)}` };
  const what = said === "" ? `HTTP ${statusLine(status)}` : `HTTP ${statusLine(status)} (${said})`;
  return { kind: "unknown", httpStatus: status, message: serviceWords.maybeAccepted(what) };
}

function ticketOutcome(exchange: HttpAnswer, scrub: Scrub): SubmitOutcome {
  const { status } = exchange;
  const json = parseJson(exchange.body);
  const parsed = json.ok ? ticketResponseSchema().safeParse(json.value) : null;
  if (!parsed?.success) {
    const why = parsed ? describeIssues(parsed.error) : "not JSON";
    return { kind: "unknown", httpStatus: status, message: serviceWords.noTicketResponse(status, scrub(why)) };
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
    return serviceWords.waitTooLong(what, Math.ceil(wait / 1000), MAX_RETRY_AFTER_MS / 1000);
  }
  return serviceWords.throttled(what, retriesText(exchange.retries));

}
