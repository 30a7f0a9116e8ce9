/**
 * The validator's fast path (docs/contract.md §3 "Invalid rows"): a row is
 * judged valid, or invalid at its first problem, at the cost of a table walk and a few cache
 * lookups. An invalid row's full message is worded afterwards by every-problem.ts, from the
 * same rules (row-number.ts, target.ts, the columns' refusals and converters).
 */
import type { SheetRow } from "../input/types.js";
import type { MemberValue } from "../catalog/members.js";
import { describeOperation } from "../catalog/operations.js";
import type { Converted } from "./convert.js";
import { attachmentBytes, hasAttachments, MAX_ROW_ATTACHMENT_BYTES, mebibytes } from "./files.js";
import type { Defaults, InvalidRow, ValidRow } from "./types.js";
import type { Records } from "./rules.js";
import { portFormLabel } from "./rules.js";
import type { CarrierVerdict } from "./carrier-ready.js";
import { checkCarrierValues } from "./carrier-ready.js";
import type { MemberColumn } from "./sheet-columns.js";
import { cellOf, storeMember } from "./sheet-columns.js";
import type { ItemRecord, SharedRecords } from "./record-cache.js";
import { missingMessage, recordKey } from "./record-cache.js";
import type { RowContext, RowVerdict, SheetRules } from "./row-context.js";
import { invalidAt, invalidRow } from "./row-context.js";
import { rowNumber } from "./row-number.js";
import type { RowNumber } from "./row-number.js";
import * as rows from "../messages/rows.js";

const NO_MEMBERS: Record<string, MemberValue> = Object.freeze({});

/** A member cell whose conversion answers later (a file being read). */
interface Waiting {
  readonly column: MemberColumn;
  readonly result: Promise<Converted>;
}

/** The row invalid for `reason`, still naming its number (docs/contract.md §6 result_number) when its cell parses. */
function named(row: SheetRow, number: RowNumber, reason: string): InvalidRow {
  return number.ok ? invalidRow(row, reason, number.digits, number.kind) : invalidRow(row, reason);
}

/** Judges one row; a Promise only when the row names files. */
export type FirstProblem = (row: SheetRow) => RowVerdict | Promise<RowVerdict>;

