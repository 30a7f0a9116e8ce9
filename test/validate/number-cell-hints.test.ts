/**
 * A number cell that is numbers after all (docs/contract.md §3 "Numbers"): two numbers typed
 * into one cell, and a column a spreadsheet formatted as a number, are refused saying so.
 */
import { expect, it } from "vitest";
import { rowNumber } from "../../src/validate/row-number.js";

const reasonOf = (text: string): string => {
  const number = rowNumber(text);
  if (number.ok) throw new Error(`${text} parsed as ${number.digits}`);
  return number.reason;
};

it.each([
  ["4165550101;4165550102", '"4165550101;4165550102" holds 2 numbers (4165550101, 4165550102): put each number on a row of its own'],
  ["4165550101, 4165550102", '"4165550101, 4165550102" holds 2 numbers (4165550101, 4165550102): put each number on a row of its own'],
  ["416-555-0101 / (416) 555-0102", '"416-555-0101 / (416) 555-0102" holds 2 numbers (4165550101, 4165550102): put each number on a row of its own'],
  ["4165550101\n4165550102\n6135550103", '"4165550101\\n4165550102\\n6135550103" holds 3 numbers (4165550101, 4165550102, 6135550103): put each number on a row of its own'],
])("says %j holds several numbers", (text, reason) => {
  expect(reasonOf(text)).toBe(reason);
});

it.each(["4,165,550,103.00", "4,165,550,103", "14,165,550,103.00"])("says %j is a column formatted as a number, and how to fix it", (text) => {
  expect(reasonOf(text)).toBe(
    `${JSON.stringify(text)} is 4165550103 as a column formatted as a number shows it (thousands separators, decimals): format the number column as plain text (Google Sheets: Format > Number > Plain text; Excel: Format Cells > Text), then export the sheet again`,
  );
});

it.each([
  ["4165550101;abc", '"4165550101;abc" is not a valid NANP number (unexpected ";")'],
  ["4,165,550", '"4,165,550" is not a valid NANP number (unexpected ",")'],
  ["12;34", '"12;34" is not a valid NANP number (unexpected ";")'],
])("leaves %j to the number's own reason when it is not numbers", (text, reason) => {
  expect(reasonOf(text)).toBe(reason);
});

it("still reads a number written with a slash, and a range, as before", () => {
  expect(rowNumber("416/555-0101")).toMatchObject({ ok: true, digits: "4165550101" });
  expect(reasonOf("416-555-0101 - 0102")).toBe('"416-555-0101 - 0102" is a range of 2 numbers: pass --expand-ranges to port each of them');
});
