import ExcelJS from "exceljs";

/**
 * A template as a workbook: every cell text (format `@`), so that the numbers a user types
 * stay as typed instead of Excel turning them into `4.16556E+09`; the header bold and frozen.
 */
export async function templateWorkbook(header: readonly string[], example: readonly string[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Numbers", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = header.map((name) => ({ width: Math.min(40, Math.max(12, name.length + 2)), style: { numFmt: "@" } }));
  sheet.addRow([...header]).font = { bold: true };
  sheet.addRow([...example]);
  return Buffer.from(await book.xlsx.writeBuffer());
}
