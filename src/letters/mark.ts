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

export function markLetter(doc: PDFDocument, mark: LetterMark, subject: string, producer: string): void {
  doc.setKeywords([`${MARK}${mark.letter}`, ...(mark.numbers === null ? [] : [`${NUMBERS_MARK}${mark.numbers}`])]);
  doc.setSubject(`Letter of authorization: ${subject}`);
  doc.setCreator(producer);
  doc.setProducer(producer);
}

/** The mark a letter portin made carries, or null for any other PDF. */
export async function readLetterMark(bytes: Uint8Array): Promise<LetterMark | null> {
  if (!mayBeMarked(bytes)) return null;
  const { letterKeywords } = await import("./keywords.js");
  const keywords = await letterKeywords(bytes);
  const letter = keywords === null ? undefined : MARK_PATTERN.exec(keywords)?.[1];
  if (keywords === null || letter === undefined) return null;
  return { letter, numbers: NUMBERS_PATTERN.exec(keywords)?.[1] ?? null };
}
