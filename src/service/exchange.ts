/**
 * One HTTP exchange after got's retries, reduced to what the outcome rules need, with every
 * piece of text already scrubbed of credentials. got's own errors hold the request options
 * (and so the Authorization header): nothing from them leaves this module but a code and a
 * scrubbed message.
 */
import { STATUS_CODES } from "node:http";
import { RequestError } from "got";
import { exceptionSchema } from "./answers.js";
import * as serviceWords from "../messages/service.js";
import { NEVER_CONNECTED_CODES } from "./retry-policy.js";
import type { BaseUrl } from "./base-url.js";

export interface HttpAnswer {
  readonly kind: "answer";
  readonly status: number;
  readonly body: string;
  /** Milliseconds the service asked us to wait, when it said so. */
  readonly retryAfterMs: number | null;
  readonly location: string | null;
  readonly retries: number;
  /** The service's clock as its `Date` header gave it (RFC 9110 §6.6.1), in ms since the epoch; null without one. */
  readonly serviceDate?: number | null;
}

export interface TransportFailure {
  readonly kind: "transport";
  /** False when no connection was ever made: nothing reached the service. */
  readonly reachedService: boolean;
  readonly timedOut: boolean;
  /** "connection refused by 127.0.0.1:4010", "no answer within 200 ms", … */
  readonly text: string;
  /** The service answered, but more than portin reads (client.ts MAX_ANSWER_BYTES). */
  readonly oversize?: true;
  /** Its TLS certificate is not trusted: never retried, and `text` already says what to do. */
  readonly untrusted?: true;
  readonly retries: number;
}

export type Exchange = HttpAnswer | TransportFailure;

/** Replaces every form of the credentials with `***` in text that came from outside portin. */
export type Scrub = (text: string) => string;

export function scrubberFor(user: string, password: string): Scrub {
  const encoded = [Buffer.from(`${user}:${password}`).toString("base64"), Buffer.from(password).toString("base64")];
  const plain = valuesScrubber([password]);
  return (text) => plain(encoded.reduce((acc, secret) => acc.split(secret).join("***"), text));
}

/**
 * Replaces each of `secrets` with `***`. A short one ("0", "1234") also occurs inside tickets
 * and numbers: it is scrubbed only where it stands alone, so "PI-000001" survives a secret of
 * "0" and the secret still does not.
 */
export function valuesScrubber(secrets: readonly string[]): Scrub {
  const patterns = secrets
    .filter((secret) => secret.length > 0)
    // Longest first: a secret holding another is replaced whole.
    .sort((a, b) => b.length - a.length)
    .map((secret) => {
      const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return secret.length >= SHORT_PASSWORD ? new RegExp(escaped, "g") : new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, "g");
    });
  return (text) => patterns.reduce((acc, pattern) => acc.replace(pattern, "***"), text);
}

/**
 * The values of a body's password members (`SipPassword`, `WebSelfCarePassword`, any member
 * whose name ends in "password", docs/contract.md §6's rule for columns). SPEC sends them to the service
 * and nowhere else; a service that quotes the body back in its message must not carry them
 * into the results, the journal or the terminal.
 */
export function passwordValuesIn(body: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    // Bodies portin builds nest four levels (Lines[].Number.Number).
    if (depth > 8 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [name, member] of Object.entries(value)) {
      if (/password$/i.test(name) && (typeof member === "string" || typeof member === "number")) found.add(String(member));
      else visit(member, depth + 1);
    }
  };
  visit(body, 0);
  return [...found];
}

/** Below this length a password is scrubbed only where it stands alone. */
const SHORT_PASSWORD = 8;

/** "422 Unprocessable Entity". */
export function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}

export function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The `Message` of an Exception body, or "" when the body is not one. */
export function exceptionMessage(body: string, scrub: Scrub): string {
  const json = parseJson(body);
  if (!json.ok) return "";
  const parsed = exceptionSchema().safeParse(json.value);
  return parsed.success ? scrub(parsed.data.message.trim()) : "";
}

export function fromResponse(response: { statusCode: number; body: unknown; headers: Record<string, unknown>; retryCount: number }, scrub: Scrub): HttpAnswer {
  return {
    kind: "answer",
    status: response.statusCode,
    body: typeof response.body === "string" ? response.body : "",
    retryAfterMs: retryAfterMs(response.headers["retry-after"]),
    location: typeof response.headers["location"] === "string" ? scrub(response.headers["location"]) : null,
    retries: response.retryCount,
    serviceDate: serviceDateOf(response.headers["date"]),
  };
}

function serviceDateOf(header: unknown): number | null {
  if (typeof header !== "string") return null;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : date;
}

function retryAfterMs(header: unknown): number | null {
  if (typeof header !== "string" || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export function fromError(error: unknown, base: BaseUrl, timeoutMs: number, scrub: Scrub): TransportFailure {
  if (!(error instanceof RequestError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "transport", reachedService: true, timedOut: false, text: scrub(message), retries: 0 };
  }
  const code = error.code;
  const retries = error.request?.retryCount ?? 0;
  const timings = error.timings;
  const https = base.href.startsWith("https:");
  // A TLS failure or a connect error happens before the request is written, whatever its code.
  const connected = timings !== undefined && (https ? timings.secureConnect !== undefined : timings.connect !== undefined);
  const neverConnected = NEVER_CONNECTED_CODES.includes(code) || !connected;
  const timedOut = error.name === "TimeoutError";
  if (UNTRUSTED_CERTIFICATE_CODES.includes(code)) {
    // docs/security.md: a service behind a private CA is trusted by naming the CA to Node.
    // Node 24 appends advice of its own after "; " (--use-system-ca): the reason is what comes
    // before, so the line reads the same on every Node a user runs, with one piece of advice.
    const reason = error.message.split("; ")[0] ?? error.message;
    const text = serviceWords.untrustedCertificate(base.hostPort, code, scrub(reason));
    return { kind: "transport", reachedService: false, timedOut: false, text, retries, untrusted: true };
  }
  const text = transportText(code, error.message, base, timeoutMs, timedOut, neverConnected, scrub);
  return { kind: "transport", reachedService: !neverConnected, timedOut, text, retries };
}

/** OpenSSL's and Node's codes for a certificate chain or name that does not verify. */
const UNTRUSTED_CERTIFICATE_CODES: readonly string[] = [
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
];

function transportText(
  code: string,
  message: string,
  base: BaseUrl,
  timeoutMs: number,
  timedOut: boolean,
  neverConnected: boolean,
  scrub: Scrub,
): string {
  if (timedOut) return neverConnected ? serviceWords.couldNotConnectWithin(base.hostPort, timeoutMs) : serviceWords.noAnswerWithin(timeoutMs);
  if (code === "ECONNREFUSED") return serviceWords.connectionRefused(base.hostPort);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return serviceWords.hostNotResolved(base.hostPort.replace(/:\d+$/, ""), code);
  if (code === "ECONNRESET" || code === "EPIPE") return serviceWords.connectionCut(code);
  return `${code}: ${scrub(message)}`;
}

/**
 * An answer cut off at client.ts's size cap. The request reached the service and its answer
 * went unread: a POST may have been accepted (docs/contract.md §4 `unknown`), a lookup failed.
 */
export function answerTooLarge(limitBytes: number): TransportFailure {
  const text = serviceWords.answerTooLarge(limitBytes / 1024 / 1024);
  return { kind: "transport", reachedService: true, timedOut: false, text, retries: 0, oversize: true };
}

export function retriesText(retries: number): string {
  return serviceWords.afterRetries(retries);

}
