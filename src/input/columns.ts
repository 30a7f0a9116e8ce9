/**
 * Header matching, docs/contract.md §3: what each column of the sheet means. Problems that make the
 * whole sheet untrustworthy (an unknown member, a portin-owned member, two columns meaning
 * one thing, no number column) are refused here, before anything is read or sent.
 */
import { InputError } from "../errors.js";
import { findMember, memberNames, type MemberScope } from "../catalog/members.js";
import { closestNames } from "../closest.js";
import type { Column, ColumnRole } from "./types.js";

const NUMBER_ALIASES = ["number", "telephone_number", "phone_number", "tn"] as const;

const PLAIN_COLUMNS: ReadonlyMap<string, ColumnRole> = new Map<string, ColumnRole>([
  ...NUMBER_ALIASES.map((alias): [string, ColumnRole] => [alias, { kind: "number" }]),
  ["pilot_number", { kind: "pilot" }],
  ["offering_id", { kind: "offering" }],
  ["group", { kind: "group" }],
]);

/** Members portin fills itself (docs/contract.md §1.2, §3), keyed `scope.member` in lower case, with the column that feeds them. */
const PORTIN_OWNED: ReadonlyMap<string, string> = new Map([
  ["portform.numberstoport", "the number column"],
  ["item.number", "the number column"],
  ["item.tn", "the number column"],
  ["item.planid", "the offering_id column"],
  ["request.pilotnumber", "the pilot_number column"],
  ["request.offeringid", "the offering_id column"],
]);

/** The column that feeds a member portin fills itself, or undefined for a member the user may set. */
export function portinOwner(scope: MemberScope, member: string): string | undefined {
  return PORTIN_OWNED.get(`${scope}.${member.trim().toLowerCase()}`);
}

const EXTRA_DETAILS = "extradetails";

/** Case-insensitive, trimmed, with space, `-` and `_` treated alike (docs/contract.md §3). */
function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]/g, "_");
}

/** A prefix may be written `PortForm`, `Port Form` or `port_form`: separators carry no meaning there. */
function scopeOf(prefix: string): MemberScope | undefined {
  const compact = normalize(prefix).replace(/_/g, "");
  return compact === "portform" || compact === "request" || compact === "item" ? compact : undefined;
}

/** How a message names a header cell: `column 3` in a CSV file, `Numbers!C1` in a workbook. */
export type HeaderCellName = (index: number) => string;

const csvColumn: HeaderCellName = (index) => `column ${index + 1}`;

function describe(column: Column, name: HeaderCellName): string {
  return `${name(column.index)} "${column.header}"`;
}

function memberRole(source: string, index: number, header: string, prefix: string, memberPart: string, scope: MemberScope, name: HeaderCellName): ColumnRole {
  const column = `${source}: ${name(index)} "${header}"`;
  const member = memberPart.trim();
  const dot = member.indexOf(".");
  if (scope === "portform" && dot >= 0 && member.slice(0, dot).trim().toLowerCase() === EXTRA_DETAILS) {
    const key = member.slice(dot + 1);
    if (key.trim() === "") throw new InputError(`${column} names no ExtraDetails key; write it as "${prefix}.ExtraDetails.<Key>"`);
    return { kind: "extraDetail", key };
  }
  const owner = portinOwner(scope, member);
  if (owner !== undefined) {
    throw new InputError(`${column} is filled by portin from ${owner}, not from a column; remove the column`);
  }
  const info = findMember(scope, member);
  if (info?.type === "extraDetails") {
    throw new InputError(`${column} needs a key: write one column per entry, as "${prefix}.ExtraDetails.<Key>"`);
  }
  if (info !== undefined) return { kind: "member", member: info };
  const scopeName = scope === "portform" ? "PortForm" : scope;
  const suggestion = closestNames(member, memberNames(scope))[0];
  const hint = suggestion === undefined ? "" : `; did you mean "${prefix}.${suggestion}"?`;
  throw new InputError(`${column} names no ${scopeName} member${hint}`);
}

function roleOf(source: string, index: number, header: string, name: HeaderCellName): ColumnRole {
  const trimmed = header.trim();
  const plain = PLAIN_COLUMNS.get(normalize(trimmed));
  if (plain !== undefined) return plain;
  const dot = trimmed.indexOf(".");
  if (dot < 0) return { kind: "passthrough" };
  const prefix = trimmed.slice(0, dot).trim();
  const scope = scopeOf(prefix);
  if (scope === undefined) return { kind: "passthrough" };
  return memberRole(source, index, header, prefix, trimmed.slice(dot + 1), scope, name);
}

/** What two columns would both set, or undefined when a column may repeat (passthrough). */
function meaningOf(role: ColumnRole): string | undefined {
  switch (role.kind) {
    case "number":
      return "the number";
    case "pilot":
      return "the pilot number";
    case "offering":
      return "the offering";
    case "group":
      return "the group";
    case "member":
      return `${role.member.scope === "portform" ? "PortForm" : role.member.scope}.${role.member.name}`;
    case "extraDetail":
      return `the ExtraDetails key "${role.key}"`;
    case "passthrough":
      return undefined;
  }
}

/** Matches every header cell to its role; throws InputError for a sheet that cannot be used. */
export function matchColumns(source: string, header: readonly string[], name: HeaderCellName = csvColumn): Column[] {
  const columns: Column[] = header.map((cell, index) => ({ index, header: cell, role: roleOf(source, index, cell, name) }));
  const seen = new Map<string, Column>();
  for (const column of columns) {
    const meaning = meaningOf(column.role);
    if (meaning === undefined) continue;
    const earlier = seen.get(meaning);
    if (earlier !== undefined) {
      throw new InputError(`${source}: ${describe(earlier, name)} and ${describe(column, name)} both give ${meaning}; keep one of them`);
    }
    seen.set(meaning, column);
  }
  if (!seen.has("the number")) {
    const names = NUMBER_ALIASES.map((alias) => `"${alias}"`).join(", ");
    throw new InputError(`${source}: no number column; name the column of numbers to port one of ${names}`);
  }
  return columns;
}
