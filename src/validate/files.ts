/**
 * `portform.File…` values (docs/contract.md §3): paths read and sent base64 with a content type from
 * the extension. Each distinct file is read once per run and its attachment shared by
 * every row naming it, so a sheet of a million rows citing one LOA reads it once.
 *
 * Sheets arrive from customers by e-mail and portin runs with real credentials, so a path
 * in a cell is not trusted (docs/contract.md §3, docs/security.md): it may only name a regular file inside the folder it
 * is relative to. Everything is checked by path (realpath, stat) before any byte is read,
 * and the file is then opened in a way that cannot follow a link swapped in meanwhile nor
 * block on a FIFO, and checked again on the open descriptor.
 */
import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import type { FileAttachment } from "../catalog/members.js";
import type { Converted, FileAttacher } from "./convert.js";
import { describeSystemError } from "../system-error.js";
import { contentProblem } from "./file-content.js";
import * as rows from "../messages/rows.js";
import { nonRegularKind } from "../file-kind.js";

/**
 * Largest file portin attaches. SPEC does not say; letters of authorization and invoices are
 * scans of a few pages (a few hundred KB to 2-3 MB). 10 MiB leaves room for a long scanned
 * invoice while keeping a wrong file (a video, a disk image) from being base64'd into memory
 * and sent, to be refused by the service with a 413 that names no file.
 */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/**
 * Largest total of one row's attachments, every `File…` member together: rows of one
 * request share their PortForm, so this is also what one request body carries. Base64 makes
 * 16 MiB about 22.4 MB on the wire, under the 30,000,000-byte request limit IIS (which serves
 * the service's `.svc` endpoints) applies by default, with room left for the rest of the body.
 */
export const MAX_ROW_ATTACHMENT_BYTES = 16 * 1024 * 1024;

/**
 * Largest total of the distinct files one run attaches. Every row is validated before the
 * first POST (docs/contract.md §4), so every attachment is held in memory, base64'd, until it is sent:
 * 256 MiB of files is about 340 MB of base64 text, which a 2 GB heap holds beside a
 * million-row sheet. A sheet's attachments are a few letters and invoices; a sheet past
 * this names a folder of unrelated files, and splitting it is the remedy.
 */
export const MAX_RUN_ATTACHMENT_BYTES = 256 * 1024 * 1024;

/** How file contents are read once a path has passed the checks; injectable so tests can count reads. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

/** The folder attachments must lie in, and how messages name it. */
export interface AttachmentFolder {
  /** Absolute path; relative paths in cells resolve against it. */
  readonly dir: string;
  /** "the sheet's folder", "the --defaults file's folder", "the current directory". */
  readonly name: string;
  /** Why this folder, when it is not obvious: standard input has no folder of its own. */
  readonly why?: string;
}

const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  [".pdf", "application/pdf"],
  [".png", "image/png"],
  [".jpg", "image/jpeg"],
  [".jpeg", "image/jpeg"],
  [".tif", "image/tiff"],
  [".tiff", "image/tiff"],
  [".gif", "image/gif"],
  [".csv", "text/csv"],
  [".txt", "text/plain"],
  [".xls", "application/vnd.ms-excel"],
  [".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
  [".doc", "application/msword"],
  [".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
]);
const FALLBACK_CONTENT_TYPE = "application/octet-stream";

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES.get(extname(path).toLowerCase()) ?? FALLBACK_CONTENT_TYPE;
}

const MIB = 1024 * 1024;
/** "10 MiB" for the limits, which are whole MiB; "2.5 MiB" for sizes. */
export function mebibytes(bytes: number): string {
  return `${Number((bytes / MIB).toFixed(1))} MiB`;
}

/**
 * A hard link has no single real path to check: its other names may be anywhere on the
 * same file system (a link in the sheet's folder to a file outside it), and finding them
 * would take a walk of the whole file system. So a file with more than one name is refused;
 * a copy attaches (docs/contract.md §3).
 */
const HARD_LINK = rows.HARD_LINK;

/** What a non-regular file is, in words; null for a regular file with one name. */
function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return stats.nlink > 1 ? HARD_LINK : null;
  return nonRegularKind(stats);
}

/** Why a file of this size is refused, or null. */
function sizeProblem(bytes: number): string | null {
  if (bytes === 0) return rows.EMPTY_ATTACHMENT;
  if (bytes > MAX_ATTACHMENT_BYTES) {
    return rows.attachmentTooLarge(bytes.toLocaleString("en-US"), mebibytes(MAX_ATTACHMENT_BYTES));
  }
  return null;
}

/** Whether `path` is `folder` or below it; both absolute. */
function within(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

/** A file's problem, as the reason an attachment is refused. */
class Refused extends Error {}

/**
 * Reads a file already checked by path: O_NOFOLLOW refuses a symbolic link swapped in since,
 * O_NONBLOCK keeps a FIFO swapped in from blocking the open, and the descriptor is checked
 * again before reading. Never reads more than the limit, even from a file growing meanwhile.
 */
export async function readRegularFile(path: string): Promise<Uint8Array> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = await file.stat();
    const kind = kindOf(stats);
    if (kind !== null) throw new Refused(kind === HARD_LINK ? kind : `is ${kind}`);
    const size = sizeProblem(stats.size);
    if (size !== null) throw new Refused(size);
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, MAX_ATTACHMENT_BYTES) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await file.close();
  }
}

