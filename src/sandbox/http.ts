/**
 * The sandbox's HTTP plumbing: reading a bounded body, checking Basic credentials, and the
 * answer shape every handler returns.
 */
import { createHash, timingSafeEqual } from "node:crypto";
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

/** Base64 files ride in the body; beyond this the sandbox answers 413 rather than buffer without end. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** The body as text, or null when it exceeds MAX_BODY_BYTES (the rest is drained and dropped). */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString("utf8");
}

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** Compares digests in constant time, so neither the length nor a prefix of the secret leaks. */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function authorized(req: IncomingMessage, expected: Credentials): boolean {
  const header = req.headers.authorization ?? "";
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const userOk = same(decoded.slice(0, colon), expected.user);
  const passwordOk = same(decoded.slice(colon + 1), expected.password);
  return userOk && passwordOk;
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}

export function writeAnswer(res: ServerResponse, answer: Answer): void {
  const text = JSON.stringify(answer.body);
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
