/**
 * `portform.File…` values (docs/contract.md §3): paths read and sent base64 with a content type from
 * the extension. Each distinct file is read once per run and its attachment shared by
 * every row naming it, so a sheet of a million rows citing one LOA reads it once.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import type { FileAttachment } from "../catalog/members.js";
import type { Converted } from "./convert.js";
import { describeSystemError } from "../system-error.js";

/** How file contents are read; injectable so tests can count reads. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

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

function describeReadError(error: unknown, absolute: string): string {
  return `${describeSystemError(error)}: ${absolute}`;
}

export interface FileAttacher {
  /** Paths `;`-separated, relative to `baseDir`; the reason names the path as written. */
  attach(paths: readonly string[], baseDir: string): Promise<Converted>;
}

export function createFileAttacher(readFile: ReadFile = fsReadFile): FileAttacher {
  const byPath = new Map<string, Promise<FileAttachment | { readonly failure: string }>>();
  const byCell = new Map<string, Promise<Converted>>();

  function one(written: string, baseDir: string): Promise<FileAttachment | { readonly failure: string }> {
    const absolute = resolve(baseDir, written);
    let pending = byPath.get(absolute);
    if (pending === undefined) {
      pending = readFile(absolute).then(
        (contents): FileAttachment => ({
          FileName: basename(absolute),
          ContentType: contentTypeOf(absolute),
          Base64Contents: Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString("base64"),
        }),
        (error: unknown) => ({
          failure: `file ${JSON.stringify(written)} cannot be read (${describeReadError(error, absolute)})`,
        }),
      );
      byPath.set(absolute, pending);
    }
    return pending;
  }

  async function all(paths: readonly string[], baseDir: string): Promise<Converted> {
    const attachments = await Promise.all(paths.map((path) => one(path, baseDir)));
    const value: FileAttachment[] = [];
    for (const attachment of attachments) {
      if ("failure" in attachment) return { ok: false, reason: attachment.failure };
      value.push(attachment);
    }
    return { ok: true, value };
  }

  return {
    attach(paths, baseDir) {
      // Rows citing the same cell share one array instance as well as the file reads.
      const key = `${baseDir}\0${paths.join("\0")}`;
      let pending = byCell.get(key);
      if (pending === undefined) {
        pending = all(paths, baseDir);
        byCell.set(key, pending);
      }
      return pending;
    },
  };
}
