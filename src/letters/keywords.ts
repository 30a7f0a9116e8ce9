/**
 * A PDF's Keywords, read with pdf-lib: a module of its own, loaded only for a PDF that may carry
 * portin's mark (mark.ts), so that pdf-lib is loaded from node_modules only then.
 */
import { PDFDocument } from "pdf-lib";

/**
 * The document's Keywords, null when it has none; undefined when pdf-lib cannot load it (an
 * encrypted or damaged file), for the caller to look in its bytes instead (mark.ts). Invalid
 * objects throw rather than be reported on the console, which is the user's.
 */
export async function letterKeywords(bytes: Uint8Array): Promise<string | null | undefined> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
    return doc.getKeywords() ?? null;
  } catch {
    return undefined;
  }
}
