/**
 * What the validator does with each column, worked out once from the header (docs/contract.md
 * §3 "Headers", "A split address"), so a million rows cost a table walk each: where the number and the target
 * are, which cells are members and how each converts, and a split address's parts.
 */
import type { Column, SheetLayout } from "../input/types.js";
import type { Operation } from "../catalog/operations.js";
import { OPERATIONS } from "../catalog/operations.js";
import type { ExtraDetail, MemberInfo, MemberValue } from "../catalog/members.js";
import { findMember } from "../catalog/members.js";
import type { ConvertEnv, Converter } from "./convert.js";
import { converterFor, refusingControls } from "./convert.js";
import { ADDRESS_MEMBERS, splitAddress } from "./address.js";
import type { Records, Section } from "./rules.js";
import { labelOf, refusalOf, SECTION_OF } from "./rules.js";

export interface MemberColumn {
  readonly index: number;
  readonly member: MemberInfo;
  readonly section: Section;
  /** `portform.CustomerName`: the prefix and the member's own spelling. */
  readonly label: string;
  readonly convert: Converter;
  /** Why an operation cannot send this member; absent when it can. */
  readonly refusals: ReadonlyMap<Operation, string>;
}

/** A row's cells with its split address's parts appended, or why the address cannot be split. */
export interface AddressedCells {
  readonly cells: readonly string[];
  readonly problem?: string;
}

export interface SheetColumns {
  /** The header's field count: a row with another is ragged (docs/contract.md §3). */
  readonly width: number;
  /** Index of the first column of each role; -1 when the sheet has none. */
  readonly numberAt: number;
  readonly pilotAt: number;
  readonly offeringAt: number;
  readonly groupAt: number;
  /** Every member cell in column order, a split address's parts last. */
  readonly members: readonly MemberColumn[];
  /** The item members alone: the cells a row may convert when its PortForm and request are known. */
  readonly items: readonly MemberColumn[];
  /** Which cells decide a row's PortForm and request records, and which its item record (record-cache.ts keys). */
  readonly sharedAt: readonly number[];
  readonly itemAt: readonly number[];
  /** True when the sheet has an address column to split into parts (address.ts); withAddress leaves cells as they are otherwise. */
  readonly splitsAddress: boolean;
  withAddress(cells: readonly string[]): AddressedCells;
  /** Merges the row's `portform.ExtraDetails.<Key>` cells, in column order, over any defaults with the same Key. */
  mergeExtraDetails(portForm: Record<string, MemberValue>, cells: readonly string[]): void;
}

/** A cell's text as the validator reads it: trimmed, "" for a cell the row does not have. */
export function cellOf(cells: readonly string[], index: number): string {
  const raw = cells[index];
  return raw === undefined || raw === "" ? "" : raw.trim();
}

/** Stores a converted member. An empty list (a cell of only separators) leaves the member out, like an empty cell. */
export function storeMember(records: Records, column: MemberColumn, value: MemberValue): void {
  if (Array.isArray(value) && value.length === 0) return;
  records[column.section][column.member.name] = value;
}

export function sheetColumns(layout: SheetLayout, env: ConvertEnv): SheetColumns {
  const firstOf = (kind: Column["role"]["kind"]): number => layout.columns.find((c) => c.role.kind === kind)?.index ?? -1;
  const width = layout.header.length;
  const memberColumn = (index: number, member: MemberInfo): MemberColumn => {
    const refusals = new Map<Operation, string>();
    for (const op of OPERATIONS) {
      const refusal = refusalOf(member, op);
      if (refusal !== undefined) refusals.set(op, refusal);
    }
    return { index, member, section: SECTION_OF[member.scope], label: labelOf(member), convert: refusingControls(converterFor(member.type, env)), refusals };
  };

  const members: MemberColumn[] = [];
  // A split address's parts are cells appended after the row's own, one a member (address.ts).
  const addressAt = firstOf("address");
  const addressHeader = layout.columns[addressAt]?.header.trim() ?? "address";
  if (addressAt >= 0) {
    ADDRESS_MEMBERS.forEach((name, k) => {
      const member = findMember("portform", name);
      if (member !== undefined) members.push(memberColumn(width + k, member));
    });
  }
  const extraColumns: { readonly index: number; readonly key: string }[] = [];
  for (const column of layout.columns) {
    const role = column.role;
    if (role.kind === "extraDetail") extraColumns.push({ index: column.index, key: role.key });
    if (role.kind === "member") members.push(memberColumn(column.index, role.member));
  }
  const items = members.filter((c) => c.section === "item");
  const noParts = ADDRESS_MEMBERS.map(() => "");

  return {
    width,
    numberAt: firstOf("number"),
    pilotAt: firstOf("pilot"),
    offeringAt: firstOf("offering"),
    groupAt: firstOf("group"),
    members,
    items,
    sharedAt: [...members.filter((c) => c.section !== "item").map((c) => c.index), ...extraColumns.map((c) => c.index)],
    itemAt: items.map((c) => c.index),
    splitsAddress: addressAt >= 0,
    withAddress(cells) {
      if (addressAt < 0) return { cells };
      const text = cellOf(cells, addressAt);
      if (text === "") return { cells: [...cells, ...noParts] };
      const split = splitAddress(text);
      if (!split.ok) return { cells: [...cells, ...noParts], problem: `${addressHeader} ${split.reason}` };
      return { cells: [...cells, ...ADDRESS_MEMBERS.map((name) => split.parts[name])] };
    },
    mergeExtraDetails(portForm, cells) {
      let details: ExtraDetail[] | null = null;
      for (const column of extraColumns) {
        const value = cellOf(cells, column.index);
        if (value === "") continue;
        details ??= [...((portForm["ExtraDetails"] as readonly ExtraDetail[] | undefined) ?? [])];
        const at = details.findIndex((d) => d.Key === column.key);
        if (at >= 0) details[at] = { Key: column.key, Value: value };
        else details.push({ Key: column.key, Value: value });
      }
      if (details !== null) portForm["ExtraDetails"] = details;
    },
  };
}
