/**
 * `GET /_sandbox/requests`, the sandbox's log of accepted requests, served in pages
 * (docs/contract.md §2): the whole log as one JSON text grew past what V8 can hold in one string ("Invalid
 * string length") and took the sandbox down with its ledger.
 *
 * Query parameters (docs/sandbox.md): `after=SEQ`, the seq of the last request already read
 * (default 0: from the first); `limit=N`, requests per page, 1 to 1000 (default 100). A page
 * also stops before 8 MiB of JSON, but holds at least one request. While more remain, a
 * `Link: <…?after=SEQ&limit=N>; rel="next"` header gives the next page. The body stays a
 * JSON array, so a client of the unpaged log reads the first 100 as before.
 */
import type { Answer } from "./http.js";
import { exception, JsonText } from "./http.js";
import type { AcceptedRequest } from "./ledger.js";
import { REQUESTS_PATH } from "./routes.js";

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** A page any client can hold; the per-request bound (MAX_BODY_BYTES, without attachments) keeps one entry below it in practice. */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

function whole(params: URLSearchParams, name: string, min: number, max: number, fallback: number, meaning: string): number | Answer {
  const given = params.get(name);
  if (given === null) return fallback;
  const value = Number(given);
  if (/^\d+$/.test(given) && value >= min && value <= max) return value;
  return exception(400, "BadRequest", `${name} must be a whole number from ${min} to ${max} (${meaning}), not ${JSON.stringify(given)}`);
}

export function requestsPage(log: readonly AcceptedRequest[], params: URLSearchParams): Answer {
  const after = whole(params, "after", 0, Number.MAX_SAFE_INTEGER, 0, "the seq of the last request already read");
  if (typeof after !== "number") return after;
  const limit = whole(params, "limit", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, "requests per page");
  if (typeof limit !== "number") return limit;
  // seq n is at index n - 1: the page starts right after `after`.
  const parts: string[] = [];
  let bytes = 2;
  let at = after;
  for (; at < log.length && parts.length < limit; at++) {
    const json = JSON.stringify(log[at]);
    if (parts.length > 0 && bytes + json.length + 1 > MAX_PAGE_BYTES) break;
    parts.push(json);
    bytes += json.length + 1;
  }
  const headers: Record<string, string> = at < log.length ? { Link: `<${REQUESTS_PATH}?after=${at}&limit=${limit}>; rel="next"` } : {};
  return { status: 200, body: new JsonText(`[${parts.join(",")}]`), headers };
}
