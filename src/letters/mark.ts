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

export function markLetter(doc: PDFDocument, fingerprint: string, subject: string, producer: string): void {
  doc.setKeywords([`${MARK}${fingerprint}`]);
  doc.setSubject(`Letter of authorization: ${subject}`);
  doc.setCreator(producer);
  doc.setProducer(producer);
}

/**
 * The fingerprint a letter portin made carries, or null for any other PDF, including one
 * pdf-lib cannot read (an encrypted or damaged scan is still checked only for being a PDF).
 */
export async function readLetterMark(bytes: Uint8Array): Promise<string | null> {
  const { PDFDocument } = await import("pdf-lib");
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    const keywords = doc.getKeywords();
    return keywords === undefined ? null : (MARK_PATTERN.exec(keywords)?.[1] ?? null);
  } catch {
    return null;
  }
}
