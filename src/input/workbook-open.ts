/**
 * Opens a workbook whatever its format (docs/contract.md §3, "Workbooks"), by what its bytes are
 * (workbook-file.ts): an OLE file is an .xls, read by SheetJS; a zip an .xlsx, read by
 * workbook-xlsx.ts, unless it is an OpenDocument spreadsheet (.ods), read by SheetJS.
 */
import type { OpenBook } from "./workbook-book.js";
import type { WorkbookContainer } from "./workbook-file.js";
import { openWithSheetJs } from "./workbook-sheetjs.js";
import { openXlsx } from "./workbook-xlsx.js";

export async function openBook(path: string, container: WorkbookContainer): Promise<OpenBook> {
  if (container === "ole") return openWithSheetJs(path, ".xls");
  const opened = await openXlsx(path);
  return "contentBytes" in opened ? openWithSheetJs(path, ".ods", opened) : opened;
}