export function createFirstProblem(rules: SheetRules, defaults: Defaults): FirstProblem {
  const { columns, targets, operations, calendar } = rules;
  // Only sheets that attach files pay for adding up attachments, once per shared PortForm record.
  const mayAttach = columns.members.some((c) => c.member.type === "files") || hasAttachments(defaults.portForm);
  const attachmentTotals = new WeakMap<object, number>();

  function firstProblem(row: SheetRow): RowVerdict | Promise<RowVerdict> {
    const given = row.cells;
    const number = rowNumber(cellOf(given, columns.numberAt));
    if (given.length !== columns.width) return named(row, number, rows.fieldCount(given.length, columns.width));
    // A cell the reader could not use where it is sent (a workbook's error value, a mangled number).
    if (row.problem !== undefined) return named(row, number, row.problem);
    if (!number.ok) return invalidRow(row, number.reason);
    const { digits, kind } = number;
    // Most sheets have no address column to split: their cells stand as read, no object a row.
    let cells = given;
    if (columns.splitsAddress) {
      const addressed = columns.withAddress(given);
      if (addressed.problem !== undefined) return invalidRow(row, addressed.problem, digits, kind);
      cells = addressed.cells;
    }

    const target = targets.targetOf(cellOf(cells, columns.pilotAt), cellOf(cells, columns.offeringAt));
    if (!target.ok) return invalidRow(row, target.reason, digits, kind);
    const routed = targets.routeOf(target.offeringType, digits, kind);
    if (!routed.ok) return invalidRow(row, routed.reason, digits, kind);
    const operation = routed.operation;
    const records = operations.get(operation);
    if (records === undefined) return invalidRow(row, rows.noPlanFor(describeOperation(operation)), digits, kind, operation);
    const context: RowContext = { row, cells, digits, kind, operation, target: target.target, records };

    // The same cells under the same operation convert to the same records: rows whose
    // PortForm and request cells were seen before share those records and convert only their
    // item cells. Only records from rows whose every member cell converted are remembered, so
    // a row that meets one reports its first bad cell exactly as a row converted in full would.
    const sharedKey = recordKey(columns.sharedAt, cells);
    const shared = records.sharedFor(sharedKey);
    if (shared === undefined) return convertAll(context, sharedKey);
    const itemKey = recordKey(columns.itemAt, cells);
    let item = records.itemFor(itemKey);
    if (item === undefined) {
      // Item columns store into `item` alone: the other sections can be one shared, frozen record.
      const itemOnly: Records = { portForm: NO_MEMBERS, request: NO_MEMBERS, item: { ...records.defaults.item } };
      const outcome = convertCells(context, columns.items, itemOnly);
      // A converter that answers later (a file read): the row is converted in full.
      if (Array.isArray(outcome)) return convertAll(context, sharedKey);
      if (outcome !== null) return outcome;
      item = records.rememberItem(itemKey, itemOnly.item);
    }
    return complete(context, shared, item);
  }

  /**
   * Converts `members`' cells into `records`, in column order. Returns the row's first bad
   * cell, or the conversions still under way (file reads), or null when every cell is stored.
   */
  function convertCells(context: RowContext, members: readonly MemberColumn[], records: Records): RowVerdict | Waiting[] | null {
    let waiting: Waiting[] | null = null;
    for (const column of members) {
      const text = cellOf(context.cells, column.index);
      if (text === "") continue;
      const refusal = column.refusals.get(context.operation);
      if (refusal !== undefined) return invalidAt(context, refusal);
      const result = column.convert(text);
      if (result instanceof Promise) {
        (waiting ??= []).push({ column, result });
        continue;
      }
      if (!result.ok) return invalidAt(context, `${column.label} ${result.reason}`);
      storeMember(records, column, result.value);
    }
    return waiting;
  }

  /** Every member cell in column order, so that the first bad cell is the one reported. */
  function convertAll(context: RowContext, sharedKey: string): RowVerdict | Promise<RowVerdict> {
    const records = context.records.freshRecords();
    const waiting = convertCells(context, columns.members, records);
    if (waiting !== null && !Array.isArray(waiting)) return waiting;
    columns.mergeExtraDetails(records.portForm, context.cells);
    const withVerdict = (verdict: CarrierVerdict): RowVerdict => {
      const shared = context.records.rememberShared(sharedKey, verdict, records.request);
      const item = context.records.rememberItem(recordKey(columns.itemAt, context.cells), records.item);
      return complete(context, shared, item);
    };
    // A PortForm is judged as the carrier will see it, defaults merged, once per distinct record.
    const converted = (): RowVerdict | Promise<RowVerdict> => {
      const verdict = checkCarrierValues(records.portForm, calendar, portFormLabel);
      return verdict instanceof Promise ? verdict.then(withVerdict) : withVerdict(verdict);
    };
    if (waiting === null) return converted();
    return Promise.all(waiting.map((w) => w.result)).then((results) => {
      for (let i = 0; i < results.length; i++) {
        const result = results[i];
        const column = waiting[i]?.column;
        if (result === undefined || column === undefined) continue;
        if (!result.ok) return invalidAt(context, `${column.label} ${result.reason}`);
        storeMember(records, column, result.value);
      }
      return converted();
    });
  }

  /**
   * The row, or why it is incomplete. What a record misses was worked out once, when it was
   * first remembered: many rows share it. Item requirements come last in requirementsOf, so
   * the PortForm and request labels, then the item labels, are the order the message has
   * always had.
   */
  function complete(context: RowContext, shared: SharedRecords, item: ItemRecord): RowVerdict {
    if (shared.disputed !== null) return invalidAt(context, shared.disputed);
    if (shared.missing !== null || item.missing !== null) return invalidAt(context, missingMessage([...(shared.missing ?? []), ...(item.missing ?? [])]));
    const valid: ValidRow = {
      valid: true,
      index: context.row.index,
      line: context.row.line,
      number: context.digits,
      numberKind: context.kind,
      operation: context.operation,
      target: context.target,
      group: cellOf(context.cells, columns.groupAt),
      portForm: shared.portForm,
      request: shared.request,
      item: item.item,
    };
    // Notes only when there are some: no empty object spread into every row.
    return checkAttachmentTotal(shared.notes === null ? valid : { ...valid, notes: shared.notes });
  }

  /** One request carries its rows' shared attachments in one body: their total is bounded too. */
  function checkAttachmentTotal(pending: ValidRow): RowVerdict {
    if (!mayAttach) return pending;
    const form = pending.portForm;
    let bytes = attachmentTotals.get(form);
    if (bytes === undefined) attachmentTotals.set(form, (bytes = attachmentBytes(form)));
    if (bytes <= MAX_ROW_ATTACHMENT_BYTES) return pending;
    return invalidRow(
      pending,
      rows.rowAttachmentsTooLarge(mebibytes(bytes), mebibytes(MAX_ROW_ATTACHMENT_BYTES)),

      pending.number,
      pending.numberKind,
      pending.operation,
    );
  }

  return firstProblem;
}
