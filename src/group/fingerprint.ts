/**
 * A row's fingerprint: a digest of everything a request would carry for it (number,
 * operation, target, PortForm, request and item members, after --defaults). The journal keeps
 * it beside a rejection, so a re-run can tell a row the user fixed (resent) from one left as
 * it was (still rejected: the service would answer the same). Columns never sent, and the
 * `group` label, do not count as a fix (docs/contract.md §5).
 */
import { createHash, hash } from "node:crypto";
import type { FileAttachment, Members } from "../catalog/members.js";
import type { ValidRow } from "../validate/types.js";
import { attachmentDigest } from "./requests.js";
import { e911Key } from "../catalog/e911.js";
import type { E911Address } from "../catalog/e911.js";

/** A fingerprint's length: 22 characters of base64url, 132 bits of the digest. */
export const FINGERPRINT_LENGTH = 22;

export function rowFingerprint(row: ValidRow): string {
  // The text JSON.stringify gives the whole array, built from cached parts: every row sent is
  // fingerprinted (its intent records it), and rows share their PortForm and request records.
  const canonical = `[${JSON.stringify(row.number)},${JSON.stringify(row.operation.id)},${JSON.stringify(row.target)},${membersText(row.portForm)},${membersText(row.request)},${membersText(row.item)}]`;
  // One-shot hashing: the digest is most of a fingerprint's cost (~2 µs).
  return hash("sha256", canonical, "base64url").slice(0, FINGERPRINT_LENGTH);
}

/** The slow, obvious form of rowFingerprint, which a test holds the fast one to. */
export function plainRowFingerprint(row: ValidRow): string {
  const canonical = JSON.stringify([row.number, row.operation.id, row.target, canonicalMembers(row.portForm), canonicalMembers(row.request), canonicalMembers(row.item)]);
  return createHash("sha256").update(canonical).digest("base64url").slice(0, FINGERPRINT_LENGTH);
}

/** Member records are frozen and shared by the rows of one customer (validate/validator.ts): their text is worked out once. */
const textOf = new WeakMap<Members, string>();

function membersText(members: Members): string {
  let text = textOf.get(members);
  if (text === undefined) {
    text = JSON.stringify(canonicalMembers(members));
    if (Object.isFrozen(members)) textOf.set(members, text);
  }
  return text;
}

/** Members in name order, attachments by digest: the same values always give the same text. */
function canonicalMembers(members: Members): unknown[] {
  return Object.keys(members)
    .sort()
    .map((name) => [name, canonicalValue(members[name])]);
}

function canonicalValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (value !== null && typeof value === "object") {
    if ("Base64Contents" in value) return `#file${attachmentDigest(value as FileAttachment)}`;
    return Object.keys(value)
      .sort()
      .map((key) => [key, canonicalValue((value as Record<string, unknown>)[key])]);
  }
  return value;
}

/**
 * A 9-1-1 address's fingerprint (docs/contract.md §1.5): the journal keeps it with each
 * registration, so a re-run tells a row whose address changed (a PUT) from one registered as
 * it is (nothing sent).
 */
export function e911Fingerprint(address: E911Address): string {
  return hash("sha256", e911Key(address), "base64url").slice(0, FINGERPRINT_LENGTH);
}
