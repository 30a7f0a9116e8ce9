/**
 * A template as a workbook (docs/contract.md §2, `template`): every cell text (format `@`), the
 * columns too, so that the numbers a user types stay as typed instead of Excel turning them into
 * `4.16556E+09`; the header bold and frozen; one worksheet, "Numbers". Written with the results
 * writer's fixed parts (results/xlsx-parts.ts: its styles, content types and relationships)
 * and yazl, rather than exceljs, which portin no longer needs at run time.
 */
import { ZipFile } from "yazl";
import { columnLetters } from "../input/cell-ref.js";
import { CONTENT_TYPES, HEADER_STYLE, PACKAGE_RELS, SHARED_STRINGS, STYLES, TEXT_STYLE, WORKBOOK_RELS } from "../results/xlsx-parts.js";
import { escapeText } from "../results/xlsx-rows.js";

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const WORKBOOK = DECLARATION + `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Numbers" sheetId="1" r:id="rId1"/></sheets></workbook>`;

function row(number: number, cells: readonly string[], style: number): string {
  // A row style Excel lends to the cells typed into it later: the header's bold, the others' text.
  const attributes = `r="${number}" s="${style}" customFormat="1"`;
  return `<row ${attributes}>${cells.map((text, at) => `<c r="${columnLetters(at + 1)}${number}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${escapeText(text)}</t></is></c>`).join("")}</row>`;
}

function worksheet(header: readonly string[], example: readonly string[]): string {
  const cols = header.map((name, at) => `<col min="${at + 1}" max="${at + 1}" width="${Math.min(40, Math.max(12, name.length + 2))}" style="${TEXT_STYLE}" customWidth="1"/>`).join("");
  return (
    DECLARATION +
    `<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols === "" ? "" : `<cols>${cols}</cols>`) +
    `<sheetData>${row(1, header, HEADER_STYLE)}${row(2, example, TEXT_STYLE)}</sheetData></worksheet>`
  );
}

export async function templateWorkbook(header: readonly string[], example: readonly string[]): Promise<Buffer> {
  const zip = new ZipFile();
  const add = (name: string, text: string): void => zip.addBuffer(Buffer.from(text, "utf8"), name);
  add("[Content_Types].xml", CONTENT_TYPES);
  add("_rels/.rels", PACKAGE_RELS);
  add("xl/workbook.xml", WORKBOOK);
  add("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
  add("xl/styles.xml", STYLES);
  add("xl/sharedStrings.xml", SHARED_STRINGS);
  add("xl/worksheets/sheet1.xml", worksheet(header, example));
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
