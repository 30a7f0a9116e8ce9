/**
 * Why a number cell that did not parse was still meant as numbers (docs/contract.md §3
 * "Numbers"): two numbers typed into one cell, or a column a spreadsheet formatted as a
 * number. Either would otherwise be refused as `(unexpected ";")` or `(20 digits)`, which
 * names the symptom, not what the user has to change. Tried only for a cell that failed.
 */
import * as rows from "../messages/rows.js";
import { parseNanp } from "./nanp.js";

/** What people put between numbers sharing a cell: ; , / | and a line break (Alt+Enter in Excel). */
const BETWEEN_NUMBERS = /\s*[;,/|\r\n]+\s*/;

/**
 * `4,165,550,103.00`, `4,165,550,103`: a column formatted as a number, thousands separators
 * and decimals, as Google Sheets (and Excel's "Number" format) write it into a CSV.
 */
const NUMBER_FORMATTED = /^(\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/;

/** The reason for a cell holding several numbers, or a number formatted as a number; undefined otherwise. */
export function numberCellHint(text: string): string | undefined {
  return formattedHint(text) ?? severalHint(text);
}

function formattedHint(text: string): string | undefined {
  const match = NUMBER_FORMATTED.exec(text.trim());
  if (match === null) return undefined;
  const number = parseNanp((match[1] ?? "").replace(/,/g, ""));
  if (!number.ok) return undefined;
  return rows.formattedAsNumber(JSON.stringify(text), number.digits);
}

function severalHint(text: string): string | undefined {
  const parts = text.trim().split(BETWEEN_NUMBERS).filter((part) => part !== "");
  if (parts.length < 2) return undefined;
  const numbers: string[] = [];
  for (const part of parts) {
    const number = parseNanp(part);
    if (!number.ok) return undefined;
    numbers.push(number.digits);
  }
  return rows.severalNumbers(JSON.stringify(text), numbers);
}
