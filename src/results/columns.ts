/**
 * The result columns (docs/contract.md §6), in order, each with how it reads a row's outcome:
 * the one shape every results encoder writes after the input's own cells.
 */
import { escapeFormula } from "./formula.js";
import type { RowOutcome } from "./row-outcome.js";

interface ResultColumn {
  readonly name: string;
  /** The cell as the outcome gives it, before it is made safe for spreadsheets. */
  readonly cell: (outcome: RowOutcome) => string;
}

const optional = (value: number | null): string => (value === null ? "" : String(value));

export const RESULT_COLUMNS: readonly ResultColumn[] = [
  { name: "result_status", cell: (o) => o.status },
  { name: "result_number", cell: (o) => o.number },
  { name: "result_number_type", cell: (o) => o.numberType ?? "" },
  { name: "result_operation", cell: (o) => o.operation },
  // The contract names the column for what the code calls a request's sequence number.
  { name: "result_batch", cell: (o) => optional(o.sequence) },
  { name: "result_ticket", cell: (o) => o.ticket },
  { name: "result_http_status", cell: (o) => optional(o.httpStatus) },
  { name: "result_message", cell: (o) => o.message },
];

export const RESULT_COLUMN_NAMES: readonly string[] = RESULT_COLUMNS.map((column) => column.name);

/** A row's result cells in column order, each made safe for spreadsheets. */
export function resultCells(outcome: RowOutcome): string[] {
  const cells = new Array<string>(RESULT_COLUMNS.length);
  for (let i = 0; i < RESULT_COLUMNS.length; i++) cells[i] = escapeFormula((RESULT_COLUMNS[i] as ResultColumn).cell(outcome));
  return cells;
}

/**
 * The columns a report adds after the input's own cells, and how one row's outcome fills
 * them: the results' `result_*` columns, or `portin status`'s `status_*` ones
 * (order-status.ts). Every encoder writes whichever set it is given.
 */
export interface ColumnSet<T> {
  readonly names: readonly string[];
  /** The row's cells in column order, already safe for spreadsheets. */
  readonly cells: (outcome: T) => string[];
}

export const RESULT_COLUMN_SET: ColumnSet<RowOutcome> = { names: RESULT_COLUMN_NAMES, cells: resultCells };

/** With 9-1-1 addresses in the sheet or the defaults, `result_e911` follows (docs/contract.md §6). */
export const E911_RESULT_COLUMN_SET: ColumnSet<RowOutcome> = {
  names: [...RESULT_COLUMN_NAMES, "result_e911"],
  cells: (outcome) => {
    const cells = resultCells(outcome);
    cells.push(outcome.e911 ?? "");
    return cells;
  },
};
