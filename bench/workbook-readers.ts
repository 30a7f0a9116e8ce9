/**
 * The workbook readers portin chose between (docs/contract.md §3, "Workbooks"), each reading a
 * workbook alone and touching every cell's value, and nothing else, as its own process:
 * - `exceljs`: exceljs's streaming WorkbookReader, default options (bench/xlsx-floor.ts's reading);
 * - `sheetjs`: SheetJS (@e965/xlsx) `readFile` with `dense: true`, the whole file at once;
 * - `portin`: portin's own reader, as its reading thread runs it: workbook-xlsx.ts (yauzl and
 *   saxes) for an .xlsx, SheetJS for an .xls or .ods, each cell as its text (cell-text.ts).
 * Usage: node dist/bench/workbook-readers.js <exceljs|sheetjs|portin> <workbook>
 * Prints the rows and cells read. Each reader's modules are loaded alone, as a run loads them.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import type ExcelJSModule from "exceljs";
import type { OpenBook } from "../src/input/workbook-book.js";

const [reader, input] = process.argv.slice(2);
if (input === undefined) throw new Error("usage: workbook-readers.js <exceljs|sheetjs|portin> <workbook>");

let rows = 0;
let cells = 0;

if (reader === "exceljs") {
  const ExcelJS = createRequire(import.meta.url)("exceljs") as typeof ExcelJSModule;
  const book = new ExcelJS.stream.xlsx.WorkbookReader(input, {});
  for await (const sheet of book) {
    for await (const row of sheet as unknown as AsyncIterable<{ readonly values: unknown }>) {
      rows++;
      if (Array.isArray(row.values)) cells += row.values.length;
    }
  }
} else if (reader === "sheetjs") {
  const { readFile, set_fs } = await import("@e965/xlsx");
  // SheetJS's ES module build is handed node's fs to read a file by name (its README, "Installation", NodeJS).
  set_fs(fs);
  const book = readFile(input, { dense: true });
  const first = book.Sheets[book.SheetNames[0] ?? ""];
  for (const row of (first?.["!data"] ?? []) as (({ v?: unknown } | null | undefined)[] | null | undefined)[]) {
    if (row === null || row === undefined) continue;
    rows++;
    for (const cell of row) if (cell?.v !== undefined) cells++;
  }
} else if (reader === "portin") {
  const { cellText } = await import("../src/input/cell-text.js");
  const { openBook } = await import("../src/input/workbook-open.js");
  const { checkWorkbookFile } = await import("../src/input/workbook-file.js");
  const book: OpenBook = await openBook(input, await checkWorkbookFile(input));
  const sheet = book.sheets.find((entry) => entry.visible) ?? book.sheets[0];
  if (sheet === undefined) throw new Error(`${input} has no worksheet`);
  await book.eachRow(sheet, (row) => {
    rows++;
    row.eachCell((value) => {
      if (cellText(value, book.date1904) !== "") cells++;
    });
  });
  book.close();
} else {
  throw new Error(`unknown reader ${String(reader)}: exceljs, sheetjs or portin`);
}
process.stdout.write(`${rows} ${cells}\n`);
