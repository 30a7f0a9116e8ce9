/**
 * What the validator's two paths work from: the tables built once per sheet and run, and one
 * row as far as the fast path has resolved it (docs/contract.md §3 "Values").
 */
import type { SheetRow } from "../input/types.js";
import type { NumberKind, Operation } from "../catalog/operations.js";
import type { InvalidRow, ValidRow } from "./types.js";
import type { SheetColumns } from "./sheet-columns.js";
import type { TargetResolver } from "./target.js";
import type { OperationRecords } from "./record-cache.js";
import type { PortCalendar } from "./port-date.js";

/** Worked out once from the header, the account and `--defaults`; shared by every row. */
export interface SheetRules {
  readonly columns: SheetColumns;
  readonly targets: TargetResolver;
  readonly operations: ReadonlyMap<Operation, OperationRecords>;
  /** Today and the service's holidays, for `RequestedPortDate` (docs/contract.md §3). */
  readonly calendar: PortCalendar;
}

/** A row whose number, target and operation resolved: what its member cells are converted under. */
export interface RowContext {
  readonly row: Pick<SheetRow, "index" | "line">;
  /** The row's cells, its split address's parts appended. */
  readonly cells: readonly string[];
  readonly digits: string;
  readonly kind: NumberKind;
  readonly operation: Operation;
  /** The pilot's digits or the OfferingID. */
  readonly target: string;
  /** The operation's defaults, requirements and shared records. */
  readonly records: OperationRecords;
}

/** What the fast path finds: a row valid but for duplicates (decided later, in call order), or its first problem. */
export type RowVerdict = ValidRow | InvalidRow;

export function invalidRow(
  row: Pick<SheetRow, "index" | "line">,
  reason: string,
  digits = "",
  kind: NumberKind | null = null,
  operation: Operation | null = null,
): InvalidRow {
  return { valid: false, index: row.index, line: row.line, number: digits, numberKind: kind, operation, reason };
}

/** The row invalid for `reason`, its number and operation still named in the results (docs/contract.md §6). */
export function invalidAt(context: RowContext, reason: string): InvalidRow {
  return invalidRow(context.row, reason, context.digits, context.kind, context.operation);
}
