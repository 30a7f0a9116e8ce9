/**
 * A results row's cells as worksheet XML (docs/contract.md §6): every cell an inline string, so
 * that Excel never reformats one. xlsx-writer.ts writes rows with it; input-copy.ts makes the
 * input's own cells of a row into their XML with it while the sheet is read, for the writer to
 * copy, with the row's result cells after them (xlsxRowTexts). Apart from xlsx-writer.ts, which
 * starts a worker thread, so that a run without workbook results never loads one. Pure.
 */
import { columnLetters } from "../input/cell-ref.js";
import { inputShaper } from "./cells.js";
import type { RowTexts } from "./encoder.js";
import { MAX_CELL_CHARS, TEXT_STYLE } from "./xlsx-parts.js";

/**
 * A workbook's columns are sized to its header and its first rows, at most this many (fewer
 * when they pass ~64 KB of XML, xlsx-writer.ts): the widths precede the rows in the worksheet.
 * input-copy.ts keeps these rows as cells for the writer to measure, later ones as their XML.
 */
export const SIZED_ROWS = 256;

/** The worksheet row of results row `index` (from 0): the header is row 1. */
export const sheetRow = (index: number): number => index + 2;

/** Writes rows' cells: each column's cell opening, `<c r="AB`, made once. */
export class RowXml {
  private readonly openings: string[] = [];

  /** `<row r="…">`, as a row starts. */
  start(row: number): string {
    return `<row r="${row}">`;
  }

  /**
   * The XML of `cells`, the row's cells from column `from` (0-based) on, in row `row`: each in
   * `style`, the one at `statusAt` in `statusStyle`; an empty cell is left out.
   */
  cells(cells: readonly string[], row: number, from: number, style: number, statusAt = -1, statusStyle = style): string {
    // A cell's XML is its column's opening, the row number, then its style's: three pieces made once, not five a cell.
    const styled = `${row}" s="${style}" t="inlineStr"><is>`;
    let xml = "";
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      if (value === undefined || value === "") continue;
      const opening = this.opening(from + i);
      xml += (from + i === statusAt ? `${opening}${row}" s="${statusStyle}" t="inlineStr"><is>` : opening + styled) + textElement(value) + "</is></c>";
    }
    return xml;
  }

  private opening(column: number): string {
    return (this.openings[column] ??= `<c r="${columnLetters(column + 1)}`);
  }
}

/**
 * Returns a function making rows' own cells (`indexes` their results rows) into the XML that
 * starts their row in workbook results with the result columns last: `<row r="…">` and the
 * cells, shaped (cells.ts inputShaper) and written as the writer writes a row's, for
 * writeVerbatim to follow with the result cells.
 */
export function xlsxRowTexts(header: readonly string[]): RowTexts {
  const shape = inputShaper(header);
  const xml = new RowXml();
  return (rows, indexes) =>
    rows.map((cells, at) => {
      const row = sheetRow(indexes[at] ?? 0);
      return xml.start(row) + xml.cells(shape(cells), row, 0, TEXT_STYLE);
    });
}

/** What XML text cannot hold as it is: markup, CR (XML reads it as LF), the control characters XML 1.0 forbids. */
// eslint-disable-next-line no-control-regex -- finding the characters XML forbids is the point
const NEEDS_ESCAPING = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
/** OOXML's own escapes, `_xHHHH_`, which a literal one must be kept from reading as. */
const LOOKS_ESCAPED = /_x[0-9A-Fa-f]{4}_/;

/** One cell's `<t>` element: escaped, cut to what a cell holds, with its surrounding spaces kept. */
function textElement(value: string): string {
  let text = value.length > MAX_CELL_CHARS ? cutToCell(value) : value;
  // Two tests rather than one alternation: a character class alone scans fast, and `_x` is rare.
  if (NEEDS_ESCAPING.test(text) || (text.includes("_x") && LOOKS_ESCAPED.test(text))) text = escapeText(text);
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Without xml:space, readers drop a cell's leading and trailing spaces.
  const preserve = first === 0x20 || first === 0x09 || first === 0x0a || last === 0x20 || last === 0x09 || last === 0x0a;
  return preserve ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`;
}

/** Excel refuses to open a cell longer than 32,767 characters; never split a surrogate pair. */
function cutToCell(value: string): string {
  const end = MAX_CELL_CHARS;
  const code = value.charCodeAt(end - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

const hex = (code: number): string => code.toString(16).toUpperCase().padStart(4, "0");

/** ECMA-376 ST_Xstring: a character XML cannot carry is written `_xHHHH_`, and a literal `_xHHHH_` has its `_` escaped. */
export function escapeText(text: string): string {
  return text
    .replace(/_x([0-9A-Fa-f]{4})_/g, "_x005F_x$1_")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;")
    // eslint-disable-next-line no-control-regex -- as NEEDS_ESCAPING
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `_x${hex(c.charCodeAt(0))}_`);
}
