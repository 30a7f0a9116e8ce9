/**
 * Workbooks made in the test with exceljs (its in-memory Workbook, which writes what Excel
 * writes: shared strings, styles, cached formula results), and results read back cell by cell.
 */
import ExcelJS from "exceljs";

/** A cell as a test states it: a value, or a value with a number format (a date, a formula's result shown as a date). */
export type CellSpec = ExcelJS.CellValue | { readonly value: ExcelJS.CellValue; readonly numFmt: string };

export interface SheetSpec {
  readonly name: string;
  readonly rows: readonly (readonly CellSpec[] | null)[];
  readonly state?: "visible" | "hidden";
}

function isFormatted(cell: CellSpec): cell is { readonly value: ExcelJS.CellValue; readonly numFmt: string } {
  return typeof cell === "object" && cell !== null && !(cell instanceof Date) && "numFmt" in cell;
}

/** Writes the sheets to `path`; a null row is left empty (no row element at all). */
export async function writeWorkbook(path: string, sheets: readonly SheetSpec[]): Promise<string> {
  const book = new ExcelJS.Workbook();
  for (const spec of sheets) {
    const sheet = book.addWorksheet(spec.name, spec.state === undefined ? {} : { state: spec.state });
    spec.rows.forEach((row, at) => {
      if (row === null) return;
      row.forEach((cell, column) => {
        const target = sheet.getCell(at + 1, column + 1);
        if (isFormatted(cell)) {
          target.value = cell.value;
          target.numFmt = cell.numFmt;
        } else {
          target.value = cell;
        }
      });
    });
  }
  await book.xlsx.writeFile(path);
  return path;
}

/** A results workbook as exceljs reads it whole: its one worksheet. */
export async function readWorkbook(path: string): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const [sheet] = book.worksheets;
  if (sheet === undefined) throw new Error(`${path} has no worksheet`);
  return sheet;
}

/** Every row's cell values from row 1, as strings ("" for an empty cell), and each non-empty cell's type. */
export function sheetRows(sheet: ExcelJS.Worksheet): { values: string[][]; types: Set<ExcelJS.ValueType> } {
  const values: string[][] = [];
  const types = new Set<ExcelJS.ValueType>();
  const width = sheet.columnCount;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) {
      const cell = row.getCell(c);
      if (cell.type !== ExcelJS.ValueType.Null) types.add(cell.type);
      // portin writes text cells only; anything else shows as its JSON, which no test expects.
      const value: unknown = cell.value;
      cells.push(value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));
    }
    values.push(cells);
  }
  return { values, types };
}

/** The PortForm cells of FORM_HEADER, for rows of a workbook. */
export const FORM_VALUES = ["ACME-1", "Acme Plumbing", "12", "Front St", "Toronto", "ON", "M5J 2N1", "CA", "it@acme.ca", "Bell Canada"] as const;
