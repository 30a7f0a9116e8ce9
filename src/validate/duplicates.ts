/**
 * Duplicate numbers (docs/contract.md §3 "Invalid rows" 11): decided in the order rows are checked. A later row
 * with the number of an earlier valid row and the same target and PortForm is a duplicate of
 * it; with another target or PortForm it contradicts it, and neither row is sent.
 */
import type { Members } from "../catalog/members.js";
import type { CheckedRow } from "./types.js";
import { TakenNumbers, textHash } from "./taken.js";
import type { RowVerdict } from "./row-context.js";
import { invalidRow } from "./row-context.js";
import * as rows from "../messages/rows.js";

export interface Duplicates {
  /** The row as it stands once earlier rows with its number are known. */
  judge(verdict: RowVerdict): CheckedRow;
  /** Earlier valid rows a later row contradicts: index -> the reason they are invalid after all. */
  readonly overruled: ReadonlyMap<number, string>;
}

export function createDuplicates(): Duplicates {
  const taken = new TakenNumbers();
  // Rows share their PortForm record (record-cache.ts): hashed once per record.
  const formHashes = new WeakMap<Members, number>();
  const formHashOf = (form: Members): number => {
    let h = formHashes.get(form);
    if (h === undefined) formHashes.set(form, (h = textHash(JSON.stringify(form))));
    return h;
  };
  // A sheet names a few targets on many rows: each hashed once.
  const targetHashes = new Map<string, number>();
  const targetHashOf = (target: string): number => {
    let h = targetHashes.get(target);
    if (h === undefined) targetHashes.set(target, (h = textHash(target)));
    return h;
  };
  const overruled = new Map<number, string>();
  return {
    overruled,
    judge(outcome) {
      if (!outcome.valid) return outcome;
      const mine = { line: outcome.line, index: outcome.index, targetHash: targetHashOf(outcome.target), formHash: formHashOf(outcome.portForm) };
      const earlier = taken.take(outcome.number, mine);
      if (earlier === null) return outcome;
      const { number, numberKind, operation } = outcome;
      const differs = [earlier.targetHash !== mine.targetHash ? "target" : "", earlier.formHash !== mine.formHash ? "PortForm" : ""].filter((d) => d !== "").join(" and ");
      if (differs === "") return invalidRow(outcome, rows.duplicateOfRow(earlier.line, number), number, numberKind, operation);
      // Which of two contradicting rows is right, portin cannot know: neither is sent.
      const why = (other: number): string => rows.contradictingRows(number, other, differs);

      if (!overruled.has(earlier.index)) overruled.set(earlier.index, why(outcome.line));
      return invalidRow(outcome, why(earlier.line), number, numberKind, operation);
    },
  };
}
