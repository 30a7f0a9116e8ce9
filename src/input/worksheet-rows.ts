/**
 * A worksheet's rows, read from an .xlsx sheet's XML with saxes (docs/contract.md §3,
 * "Workbooks"); workbook-xlsx.ts reads the zip and the parts a sheet refers to. portin needs
 * each cell's value and whether its number format shows a date, nothing more, so no object is
 * made for a cell beyond its value. The rules, each one a fixture or a test holds:
 * - a shared string is its text; an inline string of several runs (`<is><r><t>…`) reads whole,
 *   without its phonetic guide (`<rPh>`);
 * - a formula is its saved value (`<v>`), of the cell's type; one without (`<v>` absent, or
 *   empty as openpyxl writes one never calculated) is UNCALCULATED;
 * - a number whose style's format shows a date or time is a Date, in either case of the
 *   format (`YYYY`); a cell without `s` has style 0, and a row's style is not lent to its cells;
 * - an ISO 8601 date cell (`t="d"`) reads as its date;
 * - text is decoded once (the typed text `&lt;` stays `&lt;`), then its ST_Xstring escapes
 *   (`_x000D_`); a character split between two unzipped chunks reads whole; CDATA text is kept;
 * - a row or cell without its optional `r` reference follows the one before it; cells come in
 *   column order, the last of two in one column kept;
 * - a sheet cut short is refused, not read up to the cut.
 */
import { StringDecoder } from "node:string_decoder";
import { SaxesParser } from "saxes";
import type { SaxesTagPlain } from "saxes";
import { columnLetters, columnNumber } from "./cell-ref.js";
import { cellError, numberValue, UNCALCULATED, unescapeXstring } from "./cell-text.js";
import type { CellValue } from "./cell-text.js";
import { MAX_FIELDS } from "./limits.js";
import * as sheetWords from "../messages/sheet.js";

/** One worksheet row, valid only while the callback it is handed to runs: it is reused for the next. */
export interface SheetRow {
  /** Its row number in the sheet, from 1. */
  readonly number: number;
  /** The row's cells that hold a value, in column order, with their 1-based columns. */
  eachCell(iteratee: (value: CellValue, column: number) => void): void;
}

/** What a worksheet's cells refer to elsewhere in the workbook (workbook-xlsx.ts). */
export interface WorkbookParts {
  /** The shared strings part in order, each as its text. */
  readonly sharedStrings: readonly string[];
  /** The number format of a cell style (an `s` attribute), if it has one. */
  numberFormat(style: number): string | undefined;
  /** The workbook counts dates from 1904 (xl/workbook.xml). */
  readonly date1904: boolean;
}

/** The worksheet's XML is not what a workbook holds: the file is damaged, not portin. */
export class SheetDamage extends Error {}

export class RowCells implements SheetRow {
  number = 0;
  private readonly columns: number[] = [];
  private readonly values: CellValue[] = [];

  start(number: number): void {
    this.number = number;
    this.columns.length = 0;
    this.values.length = 0;
  }

  /** Adds a cell, in column order, replacing one already in its column (rare, so the common case is a push). */
  add(column: number, value: CellValue): void {
    const columns = this.columns;
    if (columns.length === 0 || (columns[columns.length - 1] ?? 0) < column) {
      columns.push(column);
      this.values.push(value);
      return;
    }
    const at = columns.findIndex((taken) => taken >= column);
    if (columns[at] === column) {
      this.values[at] = value;
      return;
    }
    columns.splice(at, 0, column);
    this.values.splice(at, 0, value);
  }

  eachCell(iteratee: (value: CellValue, column: number) => void): void {
    for (let i = 0; i < this.columns.length; i++) iteratee(this.values[i] as CellValue, this.columns[i] ?? 0);
  }
}

/**
 * Reads the worksheet's XML to its end, handing `onRow` each `<row>` of its sheetData as it is
 * parsed, blank rows included. XML that is malformed, cut short or refers to what the workbook
 * lacks rejects with a SheetDamage; an error reading the stream, or whatever `onRow` throws,
 * rejects as it is, and anything else is this module's own failure.
 */
