/**
 * The floor for `plan` of a workbook on this machine: exceljs's own streaming reader reading it,
 * with its default options, and every cell's value touched, and nothing else: no text, no
 * validation, no results. Run as its own process, like portin.
 * Usage: node dist/bench/xlsx-floor.js <input.xlsx>
 */
import ExcelJS from "exceljs";

const [input] = process.argv.slice(2);
if (input === undefined) throw new Error("usage: xlsx-floor.js <input.xlsx>");

interface Row {
  readonly values: unknown;
}
let rows = 0;
let cells = 0;
const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {});
for await (const sheet of reader) {
  for await (const row of sheet as unknown as AsyncIterable<Row>) {
    rows++;
    const values = row.values;
    if (Array.isArray(values)) cells += values.length;
  }
}
process.stdout.write(`${rows} ${cells}\n`);
