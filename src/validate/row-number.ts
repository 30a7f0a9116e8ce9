/**
 * The number a row ports (docs/contract.md §3 "Numbers", "Ranges"): the one rule both the validator's
 * fast path and its every-problem path read the number cell by, so the two cannot word it apart.
 */
import type { NumberKind } from "../catalog/operations.js";
import { parseNanp } from "./nanp.js";
import { rangeHint } from "./ranges.js";
import * as rows from "../messages/rows.js";
import { numberCellHint } from "./number-cell-hints.js";

export type RowNumber = { readonly ok: true; readonly digits: string; readonly kind: NumberKind } | { readonly ok: false; readonly reason: string };

const EMPTY: RowNumber = { ok: false, reason: rows.EMPTY_NUMBER };


/**
 * The number cell's digits and kind, or why it is not a number portin can port: a range gets the
 * `--expand-ranges` hint, two numbers in one cell and a number-formatted column say so.
 */
export function rowNumber(text: string): RowNumber {
  if (text === "") return EMPTY;
  const parsed = parseNanp(text);
  if (parsed.ok) return parsed;
  return { ok: false, reason: rangeHint(text) ?? numberCellHint(text) ?? parsed.reason };
}
