/**
 * The one place that says what is retried (docs/contract.md §4, STYLE habit 4). got does the waiting:
 * exponential backoff from 1 s with up to 100 ms of jitter, or the service's Retry-After.
 */
import type { RetryOptions } from "got";

/**
 * Errors raised before a connection existed: nothing reached the service, so a POST is as
 * safe to resend as a GET. These are the codes Node (and so got's RequestError.code) uses.
 */
export const NEVER_CONNECTED_CODES: readonly string[] = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"];

/** docs/contract.md §4: throttling answers, retried for every method. */
const THROTTLED_STATUSES = [429, 503];

/** A GET changes nothing, so it may also be resent after a server error or a timeout. */
const LOOKUP_ONLY_STATUSES = [500, 502, 504];
const LOOKUP_ONLY_CODES = ["ETIMEDOUT", "ECONNRESET", "EPIPE"];

/**
 * Retry-After longer than this is not waited for: the request is `failed` at once (safe to
 * resend on a later run) rather than holding a cron run for an unbounded time.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Longest single backoff wait; with the default 5 retries the waits are 1, 2, 4, 8, 16 s. */
export const DEFAULT_BACKOFF_LIMIT_MS = 30_000;

/** `idempotent`: a request that changes nothing (a GET, the portability Check) is retried like a lookup. */
export function retryPolicy(method: "GET" | "POST" | "PUT", limit: number, backoffLimitMs: number, idempotent = method === "GET"): Partial<RetryOptions> {
  const lookup = idempotent;
  return {
    limit,
    methods: [method],
    statusCodes: lookup ? [...THROTTLED_STATUSES, ...LOOKUP_ONLY_STATUSES] : THROTTLED_STATUSES,
    errorCodes: lookup ? [...NEVER_CONNECTED_CODES, ...LOOKUP_ONLY_CODES] : [...NEVER_CONNECTED_CODES],
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    backoffLimit: backoffLimitMs,
  };
}
