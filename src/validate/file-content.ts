/**
 * Attachments are what their names say (docs/contract.md §3): a `.pdf` must be a PDF, a
 * `.png`, `.jpg`/`.jpeg`, `.tif`/`.tiff` or `.gif` that image, judged by the content with
 * file-type's signatures. A browser's "Session expired" page saved as `loa.pdf` would
 * otherwise go to the carrier as a letter of authorization, and come back a rejection.
 * Other extensions (documents, spreadsheets, text) are sent as they are.
 */
import type { FileTypeResult } from "file-type/core";
import * as rows from "../messages/rows.js";

/**
 * file-type and its readers take a few hundred milliseconds to load: loaded the first time an
 * attachment is checked, so that every other command (and every sheet without files) starts
 * as fast as before.
 */
let detector: Promise<(contents: Uint8Array) => Promise<FileTypeResult | undefined>> | null = null;
const detect = (contents: Uint8Array): Promise<FileTypeResult | undefined> => {
  detector ??= import("file-type/core").then((module) => module.fileTypeFromBuffer);
  return detector.then((fileTypeFromBuffer) => fileTypeFromBuffer(contents));
};

/** The types checked, by extension: what a name promises, in words, and the MIME types that keep it. */
const PROMISES: ReadonlyMap<string, { readonly what: string; readonly mimes: readonly string[] }> = new Map([
  // Illustrator files are PDFs with extra data: file-type names them apart.
  [".pdf", { what: "a PDF", mimes: ["application/pdf", "application/illustrator"] }],
  [".png", { what: "a PNG image", mimes: ["image/png"] }],
  [".jpg", { what: "a JPEG image", mimes: ["image/jpeg"] }],
  [".jpeg", { what: "a JPEG image", mimes: ["image/jpeg"] }],
  [".tif", { what: "a TIFF image", mimes: ["image/tiff"] }],
  [".tiff", { what: "a TIFF image", mimes: ["image/tiff"] }],
  [".gif", { what: "a GIF image", mimes: ["image/gif"] }],
]);

/** Characters of a text file's beginning a message quotes. */
const QUOTED_AT_MOST = 60;

/** What the content is, in words: "HTML text (it begins "<!DOCTYPE html>…")", "a ZIP archive (application/zip)". */
function contentOf(contents: Uint8Array, found: FileTypeResult | undefined): string {
  if (found !== undefined) return `${found.ext.toUpperCase()} (${found.mime})`;
  const head = Buffer.from(contents.buffer, contents.byteOffset, Math.min(contents.byteLength, 512)).toString("utf8");
  // Text: no NUL and no replacement characters in the first bytes.
  if (!head.includes("\u0000") && !head.includes("\uFFFD")) {
    const start = head.trimStart().replace(/\s+/g, " ");
    const kind = /^<(!doctype html|html|head|body)\b/i.test(start) ? "HTML text" : "text";
    const quoted = start.length > QUOTED_AT_MOST ? `${start.slice(0, QUOTED_AT_MOST)}…` : start;
    return `${kind} (it begins ${JSON.stringify(quoted)})`;
  }
  return rows.NO_KNOWN_TYPE;
}

/** Why the content is not what `extension` (".pdf", lower case) promises; null when it is, or when the extension promises nothing checked. */
export async function contentProblem(extension: string, contents: Uint8Array): Promise<string | null> {
  const promise = PROMISES.get(extension);
  if (promise === undefined) return null;
  const found = await detect(contents);
  if (found !== undefined && promise.mimes.includes(found.mime)) return null;
  return rows.contentNotAsNamed(promise.what, contentOf(contents, found));

}
