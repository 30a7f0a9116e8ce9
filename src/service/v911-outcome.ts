/**
 * What one 9-1-1 registration's exchange (POST or PUT /v2/V911s…) means (docs/contract.md
 * §1.5, §4): the same rules as a port-in's POST, read from a V911 answer instead of a
 * TicketResponse. Pure, like submit-outcome.ts.
 */
import * as e911Words from "../messages/e911.js";
import { parseJson, statusLine } from "./exchange.js";
import type { Exchange, Scrub } from "./exchange.js";
import { submitOutcome } from "./submit-outcome.js";
import { v911AnswerSchema } from "./v911.js";
import type { V911Reply } from "./v911.js";
import { describeIssues } from "./zod-issues.js";

export type V911Outcome =
  /** 200 with Reply 1 and Accepted. */
  | { readonly kind: "registered" }
  /** 200 refusing the record, or a 4xx other than 401/403/408/429: nothing registered. */
  | { readonly kind: "refused"; readonly httpStatus: number; readonly message: string }
  /** 401 or 403: the run must stop sending. */
  | { readonly kind: "auth"; readonly message: string }
  /** Nothing reached the service, or it kept throttling: nothing registered. */
  | { readonly kind: "failed"; readonly message: string }
  /** 5xx, a timeout or a cut after sending: the record may have been made. */
  | { readonly kind: "unknown"; readonly message: string };


/** "the city … is not in the 9-1-1 database (it suggests City "Toronto", ProvinceState "ON")". */
export function refusalText(reply: Extract<V911Reply, { accepted: false }>): string {
  const parts = reply.refusals.map((r) => {
    const suggested = [r.suggestedCity === "" ? "" : `City ${JSON.stringify(r.suggestedCity)}`, r.suggestedProvince === "" ? "" : `ProvinceState ${JSON.stringify(r.suggestedProvince)}`].filter((s) => s !== "");
    return `${r.message || "refused"}${suggested.length === 0 ? "" : ` (it suggests ${suggested.join(", ")})`}`;
  });
  if (parts.length === 0) return reply.message === "" ? e911Words.REFUSED_BY_DATABASE : reply.message;
  return parts.join("; ");
}

export function v911Outcome(exchange: Exchange, user: string, scrub: Scrub): V911Outcome {
  if (exchange.kind === "answer" && exchange.status >= 200 && exchange.status < 300) {
    const json = parseJson(exchange.body);
    const parsed = json.ok ? v911AnswerSchema().safeParse(json.value) : null;
    if (!parsed?.success) {
      const why = parsed ? describeIssues(parsed.error) : "not JSON";
      return { kind: "unknown", message: e911Words.withoutV911Answer(exchange.status, scrub(why)) };
    }
    const reply = parsed.data;
    return reply.accepted ? { kind: "registered" } : { kind: "refused", httpStatus: exchange.status, message: scrub(refusalText(reply)) };
  }
  // Every other answer means what it means for a port-in's POST (submit-outcome.ts).
  const outcome = submitOutcome(exchange, user, scrub);
  switch (outcome.kind) {
    case "auth":
      return { kind: "auth", message: outcome.message };
    case "failed":
      return { kind: "failed", message: outcome.message };
    case "rejected":
      return { kind: "refused", httpStatus: outcome.httpStatus, message: outcome.message };
    case "unknown":
    case "accepted": {
      const what = outcome.httpStatus === null || outcome.kind === "accepted" ? outcome.message.replace(/: it may have been accepted.*$/, "") : `HTTP ${statusLine(outcome.httpStatus)}`;
      return { kind: "unknown", message: `${what}: ${e911Words.MAYBE_MADE}` };
    }
  }
}
