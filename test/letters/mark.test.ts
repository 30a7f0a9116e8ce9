import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { LetterContent } from "../../src/group/letters.js";
import { letterFingerprint, letterNumbersFingerprint } from "../../src/group/letters.js";
import { readLetterMark } from "../../src/letters/mark.js";
import { renderLetter } from "../../src/letters/pdf.js";

const CONTENT: LetterContent = {
  customer: "Boulangerie Éclair",
  account: "BE-77",
  carrier: "Vidéotron",
  address: { CustomerStreetNumber: "1250", CustomerStreetName: "Boul René-Lévesque O", CustomerCity: "Montréal", CustomerProvince: "QC", CustomerPostalCode: "H3B 4W8", CustomerCountry: "CA" },
  numbers: ["5145550201", "5145550202"],
  portDates: ["2030-12-10"],
  french: true,
};

/** The letter as a PDF tool saves it once a signature is drawn on its last page. */
async function signed(letter: Uint8Array, useObjectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.load(letter);
  const font = await doc.embedFont(StandardFonts.HelveticaOblique);
  doc.getPages().at(-1)?.drawText("J. Tremblay", { x: 300, y: 400, size: 14, font });
  return doc.save({ useObjectStreams });
}

describe("portin's mark on a letter", () => {
  it("carries the fingerprint of the letter's values, in either language", async () => {
    const mark = { letter: letterFingerprint(CONTENT), numbers: letterNumbersFingerprint(CONTENT) };
    expect(await readLetterMark(await renderLetter(CONTENT, "fr", "portin test"))).toEqual(mark);
    expect(await readLetterMark(await renderLetter(CONTENT, "en", "portin test"))).toEqual(mark);
  });

  it("survives a signature drawn in a PDF tool, whether it saves the document's properties plain or in an object stream", async () => {
    const letter = await renderLetter(CONTENT, "fr", "portin test");
    const mark = { letter: letterFingerprint(CONTENT), numbers: letterNumbersFingerprint(CONTENT) };
    expect(await readLetterMark(await signed(letter, false))).toEqual(mark);
    expect(await readLetterMark(await signed(letter, true))).toEqual(mark);
  });

  it("reads a letter made before its numbers were marked apart, with no fingerprint of its numbers", async () => {
    const older = await PDFDocument.create();
    older.addPage();
    older.setKeywords(["portin-loa-v1:abcdefghijklmnopqrstuv"]);
    expect(await readLetterMark(await older.save({ useObjectStreams: false }))).toEqual({ letter: "abcdefghijklmnopqrstuv", numbers: null });
  });

  it("is read from the file's bytes when pdf-lib cannot load the letter, so that a damaged letter is not taken for a scan", async () => {
    const letter = Buffer.from(await renderLetter(CONTENT, "en", "portin test")).toString("latin1");
    // A page object a tool wrote wrong: pdf-lib refuses the file, whose Info still holds the mark.
    const damaged = letter.replace(/\n(\d+) 0 obj\n<<\n\/Type \/Page\n/, "\n$1 0 obj\n<< ]]] >> garbage\n");
    expect(damaged).not.toBe(letter);
    const mark = { letter: letterFingerprint(CONTENT), numbers: letterNumbersFingerprint(CONTENT) };
    expect(await readLetterMark(Buffer.from(damaged, "latin1"))).toEqual(mark);
    // The last Keywords written wins (a tool appends its update after what it replaces), and a literal string is read too.
    const updated = `${damaged}\n99 0 obj\n<< /Keywords (portin-loa-v1:abcdefghijklmnopqrstuv) >>\nendobj\n`;
    expect(await readLetterMark(Buffer.from(updated, "latin1"))).toEqual({ letter: "abcdefghijklmnopqrstuv", numbers: null });
  });

  it("is not found in a PDF portin did not make, which is checked only for being a PDF", async () => {
    expect(await readLetterMark(Buffer.from("%PDF-1.4 signed"))).toBeNull();
    for (const useObjectStreams of [false, true]) {
      const scan = await PDFDocument.create();
      scan.addPage();
      scan.setKeywords(["scanned", "portin-loa-v0:abc"]);
      expect(await readLetterMark(await scan.save({ useObjectStreams }))).toBeNull();
    }
  });
});
