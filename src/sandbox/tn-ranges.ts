/**
 * The service's way of writing a run of numbers in its order list (docs/contract.md §1.1):
 * `4165550100-0199`, the first number and then the last four digits of the last. A run
 * never leaves its NPA-NXX, since only the line number is written twice.
 */
import { NANP } from "./body-schemas.js";

const RANGE = /^(\d{10})-(\d{4})$/;

/** Numbers as the order list writes them: sorted, each run of two or more consecutive numbers of one NPA-NXX as a range. */
export function asTnRanges(numbers: readonly string[]): string[] {
  const sorted = [...new Set(numbers)].sort();
  const ranges: string[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    const previous = sorted[i - 1] as string;
    const next = sorted[i];
    if (next !== undefined && next.slice(0, 6) === previous.slice(0, 6) && Number(next) === Number(previous) + 1) continue;
    const first = sorted[start] as string;
    ranges.push(first === previous ? first : `${first}-${previous.slice(6)}`);
    start = i;
  }
  return ranges;
}

/** A number or a range as `asTnRanges` writes it, as its 10-digit numbers; a message saying what is wrong otherwise. */
export function expandTnRange(text: string): { numbers: string[] } | { problem: string } {
  if (NANP.test(text)) return { numbers: [text] };
  const match = RANGE.exec(text);
  const first = match?.[1];
  if (match === null || first === undefined || !NANP.test(first)) {
    return { problem: `'${text}' is neither a 10-digit NANP number nor a range such as 4165550100-0199` };
  }
  const from = Number(first.slice(6));
  const to = Number(match[2]);
  if (to < from) return { problem: `the range '${text}' ends before it starts` };
  const prefix = first.slice(0, 6);
  return { numbers: Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(4, "0")}`) };
}
