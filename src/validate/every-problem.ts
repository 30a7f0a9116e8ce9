/**
 * An invalid row's message names every problem of the row, not only the first
 * (docs/contract.md §3 "Invalid rows"): a user fixing a sheet should not need a run per mistake. Worked out
 * again, in full, only for rows the fast path (first-problem.ts) found invalid, so valid
 * rows cost nothing more. Both paths read the number, the target and the route through the
 * same owners (row-number.ts, target.ts), so a row's message cannot disagree with its verdict.
 */
import type { SheetRow } from "../input/types.js";
import type { NumberKind, Operation } from "../catalog/operations.js";
import type { Converted } from "./convert.js";
import type { CarrierVerdict } from "./carrier-ready.js";
import { checkCarrierValues } from "./carrier-ready.js";
import type { Records } from "./rules.js";
import { portFormLabel } from "./rules.js";
import type { MemberColumn } from "./sheet-columns.js";
import { cellOf, storeMember } from "./sheet-columns.js";
import { missingFrom, missingMessage } from "./record-cache.js";
import type { SheetRules } from "./row-context.js";
import { rowNumber } from "./row-number.js";

/** Every problem of a row, in the order a reader meets them, with what of the row resolved. */
export interface ProblemList {
  readonly problems: readonly string[];
  /** 10 digits when the number parsed; "" otherwise. */
  readonly number: string;
  readonly numberKind: NumberKind | null;
  readonly operation: Operation | null;
}

/** Null for a ragged row or one the reader flagged: its cells are out of line with the header, or the reader names the cell itself. */
export type EveryProblem = (row: SheetRow) => ProblemList | null | Promise<ProblemList>;

export function createEveryProblem(rules: SheetRules): EveryProblem {
  const { columns, targets, operations, calendar } = rules;
  return (row) => {
    if (row.cells.length !== columns.width || row.problem !== undefined) return null;
    const problems: string[] = [];
    const { cells, problem } = columns.withAddress(row.cells);
    if (problem !== undefined) problems.push(problem);
    const number = rowNumber(cellOf(cells, columns.numberAt));
    if (!number.ok) problems.push(number.reason);

    let operation: Operation | null = null;
    const target = targets.targetOf(cellOf(cells, columns.pilotAt), cellOf(cells, columns.offeringAt));
    if (!target.ok) problems.push(target.reason);
    else if (number.ok) {
      const routed = targets.routeOf(target.offeringType, number.digits, number.kind);
      if (routed.ok) operation = routed.operation;
      else problems.push(routed.reason);
    }

    const plan = operation === null ? undefined : operations.get(operation);
    const records: Records = plan ? plan.freshRecords() : { portForm: {}, request: {}, item: {} };
    const converted: { column: MemberColumn; result: Converted | Promise<Converted> }[] = [];
    for (const column of columns.members) {
      const text = cellOf(cells, column.index);
      if (text === "") continue;
      const refusal = operation === null ? undefined : column.refusals.get(operation);
      if (refusal !== undefined) problems.push(refusal);
      else converted.push({ column, result: column.convert(text) });
    }
    const listed = (): ProblemList => ({
      problems,
      number: number.ok ? number.digits : "",
      numberKind: number.ok ? number.kind : null,
      operation,
    });
    const withDisputes = (verdict: CarrierVerdict): ProblemList => {
      problems.push(...verdict.problems);
      if (plan !== undefined) {
        const missing = missingFrom([...plan.sharedRequirements, ...plan.itemRequirements], records);
        if (missing !== null) problems.push(missingMessage(missing));
      }
      return listed();
    };
    const finish = (results: readonly Converted[]): ProblemList | Promise<ProblemList> => {
      results.forEach((result, i) => {
        const column = converted[i]?.column;
        if (column === undefined) return;
        if (result.ok) {
          storeMember(records, column, result.value);
          return;
        }
        problems.push(`${column.label} ${result.reason}`);
        // A member given but wrong is not also missing.
        records[column.section][column.member.name] = true;
      });
      // The PortForm the fast path judges: its ExtraDetails columns merged in (first-problem.ts convertAll).
      columns.mergeExtraDetails(records.portForm, cells);
      const verdict = checkCarrierValues(records.portForm, calendar, portFormLabel);
      return verdict instanceof Promise ? verdict.then(withDisputes) : withDisputes(verdict);
    };
    if (!converted.some((c) => c.result instanceof Promise)) return finish(converted.map((c) => c.result as Converted));
    return Promise.all(converted.map((c) => Promise.resolve(c.result))).then(finish);
  };
}
