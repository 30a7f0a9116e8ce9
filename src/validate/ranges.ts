/**
 * Range rows (docs/contract.md §3, `--expand-ranges`): `416-555-3720 - 3729`,
 * `4165553720-29`, `416-555-3720 to 416-555-3729` stand for every number from the first to
 * the last. The end may be written in full or as the last digits of the first number.
 */
import type { Sheet } from "../input/reader.js";
import { rowStream } from "../input/row-stream.js";
import type { SheetRow } from "../input/types.js";
import { parseNanp } from "./nanp.js";
import * as rows from "../messages/rows.js";

/** A range this long is a typo more likely than a wish: a whole exchange is 10,000 numbers. */
export const RANGE_NUMBERS_AT_MOST = 10_000;

export type RangeReading =
  | { readonly kind: "range"; readonly first: string; readonly numbers: readonly string[] }
  | { readonly kind: "bad"; readonly reason: string };

/**
 * A dash (ASCII, en, em) or "to"/"à" between the two ends, with any spaces around it. "à" is no
 * word character to `\b`, so it stands alone where no letter touches it.
 */
const SEPARATOR = /\s*(?:-|\u2013|\u2014|\bto\b|(?<![A-Za-z\u00c0-\u00ff])\u00e0(?![A-Za-z\u00c0-\u00ff]))\s*/gi;
const END_PUNCTUATION = /[\s().+-]/g;

export type RangeEnds =
  | { readonly kind: "range"; readonly first: string; readonly last: string; readonly count: number }
  | { readonly kind: "bad"; readonly reason: string };

/**
 * Reads `text` as the two ends of a range, or returns null when it is not written as one.
 * Meant for text that did not parse as one number: a range's digits run together never make
 * a NANP number. The ends alone, however far apart: the account's order list
 * (service/answers.ts) matches a number against them without expanding the range.
 */
export function readRangeEnds(text: string): RangeEnds | null {
  const quoted = JSON.stringify(text);
  for (const match of text.matchAll(SEPARATOR)) {
    const left = text.slice(0, match.index);
    const right = text.slice(match.index + match[0].length);
    const endDigits = right.replace(END_PUNCTUATION, "");
    if (!/^\d+$/.test(endDigits)) continue;
    const start = parseNanp(left);
    if (!start.ok) continue;
    let last: string;
    if (endDigits.length >= 10) {
      const end = parseNanp(right);
      if (!end.ok) return { kind: "bad", reason: rows.rangeEndInvalid(quoted, end.reason) };
      last = end.digits;
    } else {
      last = start.digits.slice(0, 10 - endDigits.length) + endDigits;
    }
    const count = Number(last) - Number(start.digits) + 1;
    if (count <= 1) return { kind: "bad", reason: rows.rangeBackwards(quoted, last, start.digits) };
    return { kind: "range", first: start.digits, last, count };
  }
  return null;
}

/** Reads `text` as a range of numbers to port, each of them; null when it is not written as one. */
export function readRange(text: string): RangeReading | null {
  const ends = readRangeEnds(text);
  if (ends === null || ends.kind === "bad") return ends;
  if (ends.count > RANGE_NUMBERS_AT_MOST) {
    return { kind: "bad", reason: rows.rangeTooLong(JSON.stringify(text), ends.count, RANGE_NUMBERS_AT_MOST) };
  }
  const from = Number(ends.first);
  const numbers: string[] = [];
  for (let n = from; n < from + ends.count; n++) numbers.push(String(n));
  return { kind: "range", first: ends.first, numbers };
}

/** Why a number cell that did not parse may still be meant: a range, when ranges are not expanded. */
export function rangeHint(text: string): string | undefined {
  const range = readRange(text);
  if (range === null) return undefined;
  if (range.kind === "bad") return range.reason;
  return rows.rangeNotExpanded(JSON.stringify(text), range.numbers.length);

}

/** The numbers of a number cell written as a range, or null: only a cell that is not one number is looked at. */
function expandable(cell: string | undefined): readonly string[] | null {
  if (cell === undefined || parseNanp(cell).ok) return null;
  const range = readRange(cell.trim());
  return range?.kind === "range" ? range.numbers : null;
}

/**
 * `sheet` with each range row written out as one row per number (`--expand-ranges`): the range
 * row's cells, its number cell naming that number, so that the run and its results read as a
 * sheet that listed them one by one. Each keeps the range row's index and line, and says it is
 * one of a range's (SheetRow `ofRange`).
 */
export function withRangesExpanded(sheet: Sheet): Sheet {
  const numberAt = sheet.layout.columns.find((column) => column.role.kind === "number")?.index ?? -1;
  const rows = rowStream(sheet.rows, (inner) => {
    /** The rows of the last range not yet handed on. */
    const ready: SheetRow[] = [];
    return async (): Promise<IteratorResult<SheetRow>> => {
      const waiting = ready.shift();
      if (waiting !== undefined) return { done: false, value: waiting };
      const read = await inner.next();
      if (read.done === true) return read;
      const row = read.value;
      const numbers = expandable(row.cells[numberAt]);
      if (numbers === null) return read;
      for (const [at, number] of numbers.entries()) {
        const cells = row.cells.map((cell, column) => (column === numberAt ? number : cell));
        const ofRange = at === 0 ? "first" : "more";
        ready.push(row.problem === undefined ? { index: row.index, line: row.line, cells, ofRange } : { index: row.index, line: row.line, cells, problem: row.problem, ofRange });
      }
      return { done: false, value: ready.shift() as SheetRow };
    };
  });
  return { ...sheet, rows };
}
