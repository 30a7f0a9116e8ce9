/**
 * The member records rows share (docs/contract.md §3 "Values"). A sheet states the same
 * customer on thousands of rows, so rows whose PortForm and request cells were seen before,
 * under the same operation, share one frozen record instead of converting and holding a copy;
 * what a record misses and what a carrier would dispute in it is worked out once, when it is
 * first remembered. The caches are per operation: the same cells convert differently
 * (defaults, refusals) under another one.
 */
import type { Operation } from "../catalog/operations.js";
import { OPERATIONS } from "../catalog/operations.js";
import type { MemberValue } from "../catalog/members.js";
import type { CarrierVerdict } from "./carrier-ready.js";
import type { Defaults } from "./types.js";
import type { Records, Requirement } from "./rules.js";
import { defaultsFor, requirementsOf } from "./rules.js";
import { cellOf } from "./sheet-columns.js";
import * as rows from "../messages/rows.js";

/**
 * Distinct records kept for sharing, per kind (PortForm+request, item) over all operations:
 * a sheet whose every row differs stops filling the cache here.
 */
export const SHARED_RECORDS_AT_MOST = 10_000;

/** A row's PortForm and request records, shared by the rows that state them, with the requirements they leave unmet. */
export interface SharedRecords {
  readonly portForm: Record<string, MemberValue>;
  readonly request: Record<string, MemberValue>;
  /** Labels of the PortForm and request requirements these records miss; null when none. */
  readonly missing: readonly string[] | null;
  /** The PortForm's values a carrier would dispute (carrier-ready.ts); null when none. */
  readonly disputed: string | null;
  /** What was normalised for the carrier, for the row's results message; null when nothing. */
  readonly notes: string | null;
}

/** A row's item record, shared like SharedRecords. */
export interface ItemRecord {
  readonly item: Record<string, MemberValue>;
  /** Labels of the item requirements it misses; null when none. */
  readonly missing: readonly string[] | null;
}

/** What one operation sends by default and requires, worked out once, and the records rows under it have stated. */
export interface OperationRecords {
  readonly defaults: Records;
  /** Requirements on the PortForm and request, met or not by a SharedRecords as a whole; then the item's. */
  readonly sharedRequirements: readonly Requirement[];
  readonly itemRequirements: readonly Requirement[];
  sharedFor(key: string): SharedRecords | undefined;
  itemFor(key: string): ItemRecord | undefined;
  /** The records rows with this key share from now on (frozen: nothing may change them), or these alone once the cache is full. */
  rememberShared(key: string, verdict: CarrierVerdict, request: Record<string, MemberValue>): SharedRecords;
  rememberItem(key: string, item: Record<string, MemberValue>): ItemRecord;
  /** A fresh copy of the operation's defaults for a row to convert its cells into. */
  freshRecords(): Records;
}

/**
 * The trimmed cells at `indexes` as one key. Length-prefixed, so no cell's text, NUL
 * included, can make two rows' keys meet; a lone cell is its own key, and no cells (a
 * sheet without item columns) the empty one. The operation is not in the key: each
 * operation has caches of its own.
 */
export function recordKey(indexes: readonly number[], cells: readonly string[]): string {
  if (indexes.length === 1) return cellOf(cells, indexes[0] as number);
  let key = "";
  for (const index of indexes) {
    const cell = cellOf(cells, index);
    key += `${cell.length}:${cell}`;
  }
  return key;
}

/** Labels of the requirements the records leave unmet, in requirement order; null when every one is met. */
export function missingFrom(requirements: readonly Requirement[], records: { readonly [S in keyof Records]: Readonly<Record<string, unknown>> | null }): string[] | null {
  let missing: string[] | null = null;
  for (const requirement of requirements) {
    const record = records[requirement.section];
    if (!requirement.anyOf.some((name) => record?.[name] !== undefined)) (missing ??= []).push(requirement.label);
  }
  return missing;
}

/** The one wording of unmet requirements, whichever path found them. */
export function missingMessage(labels: readonly string[]): string {
  return rows.missingMembers(labels);

}

/** One OperationRecords per operation; the limit on records kept is shared by them all. */
export function createRecordCache(defaults: Defaults): ReadonlyMap<Operation, OperationRecords> {
  let sharedKept = 0;
  let itemsKept = 0;
  const forOperation = (op: Operation): OperationRecords => {
    const requirements = requirementsOf(op);
    const opDefaults = defaultsFor(defaults, op);
    const sharedRequirements = requirements.filter((r) => r.section !== "item");
    const itemRequirements = requirements.filter((r) => r.section === "item");
    const shared = new Map<string, SharedRecords>();
    const items = new Map<string, ItemRecord>();
    return {
      defaults: opDefaults,
      sharedRequirements,
      itemRequirements,
      sharedFor: (key) => shared.get(key),
      itemFor: (key) => items.get(key),
      rememberShared(key, verdict, request) {
        const known = shared.get(key);
        if (known !== undefined) return known;
        const portForm = verdict.portForm;
        const records: SharedRecords = {
          portForm: Object.freeze(portForm),
          request: Object.freeze(request),
          missing: missingFrom(sharedRequirements, { portForm, request, item: null }),
          disputed: verdict.problems.length === 0 ? null : verdict.problems.join("; "),
          notes: verdict.notes.length === 0 ? null : verdict.notes.join("; "),
        };
        if (sharedKept >= SHARED_RECORDS_AT_MOST) return records;
        sharedKept++;
        shared.set(key, records);
        return records;
      },
      rememberItem(key, item) {
        const known = items.get(key);
        if (known !== undefined) return known;
        const missing = missingFrom(itemRequirements, { portForm: null, request: null, item });
        if (itemsKept >= SHARED_RECORDS_AT_MOST) return { item, missing };
        itemsKept++;
        const record: ItemRecord = { item: Object.freeze(item), missing };
        items.set(key, record);
        return record;
      },
      freshRecords: () => ({ portForm: { ...opDefaults.portForm }, request: { ...opDefaults.request }, item: { ...opDefaults.item } }),
    };
  };
  return new Map(OPERATIONS.map((op) => [op, forOperation(op)]));
}
