/**
 * The benchmark's workbook: the rows of sheet.ts written as Excel would hold them, once, under
 * bench/.cache/. Digits-only numbers, pilot numbers and accounts are number cells, port dates
 * are date cells, everything else text; strings are shared, as Excel saves them.
 */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import ExcelJS from "exceljs";
import { rowCells, sheetHeader } from "./sheet.js";

const NUMBER_COLUMNS = new Set(["number", "pilot_number", "item.Account"]);
const DATE_COLUMN = "portform.RequestedPortDate";

/** Writes `rows` rows to `path` as an .xlsx workbook, unless it is already there. */
export async function ensureWorkbook(path: string, rows: number): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}.xlsx`;
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: temporary, useSharedStrings: true, useStyles: true });
  const sheet = book.addWorksheet("Numbers");
  const header = sheetHeader();
  sheet.addRow([...header]).commit();
  const dateAt = header.indexOf(DATE_COLUMN);
  const dateStyle = { numFmt: "yyyy-mm-dd" };
  for (let i = 0; i < rows; i++) {
    const values = rowCells(i, 0).map((cell, at): string | number | Date | null => {
      if (cell === "") return null;
      if (NUMBER_COLUMNS.has(header[at] ?? "") && /^\d+$/.test(cell)) return Number(cell);
      if (at === dateAt) return new Date(`${cell}T00:00:00Z`);
      return cell;
    });
    const row = sheet.addRow(values);
    if (values[dateAt] !== null) row.getCell(dateAt + 1).style = dateStyle;
    row.commit();
  }
  sheet.commit();
  await book.commit();
  renameSync(temporary, path);
  return path;
}
