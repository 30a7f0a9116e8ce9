/**
 * What a lookup's exchange means: the parsed list, or the error that stops the run
 * (docs/contract.md §7: lookups failed, auth refused => exit 2). Pure, like submit-outcome.ts.
 */
import type { z } from "zod";
import { AuthError, LookupError } from "../errors.js";
import { describeIssues } from "./zod-issues.js";
import { exceptionMessage, parseJson, retriesText, statusLine } from "./exchange.js";
import type { Exchange, Scrub } from "./exchange.js";
import type { BaseUrl } from "./base-url.js";
import * as serviceWords from "../messages/service.js";
import { authRefusal } from "../messages/service.js";

export interface LookupContext {
  readonly path: string;
  /** "a list of SIP trunks", for "did not answer a list of SIP trunks". */
  readonly what: string;
  readonly base: BaseUrl;
  readonly user: string;
  readonly scrub: Scrub;
  /**
   * What an answer past the size cap means. For a list that stays small (trunks, offerings)
   * it is no such list, so the URL is wrong; a list that grows with the account (its orders)
   * is simply that large, and the hint says so instead.
   */
  readonly oversize?: string;
  /**
   * A list asked for once a run (trunks, offerings, holidays, the order list): parsed without
   * zod's compiled fast path, whose compiling costs more than it saves on one answer (offering
   * lists of 5 to 10,000 parsed faster without it: bench/README.md, Start-up). A
   * PortInStatus, asked for once a number, keeps it: over 10,000 answers it parses a quarter faster.
   */
  readonly askedOnce?: boolean;
}

/** The parsed answer; `null` for a 404 when `notFoundIsNull` (a number without a port-in). */
export function lookupAnswer<S extends z.ZodType>(
  exchange: Exchange,
  schema: S,
  context: LookupContext,
  notFoundIsNull = false,
  method: "GET" | "POST" = "GET",
): z.output<S> | null {
  const name = `${method} ${context.path}`;
  if (exchange.kind === "transport") {
    if (exchange.oversize === true) throw new LookupError(serviceWords.lookupTooLarge(name, exchange.text, context.oversize ?? serviceWords.LOOKUP_TOO_LARGE_NEXT));
    if (exchange.untrusted === true) throw new LookupError(serviceWords.lookupUnreachable(name, context.base.href, exchange.text, null));
    throw new LookupError(serviceWords.lookupUnreachable(name, context.base.href, exchange.text, retriesText(exchange.retries)));
  }
  const { status } = exchange;
  // The service's own words, read only from an answer that is not the list: a 200's body is
  // parsed once, below (for `status`, 10,000 answers a night).
  const said = (): string => exceptionMessage(exchange.body, context.scrub);
  if (status === 401 || status === 403) throw new AuthError(authRefusal(context.user, status, said()));
  if (status === 404 && notFoundIsNull) return null;
  if (status !== 200) {
    const where = status >= 300 && status < 400 && exchange.location !== null ? serviceWords.redirectTo(exchange.location) : "";
    throw new LookupError(serviceWords.lookupAnswered(name, statusLine(status), where, said(), status >= 500 || status === 429));
  }
  const json = parseJson(exchange.body);
  if (!json.ok) {
    const start = context.scrub(exchange.body.slice(0, 40).replace(/\s+/g, " "));
    throw new LookupError(serviceWords.lookupNotJson(name, start));
  }
  const parsed = schema.safeParse(json.value, { jitless: context.askedOnce === true });
  if (!parsed.success) {
    throw new LookupError(serviceWords.lookupNotAsExpected(name, context.what, context.scrub(describeIssues(parsed.error))));

  }
  return parsed.data;
}