type Attached = FileAttachment | { readonly failure: string };

export function createFileAttacher(folder: AttachmentFolder, readFile: ReadFile = readRegularFile): FileAttacher {
  const byPath = new Map<string, Promise<Attached>>();
  const byCell = new Map<string, Promise<Converted>>();
  const rule = rows.attachmentRule(folder.name, folder.dir, folder.why);
  // The folder's own real path, once: /tmp may itself be a link (/private/tmp on macOS).
  let realFolder: Promise<string> | null = null;
  /** Bytes of the files attached so far, counted before each is read. */
  let held = 0;

  /** Problems seen from the path as written, before touching the file system. */
  function writtenProblem(written: string, absolute: string): string | null {
    if (written.includes("\0")) return "contains a NUL character";
    if (isAbsolute(written)) return "is an absolute path";
    return within(folder.dir, absolute) ? null : `is outside ${folder.name}`;
  }

  /** The file's real path and size, once it has passed every check on the file system. */
  async function check(absolute: string): Promise<{ real: string; size: number }> {
    realFolder ??= realpath(folder.dir);
    const [real, base] = await Promise.all([realpath(absolute), realFolder]);
    if (!within(base, real)) {
      throw new Refused(rows.leadsOutside(folder.name, real, rule));
    }
    const stats = await stat(real);
    const kind = kindOf(stats);
    if (kind !== null) throw new Refused(kind === HARD_LINK ? `${kind}: ${rule}` : `is ${kind}: ${rule}`);
    return { real, size: stats.size };
  }

  /** The attachment, or why not in words that follow `file "<path as written>"`. */
  async function load(absolute: string): Promise<Attached> {
    try {
      const { real, size: bytes } = await check(absolute);
      const size = sizeProblem(bytes);
      if (size !== null) throw new Refused(size);
      if (held + bytes > MAX_RUN_ATTACHMENT_BYTES) {
        throw new Refused(rows.runAttachmentsTooLarge(mebibytes(MAX_RUN_ATTACHMENT_BYTES)));
      }
      held += bytes;
      const contents = await readFile(real);
      // Checked again on what was read: a reader given by a test, or a file changed meanwhile.
      const after = sizeProblem(contents.byteLength);
      if (after !== null) throw new Refused(after);
      const content = await contentProblem(extname(absolute).toLowerCase(), contents);
      if (content !== null) throw new Refused(content);
      return {
        FileName: basename(absolute),
        ContentType: contentTypeOf(absolute),
        Base64Contents: Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString("base64"),
      };
    } catch (error) {
      if (error instanceof Refused) return { failure: error.message };
      return { failure: rows.attachmentUnreadable(describeSystemError(error), absolute) };

    }
  }

  /** One path as written: refused on its face, or loaded once per file however it is spelt. */
  function one(written: string): Promise<Attached> {
    const absolute = resolve(folder.dir, written);
    const problem = writtenProblem(written, absolute);
    if (problem !== null) return Promise.resolve({ failure: `${problem}: ${rule}` });
    let pending = byPath.get(absolute);
    if (pending === undefined) {
      pending = load(absolute);
      byPath.set(absolute, pending);
    }
    return pending;
  }

  async function all(paths: readonly string[]): Promise<Converted> {
    const attachments = await Promise.all(paths.map(one));
    const value: FileAttachment[] = [];
    for (const [i, attachment] of attachments.entries()) {
      if ("failure" in attachment) return { ok: false, reason: `file ${JSON.stringify(paths[i])} ${attachment.failure}` };
      value.push(attachment);
    }
    return { ok: true, value };
  }

  return {
    attach(paths) {
      // Rows citing the same cell share one array instance as well as the file reads.
      // JSON, not a join: a path holding the joining character must not meet two paths.
      const key = JSON.stringify(paths);
      let pending = byCell.get(key);
      if (pending === undefined) {
        pending = all(paths);
        byCell.set(key, pending);
      }
      return pending;
    },
  };
}

/** Bytes a base64 text decodes to. */
function decodedBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

function isAttachmentList(value: unknown): value is readonly FileAttachment[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "object" && v !== null && "Base64Contents" in v);
}

/** Whether a record holds any attachment (a defaults PortForm, say). */
export function hasAttachments(record: Readonly<Record<string, unknown>>): boolean {
  return Object.values(record).some(isAttachmentList);
}

/** Bytes of every attachment a PortForm record carries, all `File…` members together. */
export function attachmentBytes(record: Readonly<Record<string, unknown>>): number {
  let total = 0;
  for (const value of Object.values(record)) {
    if (!isAttachmentList(value)) continue;
    for (const file of value) total += decodedBytes(file.Base64Contents);
  }
  return total;
}
