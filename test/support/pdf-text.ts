/**
 * A letter read back as a person or a carrier's software reads it: each page's text, and the
 * document's properties, with Mozilla's PDF.js (its legacy build runs on Node 20).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** PDF.js's metrics of the standard 14 fonts, which portin's letters use: read from its own folder. */
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

export interface PdfText {
  /** Each page's text, its lines joined with "\n". */
  readonly pages: readonly string[];
  readonly keywords: string;
  readonly title: string;
}

export async function readPdfText(path: string): Promise<PdfText> {
  const data = new Uint8Array(await readFile(path));
  const doc = await getDocument({ data, standardFontDataUrl: STANDARD_FONTS, useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let at = 1; at <= doc.numPages; at++) {
      const page = await doc.getPage(at);
      const content = await page.getTextContent();
      // Items in drawing order; a line's items share a baseline.
      const lines = new Map<number, string[]>();
      for (const item of content.items) {
        if (!("str" in item) || item.str === "") continue;
        const y = Math.round(item.transform[5] as number);
        lines.set(y, [...(lines.get(y) ?? []), item.str]);
      }
      pages.push([...lines.entries()].sort(([a], [b]) => b - a).map(([, parts]) => parts.join("   ")).join("\n"));
    }
    // PDF.js types the document's Info dictionary as a bare Object.
    const info: unknown = (await doc.getMetadata()).info;
    const field = (name: string): string => {
      const value = (info as Record<string, unknown>)[name];
      return typeof value === "string" ? value : "";
    };
    return { pages, keywords: field("Keywords"), title: field("Title") };
  } finally {
    await doc.destroy();
  }
}

/** Every number a letter lists, its ranges ("416-555-0101 to 416-555-0104") counted out, as 10 digits. */
export function listedNumbers(text: string): string[] {
  const numbers: string[] = [];
  for (const match of text.matchAll(/(\d{3})-(\d{3})-(\d{4})(?: (?:to|à) (\d{3})-(\d{3})-(\d{4}))?/g)) {
    const first = Number(`${match[1]}${match[2]}${match[3]}`);
    const last = match[4] === undefined ? first : Number(`${match[4]}${match[5]}${match[6]}`);
    for (let n = first; n <= last; n++) numbers.push(String(n));
  }
  return numbers;
}
