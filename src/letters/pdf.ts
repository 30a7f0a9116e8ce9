/**
 * A letter of authorization as a PDF, with pdf-lib's standard Helvetica (docs/contract.md §2,
 * "Letters of authorization"): a US Letter page holding the header (customer, billing
 * address, carrier, account, port date), the numbers in columns, then the authorization and
 * the lines to sign. A list too long for one page flows onto more pages, each with the
 * header again, so that every page a carrier is faxed names whose numbers it lists; the
 * lines to sign come last. The fingerprint goes into the document properties (mark.ts).
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { PDFFont, PDFPage } from "pdf-lib";
import type { LetterContent, NumberRun } from "../group/letters.js";
import { letterFingerprint, letterNumbersFingerprint, numberRuns } from "../group/letters.js";
import { markLetter } from "./mark.js";
import type { LetterLanguage, Wording } from "./wording.js";
import { WORDING } from "./wording.js";

/** US Letter, in points: what Canadian and US offices print on. */
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const TITLE_SIZE = 18;
const TEXT_SIZE = 10;
const LINE = 14;
const NUMBER_LINE = 13;
const COLUMN_GAP = 18;
/** The least room a header label takes: the values line up after the widest label. */
const MIN_LABEL_WIDTH = 150;
const LABEL_GAP = 14;
/** Room the page number and fingerprint take at the foot of a page. */
const FOOTER = 28;

interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  /** What the fonts can print (WinAnsi): anything else is written without its accent, or as "?". */
  readonly printable: ReadonlySet<number>;
}

/** The letter's bytes. */
export async function renderLetter(content: LetterContent, language: LetterLanguage, producer: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, printable: new Set(regular.getCharacterSet()) };
  const words = WORDING[language];
  const fingerprint = letterFingerprint(content);
  const layout = new LetterLayout(content, words, fonts);

  const pages = layout.paginate();
  pages.forEach((entries, at) => {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let y = layout.drawHeader(page, at === 0 ? words.title : words.continued);
    if (at === 0) y = layout.drawNumbersHeading(page, y);
    y = layout.drawNumbers(page, y, entries);
    if (at === pages.length - 1) layout.drawSignature(page, y);
    layout.drawFooter(page, words.page(at + 1, pages.length), fingerprint);
  });

  doc.setTitle(`${words.title}: ${layout.print(content.customer)}`);
  doc.setLanguage(language === "fr" ? "fr-CA" : "en-CA");
  markLetter(doc, { letter: fingerprint, numbers: letterNumbersFingerprint(content) }, `${content.customer}, ${content.account}, ${content.numbers.length} numbers`, producer);
  // No object streams: the Info dictionary, which holds the mark, stays readable without inflating anything (mark.ts).
  return doc.save({ useObjectStreams: false });
}

