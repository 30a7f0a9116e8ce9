/**
 * The fixed parts of a results workbook (ECMA-376 SpreadsheetML, the smallest set Excel opens
 * without repair): content types, relationships, one worksheet, the styles. The worksheet's
 * rows are streamed by xlsx-writer.ts. Pure.
 */
import { columnLetters } from "../input/cell-ref.js";
import type { RowStatus } from "./row-outcome.js";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The one worksheet's name. */
export const SHEET_NAME = "Results";

/** Excel's limits (Specifications and limits): a longer sheet or cell is cut or refused on opening. */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;
export const MAX_CELL_CHARS = 32_767;

/** Style indexes in cellXfs below: every cell is a text cell (number format 49, "@"), so Excel never reformats one. */
export const HEADER_STYLE = 1;
export const TEXT_STYLE = 2;

/**
 * The fill of the result_status cell, by status: Excel's own Good / Neutral / Bad colours
 * where they fit, so a sheet reads at a glance and filters by colour.
 */
const STATUS_FILLS: Readonly<Record<RowStatus, string>> = {
  submitted: "FFC6EFCE",
  planned: "FFDDEBF7",
  skipped: "FFE7E6E6",
  invalid: "FFFFEB9C",
  rejected: "FFFFC7CE",
  failed: "FFF8CBAD",
  unknown: "FFD9D2E9",
};
const STATUSES = Object.keys(STATUS_FILLS) as RowStatus[];

/** The cellXfs index of a status cell's style; text style for a status the table lacks. */
export function statusStyle(status: string): number {
  const at = STATUSES.indexOf(status as RowStatus);
  return at < 0 ? TEXT_STYLE : TEXT_STYLE + 1 + at;
}

export const CONTENT_TYPES =
  DECLARATION +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
  "</Types>";

export const PACKAGE_RELS =
  DECLARATION +
  `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  "</Relationships>";

export const WORKBOOK =
  DECLARATION +
  `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
  '<bookViews><workbookView activeTab="0"/></bookViews>' +
  `<sheets><sheet name="${SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets>` +
  "</workbook>";

export const WORKBOOK_RELS =
  DECLARATION +
  `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
  "</Relationships>";

/**
 * Every cell is an inline string, so the shared-string table is empty. It is there because
 * readers that stream a workbook (exceljs among them) read a worksheet as it arrives only once
 * they have seen one; without it they copy the whole sheet to a temporary file first.
 */
export const SHARED_STRINGS = DECLARATION + `<sst xmlns="${MAIN}" count="0" uniqueCount="0"/>`;

const fill = (argb: string): string => `<fill><patternFill patternType="solid"><fgColor rgb="${argb}"/><bgColor indexed="64"/></patternFill></fill>`;

/** Fonts: 0 regular, 1 bold. Fills: 0 and 1 are the two Excel reserves, then one per status. */
export const STYLES =
  DECLARATION +
  `<styleSheet xmlns="${MAIN}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  `<fills count="${2 + STATUSES.length}"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>` +
  STATUSES.map((status) => fill(STATUS_FILLS[status])).join("") +
  "</fills>" +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="${3 + STATUSES.length}">` +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  STATUSES.map((_, at) => `<xf numFmtId="49" fontId="0" fillId="${2 + at}" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>`).join("") +
  "</cellXfs>" +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  "</styleSheet>";

/**
 * The worksheet up to its first row: the header row frozen, and column widths that fit the
 * header's names (result_message gets room for a sentence).
 */
export function sheetStart(widths: readonly number[], frozenColumns = 0): string {
  const cols = widths.map((width, at) => `<col min="${at + 1}" max="${at + 1}" width="${width}" customWidth="1"/>`).join("");
  return (
    DECLARATION +
    `<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
    `<sheetViews><sheetView tabSelected="1" workbookViewId="0">${frozenPane(frozenColumns)}</sheetView></sheetViews>` +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols === "" ? "" : `<cols>${cols}</cols>`) +
    "<sheetData>"
  );
}

/**
 * The header row frozen, and the first `columns` columns with it (the number column stays in
 * view as the sheet scrolls right): ECMA-376 §18.3.1.66, as Excel writes a frozen pane.
 */
function frozenPane(columns: number): string {
  if (columns === 0) return '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>';
  const corner = `${columnLetters(columns + 1)}2`;
  return (
    `<pane xSplit="${columns}" ySplit="1" topLeftCell="${corner}" activePane="bottomRight" state="frozen"/>` +
    '<selection pane="topRight"/><selection pane="bottomLeft"/>' +
    `<selection pane="bottomRight" activeCell="${corner}" sqref="${corner}"/>`
  );
}

/** The worksheet after its last row: the filter buttons on the header, over every row written. */
export function sheetEnd(lastColumn: string, lastRow: number): string {
  return `</sheetData><autoFilter ref="A1:${lastColumn}${lastRow}"/></worksheet>`;
}
