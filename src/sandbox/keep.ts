/**
 * What the sandbox keeps of a request it received (docs/sandbox.md): everything a test or an
 * operator reads back, but not the attachment bytes. 200 requests each carrying a 2 MB
 * letter of authorization held over 1 GB and made the request log unreadable; a file is
 * kept as its size and SHA-256, which `sha256sum` on the original checks.
 */
import { createHash } from "node:crypto";

/** Nesting kept; deeper parts are replaced by a note. Real bodies nest 4 levels. */
export const KEPT_DEPTH = 32;

/** Characters kept of any one string, or of a body that is not JSON. Real members are short. */
export const KEPT_TEXT_CHARS = 64 * 1024;

/** A `{FileName, ContentType, Base64Contents}` file as the sandbox keeps it. */
export interface KeptFile {
  readonly [member: string]: unknown;
  /** Bytes the Base64Contents decoded to. */
  readonly Bytes: number;
  /** SHA-256 of those bytes, hex. */
  readonly Sha256: string;
}

function keptText(text: string): string {
  if (text.length <= KEPT_TEXT_CHARS) return text;
  return `${text.slice(0, KEPT_TEXT_CHARS)}… (${text.length.toLocaleString("en-US")} characters; the rest not kept)`;
}

function keptFile(file: Record<string, unknown>, base64: string, depth: number): KeptFile {
  const bytes = Buffer.from(base64, "base64");
  const rest = Object.entries(file).filter(([name]) => name !== "Base64Contents");
  return {
    ...Object.fromEntries(rest.map(([name, value]) => [name, kept(value, depth + 1)])),
    Bytes: bytes.length,
    Sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

/** A copy of a received body (parsed JSON, or text) without attachment bytes, bounded in depth and text. */
export function kept(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return keptText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= KEPT_DEPTH) return `(nested deeper than ${KEPT_DEPTH} levels; not kept)`;
  if (Array.isArray(value)) return value.map((item) => kept(item, depth + 1));
  const record = value as Record<string, unknown>;
  const base64 = record["Base64Contents"];
  if (typeof base64 === "string") return keptFile(record, base64, depth);
  // fromEntries defines own members, so a "__proto__" member stays a member.
  return Object.fromEntries(Object.entries(record).map(([name, member]) => [name, kept(member, depth + 1)]));
}