/** "416-555-0101". */
export function formatNumber(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

class LetterLayout {
  private readonly entries: readonly string[];
  private readonly columns: number;
  private readonly columnWidth: number;
  private readonly labelWidth: number;

  constructor(
    private readonly content: LetterContent,
    private readonly words: Wording,
    private readonly fonts: Fonts,
  ) {
    this.entries = numberRuns(content.numbers).map((run) => this.entryOf(run));
    const widest = Math.max(1, ...this.entries.map((entry) => fonts.regular.widthOfTextAtSize(entry, TEXT_SIZE)));
    this.columns = Math.max(1, Math.min(4, Math.floor((CONTENT_WIDTH + COLUMN_GAP) / (widest + COLUMN_GAP))));
    this.columnWidth = (CONTENT_WIDTH + COLUMN_GAP) / this.columns - COLUMN_GAP;
    const labels = [...this.headerLines().map(([label]) => label), words.name, words.jobTitle, words.signature, words.date];
    this.labelWidth = Math.max(MIN_LABEL_WIDTH, ...labels.map((label) => fonts.bold.widthOfTextAtSize(this.print(`${label}${this.words.colon}`), TEXT_SIZE) + LABEL_GAP));
  }

  private entryOf(run: NumberRun): string {
    if (run.count === 1) return formatNumber(run.first);
    return `${formatNumber(run.first)} ${this.words.to} ${formatNumber(run.last)} (${run.count})`;
  }

  /** Text the fonts can print: accents WinAnsi lacks are dropped (Ł -> L), anything else is "?". */
  print(text: string): string {
    let out = "";
    for (const char of text.replace(/[\r\n\t]+/g, " ")) {
      const code = char.codePointAt(0) as number;
      if (this.fonts.printable.has(code)) {
        out += char;
        continue;
      }
      const plain = char.normalize("NFKD").replace(/\p{M}/gu, "");
      out += [...plain].every((c) => this.fonts.printable.has(c.codePointAt(0) as number)) && plain !== "" ? plain : "?";
    }
    return out;
  }

  private headerLines(): [label: string, value: string][] {
    const { content, words } = this;
    const a = content.address;
    const street = [a["CustomerStreetNumber"], a["CustomerStreetName"], a["CustomerStreetType"], a["CustomerStreetDirection"], a["CustomerStreetSuffix"]];
    const unit = [a["CustomerUnit"], a["CustomerFloor"]].filter((part) => part !== undefined).join(", ");
    const city = [a["CustomerCity"], a["CustomerProvince"]].filter((part) => part !== undefined).join(", ");
    const country = a["CustomerCountry"];
    const address = [
      [unit, street.filter((part) => part !== undefined).join(" ")].filter((part) => part !== "").join(" - "),
      [city, a["CustomerPostalCode"]].filter((part) => part !== undefined && part !== "").join("  "),
      country === undefined ? "" : (words.country[country] ?? country),
    ].filter((line) => line !== "");
    const lines: [string, string][] = [
      [words.customer, content.customer],
      ...address.map((line, at): [string, string] => [at === 0 ? words.billingAddress : "", line]),
      [words.carrier, content.carrier === "" ? words.notGiven : content.carrier],
      [words.account, content.account],
      [words.portDate, content.portDates.length === 0 ? words.noPortDate : content.portDates.join(", ")],
    ];
    return lines;
  }

  /** The header's height: the same on every page. */
  private headerHeight(): number {
    return TITLE_SIZE + 14 + this.headerLines().length * LINE + 16;
  }

  /** Draws the title and the header; returns the y under them. */
  drawHeader(page: PDFPage, title: string): number {
    let y = PAGE_HEIGHT - MARGIN - TITLE_SIZE;
    page.drawText(this.print(title), { x: MARGIN, y, size: TITLE_SIZE, font: this.fonts.bold });
    y -= 14 + LINE;
    for (const [label, value] of this.headerLines()) {
      if (label !== "") page.drawText(this.print(`${label}${this.words.colon}`), { x: MARGIN, y, size: TEXT_SIZE, font: this.fonts.bold });
      page.drawText(this.fit(value, CONTENT_WIDTH - this.labelWidth), { x: MARGIN + this.labelWidth, y, size: TEXT_SIZE, font: this.fonts.regular });
      y -= LINE;
    }
    y += LINE - 8;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE_WIDTH - MARGIN, y }, thickness: 0.7 });
    return y - 8 - LINE;
  }

  drawNumbersHeading(page: PDFPage, y: number): number {
    page.drawText(this.print(this.words.numbersHeading(this.content.numbers.length)), { x: MARGIN, y, size: 11, font: this.fonts.bold });
    return y - LINE - 4;
  }

  /** A page's entries in columns, down each column first; returns the y under the tallest. */
  drawNumbers(page: PDFPage, y: number, entries: readonly string[]): number {
    const rows = Math.ceil(entries.length / this.columns);
    entries.forEach((entry, at) => {
      const column = Math.floor(at / rows);
      const row = at % rows;
      page.drawText(entry, { x: MARGIN + column * (this.columnWidth + COLUMN_GAP), y: y - row * NUMBER_LINE, size: TEXT_SIZE, font: this.fonts.regular });
    });
    return y - rows * NUMBER_LINE - 10;
  }

  private paragraph(): string[] {
    const { content, words } = this;
    return this.wrap(this.print(words.authorization(content.customer, content.carrier === "" ? words.notGiven : content.carrier)), CONTENT_WIDTH);
  }

  /** The authorization and the four lines to fill in. */
  private signatureHeight(): number {
    return 8 + this.paragraph().length * LINE + 16 + 4 * 34;
  }

  drawSignature(page: PDFPage, top: number): void {
    let y = top - 8;
    for (const line of this.paragraph()) {
      page.drawText(line, { x: MARGIN, y, size: TEXT_SIZE, font: this.fonts.regular });
      y -= LINE;
    }
    y -= 16;
    for (const label of [this.words.name, this.words.jobTitle, this.words.signature, this.words.date]) {
      y -= 20;
      page.drawLine({ start: { x: MARGIN + this.labelWidth, y }, end: { x: PAGE_WIDTH - MARGIN, y }, thickness: 0.5 });
      page.drawText(this.print(`${label}${this.words.colon}`), { x: MARGIN, y: y + 2, size: TEXT_SIZE, font: this.fonts.bold });
      y -= 14;
    }
  }

  drawFooter(page: PDFPage, pageText: string, fingerprint: string): void {
    const size = 8;
    const y = MARGIN - 20;
    const text = this.print(pageText);
    page.drawText(text, { x: PAGE_WIDTH - MARGIN - this.fonts.regular.widthOfTextAtSize(text, size), y, size, font: this.fonts.regular });
    page.drawText(`portin ${fingerprint}`, { x: MARGIN, y, size, font: this.fonts.regular });
  }

  /**
   * The entries of each page. Every page has the header; the first also the numbers'
   * heading; the last also the authorization and the lines to sign, on a page of their own
   * if the numbers fill the one before.
   */
  paginate(): string[][] {
    const body = PAGE_HEIGHT - 2 * MARGIN - FOOTER - this.headerHeight();
    const linesOn = (first: boolean, last: boolean): number =>
      Math.max(0, Math.floor((body - (first ? LINE + 4 : 0) - (last ? this.signatureHeight() : 0) - 10) / NUMBER_LINE));
    const pages: string[][] = [];
    let at = 0;
    for (;;) {
      const first = pages.length === 0;
      const left = this.entries.length - at;
      const withSignature = linesOn(first, true) * this.columns;
      if (left <= withSignature) {
        pages.push(this.entries.slice(at));
        return pages;
      }
      const full = Math.max(1, linesOn(first, false) * this.columns);
      pages.push(this.entries.slice(at, at + full));
      at += Math.min(full, left);
    }
  }

  private wrap(text: string, width: number): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of text.split(" ")) {
      const next = line === "" ? word : `${line} ${word}`;
      if (line !== "" && this.fonts.regular.widthOfTextAtSize(next, TEXT_SIZE) > width) {
        lines.push(line);
        line = word;
      } else {
        line = next;
      }
    }
    if (line !== "") lines.push(line);
    return lines;
  }

  /** One line of a value, cut with "…" where it would run off the page. */
  private fit(value: string, width: number): string {
    let text = this.print(value);
    if (this.fonts.regular.widthOfTextAtSize(text, TEXT_SIZE) <= width) return text;
    while (text.length > 1 && this.fonts.regular.widthOfTextAtSize(`${text}…`, TEXT_SIZE) > width) text = text.slice(0, -1);
    return `${text}…`;
  }
}