export async function eachSheetRow(xml: AsyncIterable<Buffer>, parts: WorkbookParts, onRow: (row: SheetRow) => void): Promise<void> {
  const row = new RowCells();
  // Where the parser is.
  let inSheetData = false;
  let inRow = false;
  let inCell = false;
  let inInlineString = false;
  let inPhonetic = false;
  let capturing = false;
  // The cell being read.
  let column = 0;
  let type: string | undefined;
  let style = 0;
  let formula = false;
  let valued = false;
  let text = "";

  function cellValue(): CellValue | undefined {
    if (formula) {
      if (!valued || (text === "" && type !== "str")) return UNCALCULATED;
    } else if (!valued) {
      return undefined;
    }
    switch (type) {
      case "s": {
        if (formula) break;
        const shared = parts.sharedStrings[parseInt(text, 10)];
        if (shared === undefined) throw new SheetDamage(sheetWords.missingSharedString(`${columnLetters(column)}${row.number}`, text));
        return shared;
      }
      case "d": {
        // ISO 8601; without a zone, a date and time is UTC, as Excel's serial dates are.
        const at = Date.parse(text.includes("T") && !/(Z|[+-]\d\d:?\d\d)$/i.test(text) ? `${text}Z` : text);
        return Number.isNaN(at) ? text : new Date(at);
      }
      case "inlineStr":
      case "str":
        return unescapeXstring(text);
      case "e":
        return cellError(text);
      case "b":
        return parseInt(text, 10) !== 0;
    }
    // A number, and a date when its style's format shows one.
    const number = parseFloat(text);
    return style === 0 ? number : numberValue(number, formatOf(style), parts.date1904);
  }

  // Each style's number format, asked once: a sheet has a few styles and millions of cells.
  const formats: (string | undefined)[] = [];
  const formatOf = (style: number): string | undefined => (style in formats ? formats[style] : (formats[style] = parts.numberFormat(style)));

  const parser = new SaxesParser();
  // saxes reports malformed XML here, then would read on: thrown, it ends the reading as the file's damage.
  parser.on("error", (error) => {
    throw new SheetDamage(error.message);
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    switch (localName(tag)) {
      case "sheetData":
        inSheetData = true;
        break;
      case "row":
        if (!inSheetData) break;
        inRow = true;
        column = 0;
        row.start(numberAttribute(tag, "r") ?? row.number + 1);
        break;
      case "c": {
        if (!inRow) break;
        inCell = true;
        // A reference without its letters (`r="12"`) counts as none.
        const at = columnNumber(tag.attributes["r"] ?? "");
        column = at === 0 ? column + 1 : at;
        // Past XFD is damage, and would size every row's array to it.
        if (column > MAX_FIELDS) throw new SheetDamage(sheetWords.pastLastColumn(tag.attributes["r"] ?? `${columnLetters(column)}${row.number}`));

        type = tag.attributes["t"];
        style = numberAttribute(tag, "s") ?? 0;
        formula = false;
        valued = false;
        text = "";
        break;
      }
      case "f":
        if (inCell) formula = true;
        break;
      case "v":
        if (!inCell) break;
        valued = true;
        capturing = true;
        text = "";
        break;
      case "is":
        if (!inCell) break;
        valued = true;
        inInlineString = true;
        text = "";
        break;
      case "rPh":
        inPhonetic = true;
        break;
      case "t":
        if (inInlineString && !inPhonetic) capturing = true;
        break;
    }
  });
  const onText = (chunk: string): void => {
    if (capturing) text += chunk;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", (tag: SaxesTagPlain) => {
    switch (localName(tag)) {
      case "v":
      case "t":
        capturing = false;
        break;
      case "rPh":
        inPhonetic = false;
        break;
      case "is":
        inInlineString = false;
        break;
      case "c": {
        if (!inCell) break;
        inCell = false;
        const value = cellValue();
        if (value !== undefined) row.add(column, value);
        break;
      }
      case "row":
        if (!inRow) break;
        inRow = false;
        onRow(row);
        break;
      case "sheetData":
        inSheetData = false;
        break;
    }
  });

  // A character's bytes may be split between two chunks: the decoder holds the first part back.
  const decoder = new StringDecoder("utf8");
  let parsing = false;
  try {
    for await (const chunk of xml) {
      parsing = true;
      parser.write(decoder.write(chunk));
      parsing = false;
    }
  } catch (error) {
    if (parsing) throw error;
    // Inflating the zip, or reading the file.
    throw new SheetDamage(error instanceof Error ? error.message : String(error), { cause: error });
  }
  parser.write(decoder.end());
  // Fails on a sheet cut short, rather than reading the rows before the cut as all of it.
  parser.close();
}

/**
 * A tag's name without its namespace prefix: Excel writes `<row>`, the .NET Open XML SDK and
 * tools built on it `<x:row>`, both in SpreadsheetML's namespace (docs/contract.md §3, "Workbooks").
 */
export function localName(tag: SaxesTagPlain): string {
  const colon = tag.name.indexOf(":");
  return colon < 0 ? tag.name : tag.name.slice(colon + 1);
}

function numberAttribute(tag: SaxesTagPlain, name: string): number | undefined {
  const value = tag.attributes[name];
  if (value === undefined) return undefined;
  const number = parseInt(value, 10);
  return Number.isNaN(number) ? undefined : number;
}
