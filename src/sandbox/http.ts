/**
 * The sandbox's HTTP plumbing: reading a bounded body, checking Basic credentials, and the
 * answer shape every handler returns.
 */
import { hash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exceptionJson } from "../service/answers.js";

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function exception(status: number, id: string, message: string, headers?: Record<string, string>): Answer {
  return { status, body: exceptionJson(id, message), ...(headers ? { headers } : {}) };
}

/**
 * Largest request body, in bytes. The service's own limit is not published; a service on IIS
 * (its `.svc` endpoints) refuses bodies past 30,000,000 bytes unless told otherwise
 * (maxAllowedContentLength's default), so the sandbox does the same. portin's own limits on
 * attachments (validate/files.ts: 16 MiB a request, 22.4 MB in base64) stay under it.
 */
export const MAX_BODY_BYTES = 30_000_000;

/**
 * How long a connection whose body was refused stays open after the 413. The 413 is sent
 * at once, while the client may still be sending; node then stops reading that request. A
 * client that reads as it sends (got, fetch) takes the 413 and stops; one that does not is
 * cut off after this, so that it holds no connection open for ever.
 */
export const DRAIN_MS = 2_000;

/**
 * The body as text, or null when it passes MAX_BODY_BYTES: refused on its Content-Length
 * before any of it is kept, or as soon as the bytes read pass it. Nothing past the limit is
 * held, and the connection is cut DRAIN_MS later if the client is still sending.
 */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (): void => {
      refused = true;
      chunks.length = 0;
      const cutOff = setTimeout(() => req.socket.destroy(), DRAIN_MS);
      cutOff.unref();
      req.once("end", () => clearTimeout(cutOff));
      req.once("close", () => clearTimeout(cutOff));
      resolve(null);
    };
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) refuse();
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else refuse();
    });
    req.once("end", () => resolve(refused ? null : Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
    // Every request closes; an Error (and its stack) only for one whose body never all arrived.
    req.once("close", () => {
      if (!req.complete) reject(new Error("the client closed the connection before the whole body arrived"));
    });
  });
}

/** The 413 that names the limit. */
export function bodyTooLarge(): Answer {
  return exception(
    413,
    "RequestEntityTooLarge",
    `the request body passes ${MAX_BODY_BYTES.toLocaleString("en-US")} bytes, the most the service takes: send fewer or smaller attachments in one request`,
  );
}

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** SHA-256 of `s`: comparing digests takes the same time whatever the lengths. One-shot `hash`: no Hash object per call. */
const digest = (s: string): Buffer => hash("sha256", s, "buffer");

/** The expected credentials' digests, worked out once per Credentials rather than on every request. */
const expectedDigests = new WeakMap<Credentials, { readonly user: Buffer; readonly password: Buffer }>();

function digestsOf(expected: Credentials): { readonly user: Buffer; readonly password: Buffer } {
  let digests = expectedDigests.get(expected);
  if (digests === undefined) {
    digests = { user: digest(expected.user), password: digest(expected.password) };
    expectedDigests.set(expected, digests);
  }
  return digests;
}

/** Compares digests in constant time, so neither the length nor a prefix of the secret leaks. */
export function authorized(req: IncomingMessage, expected: Credentials): boolean {
  const header = req.headers.authorization ?? "";
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const digests = digestsOf(expected);
  const userOk = timingSafeEqual(digest(decoded.slice(0, colon)), digests.user);
  const passwordOk = timingSafeEqual(digest(decoded.slice(colon + 1)), digests.password);
  return userOk && passwordOk;
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}

/** A body already serialized as JSON (a page of the request log, built to a size). */
export class JsonText {
  constructor(readonly text: string) {}
}

export function writeAnswer(res: ServerResponse, answer: Answer): void {
  const text = answer.body instanceof JsonText ? answer.body.text : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** A POST's JSON body, or the answer refusing it (413, 415, 400), as for a port-in. */
export function jsonBody(req: IncomingMessage, text: string | null): { value: unknown } | { answer: Answer } {
  if (text === null) return { answer: exception(413, "RequestEntityTooLarge", "the request body is too large") };
  if (!isJsonContentType(req)) {
    const given = req.headers["content-type"] ?? "none";
    return { answer: exception(415, "UnsupportedMediaType", `Content-Type must be application/json, not ${given}`) };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { answer: exception(400, "BadRequest", `the body is not valid JSON: ${(error as Error).message}`) };
  }
}

