import type { NumberKind, Operation } from "../catalog/operations.js";
import type { Members } from "../catalog/members.js";
import type { E911Address } from "../catalog/e911.js";

export type { Lookups } from "../catalog/account.js";

/** `--defaults FILE`: members used where a row leaves a cell empty, already checked and converted. */
export interface Defaults {
  readonly portForm: Members;
  readonly request: Members;
  readonly item: Members;
  /** The `"e911"` object: a 9-1-1 address for rows that leave its members empty (docs/contract.md §2); absent when none. */
  readonly e911?: E911Address;
}

export interface ValidRow {
  readonly valid: true;
  readonly index: number;
  readonly line: number;
  /** 10 digits. */
  readonly number: string;
  readonly numberKind: NumberKind;
  readonly operation: Operation;
  /** The pilot number (10 digits) or the OfferingID. */
  readonly target: string;
  /** The `group` cell, "" when absent. */
  readonly group: string;
  readonly portForm: Members;
  readonly request: Members;
  /** This number's item members (none of portin's own: no Number, PlanID or TN). */
  readonly item: Members;
  /** Values normalised for the carrier (`portform.CustomerProvince "Ontario" sent as "ON"`), for the results message. */
  readonly notes?: string;
}

export interface InvalidRow {
  readonly valid: false;
  readonly index: number;
  readonly line: number;
  /** 10 digits when the number itself parsed; "" otherwise. */
  readonly number: string;
  readonly numberKind: NumberKind | null;
  /** The operation the row would have used, when it got that far. */
  readonly operation: Operation | null;
  /** One line naming the problem and the offending value. */
  readonly reason: string;
}

export type CheckedRow = ValidRow | InvalidRow;
