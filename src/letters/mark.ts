/**
 * portin's mark on a letter it made (docs/contract.md §2, "Letters of authorization"): the
 * group's fingerprint in the document's Keywords, where PDF readers show it under the
 * document's properties and signing tools that keep the document keep it too. A PDF without
 * the mark (a scan of a letter signed on paper) is not one of portin's.
 */
import type { PDFDocument } from "pdf-lib";

/** The keyword before the fingerprint; a version, should what a fingerprint covers change. */
const MARK = "portin-loa-v1:";
const MARK_PATTERN = /(?:^|\s)portin-loa-v1:([A-Za-z0-9_-]+)(?:\s|$)/;
/** The fingerprint of the letter's numbers alone, beside the whole letter's; letters made before it was added carry none. */
const NUMBERS_MARK = "portin-loa-numbers-v1:";
const NUMBERS_PATTERN = /(?:^|\s)portin-loa-numbers-v1:([A-Za-z0-9_-]+)(?:\s|$)/;

/** What a letter portin made carries: its group's fingerprint, and that of its numbers alone (null when it has none). */
export interface LetterMark {
  readonly letter: string;
  readonly numbers: string | null;
}

/**
 * The mark as it lies in a file's bytes: a literal string, or the UTF-16 hex string pdf-lib
 * writes for Keywords, upper or lower case. Letters are saved without object streams
 * (pdf.ts), so that the document's Info lies uncompressed, and a signing tool that appends its
 * changes leaves it so.
 */
const MARK_BYTES: readonly Buffer[] = (() => {
  const hex = Buffer.from(MARK, "utf16le").swap16().toString("hex");
  return [Buffer.from(MARK, "latin1"), Buffer.from(hex.toUpperCase(), "latin1"), Buffer.from(hex, "latin1")];
})();

/** A file with compressed objects, where a tool that saved a letter again may have put its Info. */
const OBJECT_STREAM = Buffer.from("/ObjStm", "latin1");

/**
 * Whether a PDF may hold portin's mark: its bytes show it, or may hide it in an object stream.
 * Any other PDF (a scan, the usual attachment) is told apart without loading pdf-lib, so that a
 * run that attaches such scans loads nothing more.
 */
function mayBeMarked(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return MARK_BYTES.some((mark) => buffer.includes(mark)) || buffer.includes(OBJECT_STREAM);
}

/** A Keywords entry as the file's bytes hold it: a hex string (pdf-lib's, UTF-16 with a byte order mark) or a literal one. */
const KEYWORDS_ENTRY = /\/Keywords\s*(?:<([0-9A-Fa-f\s]*)>|\(((?:[^()\\]|\\.)*)\))/g;

/**
 * The Keywords a PDF's bytes hold, the last written (a tool's appended update comes after what
 * it replaces); null when none lies uncompressed. For a file pdf-lib cannot load.
 */
function keywordsInBytes(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let last: string | null = null;
  for (const [, hex, literal] of text.matchAll(KEYWORDS_ENTRY)) last = hex === undefined ? (literal ?? "") : fromHexString(hex);
  return last;
}

/** A PDF hex string's text: UTF-16 big-endian after its byte order mark, else one byte a character. */
function fromHexString(hex: string): string {
  const digits = hex.replace(/\s/g, "");
  const bytes = Buffer.from(digits.length % 2 === 0 ? digits : `${digits}0`, "hex");
  if (bytes.length < 2 || bytes[0] !== 0xfe || bytes[1] !== 0xff) return bytes.toString("latin1");
  const utf16 = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
  return utf16.swap16().toString("utf16le");
}

export function markLetter(doc: PDFDocument, mark: LetterMark, subject: string, producer: string): void {
  doc.setKeywords([`${MARK}${mark.letter}`, ...(mark.numbers === null ? [] : [`${NUMBERS_MARK}${mark.numbers}`])]);
  doc.setSubject(`Letter of authorization: ${subject}`);
  doc.setCreator(producer);
  doc.setProducer(producer);
}

/**
 * The mark a letter portin made carries, or null for any other PDF. A file pdf-lib cannot load
 * whose bytes show the mark (a letter a tool damaged in saving it) is still portin's letter, not
 * a scan: its mark is read from the bytes, and a stale one is found stale (docs/contract.md §2).
 */
export async function readLetterMark(bytes: Uint8Array): Promise<LetterMark | null> {
  if (!mayBeMarked(bytes)) return null;
  const { letterKeywords } = await import("./keywords.js");
  const read = await letterKeywords(bytes);
  const keywords = read === undefined ? keywordsInBytes(bytes) : read;
  const letter = keywords === null ? undefined : MARK_PATTERN.exec(keywords)?.[1];
  if (keywords === null || letter === undefined) return null;
  return { letter, numbers: NUMBERS_PATTERN.exec(keywords)?.[1] ?? null };
}
