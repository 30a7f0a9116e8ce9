/**
 * Header matching, docs/contract.md §3: what each column of the sheet means. Problems that make the
 * whole sheet untrustworthy (an unknown member, a portin-owned member, two columns meaning
 * one thing, no number column) are refused here, before anything is read or sent.
 */
import { InputError } from "../errors.js";
import { findMember, memberNames, type MemberScope } from "../catalog/members.js";
import { E911_MEMBERS, findE911Member } from "../catalog/e911.js";
import { closestNames } from "../closest.js";
import type { Column, ColumnRole } from "./types.js";
import * as sheetWords from "../messages/sheet.js";

/**
 * Rows looked at for the header: a customer's sheet often has a title ("Acme - numbers to
 * port, wave 3") and a blank or date line above it. Beyond this, a sheet without a number
 * column is refused rather than searched.
 */
export const HEADER_SEARCH_ROWS = 10;

export const NUMBER_ALIASES = ["number", "telephone_number", "phone_number", "tn"] as const;

/**
 * `--defaults` "columns": a customer's own header names (normalized as headers are) and what
 * each means; null keeps a column as a pass-through without listing it as never sent.
 */
export type ColumnMap = ReadonlyMap<string, ColumnRole | null>;

/** A sheet with no number column (perhaps a title row above its header: sheet.ts looks further). */
export class NoNumberColumnError extends InputError {
  constructor(message: string) {
    super(message);
    // An InputError to everyone but the header search.
    this.name = "InputError";
  }
}

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

export const NO_COLUMN_MAP: ColumnMap = new Map();

/** The PortForm members a `{"split": "address"}` column fills (validate/address.ts), which no other column may then give. */
export const SPLIT_ADDRESS_MEMBERS = ["CustomerStreetNumber", "CustomerStreetName", "CustomerStreetType", "CustomerStreetDirection", "CustomerUnit", "CustomerFloor"] as const;

/** Case-insensitive, trimmed, with space, `-` and `_` treated alike (docs/contract.md §3). */
export function normalize(name: string): string {
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

/** `column` names the cell in messages: `sheet.csv: column 3 "portform.x"`. */
function memberRole(column: string, prefix: string, memberPart: string, scope: MemberScope): ColumnRole {
  const member = memberPart.trim();
  const dot = member.indexOf(".");
  if (scope === "portform" && dot >= 0 && member.slice(0, dot).trim().toLowerCase() === EXTRA_DETAILS) {
    const key = member.slice(dot + 1);
    if (key.trim() === "") throw new InputError(sheetWords.extraDetailsNoKey(column, prefix));
    return { kind: "extraDetail", key };
  }
  const owner = portinOwner(scope, member);
  if (owner !== undefined) {
    throw new InputError(sheetWords.memberFilledByPortin(column, owner));
  }
  const info = findMember(scope, member);
  if (info?.type === "extraDetails") {
    throw new InputError(sheetWords.extraDetailsNeedsKey(column, prefix));
  }
  if (info !== undefined) return { kind: "member", member: info };
  const scopeName = scope === "portform" ? "PortForm" : scope;
  const suggestion = closestNames(member, memberNames(scope))[0];
  const hint = suggestion === undefined ? "" : sheetWords.didYouMeanMember(prefix, suggestion);
  throw new InputError(sheetWords.noSuchMember(column, scopeName, hint));
}

/** `e911.City`, `E911.city`: the 9-1-1 address's prefix, separators and case aside. */
const E911_PREFIX = "e911";

function e911Role(column: string, prefix: string, memberPart: string): ColumnRole {
  const member = findE911Member(memberPart);
  if (member !== undefined) return { kind: "e911", member };
  const suggestion = closestNames(memberPart.trim(), [...E911_MEMBERS])[0];
  const hint = suggestion === undefined ? `; the members are ${E911_MEMBERS.join(", ")}` : `; did you mean "${prefix}.${suggestion}"?`;
  throw new InputError(`${column} names no 9-1-1 address member${hint}`);
}

/** What a header (or a column mapping's target) means; `column` names it in messages. */
export function roleOf(column: string, header: string): ColumnRole {
  const trimmed = header.trim();
  const plain = PLAIN_COLUMNS.get(normalize(trimmed));
  if (plain !== undefined) return plain;
  const dot = trimmed.indexOf(".");
  if (dot < 0) return { kind: "passthrough" };
  const prefix = trimmed.slice(0, dot).trim();
  if (normalize(prefix).replace(/_/g, "") === E911_PREFIX) return e911Role(column, prefix, trimmed.slice(dot + 1));
  const scope = scopeOf(prefix);
  if (scope === undefined) return { kind: "passthrough" };
  return memberRole(column, prefix, trimmed.slice(dot + 1), scope);
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
    case "e911":
      return `e911.${role.member}`;
    case "address":
      return "the split street address";
    case "passthrough":
      return undefined;
  }
}

/**
 * Matches every header cell to its role, `map` first; throws InputError for a sheet that
 * cannot be used. `name` says how messages name a header cell (`column 3`, `Numbers!C1`).
 */
export function matchColumns(source: string, header: readonly string[], map: ColumnMap = NO_COLUMN_MAP, name: HeaderCellName = csvColumn): Column[] {
  const columns: Column[] = header.map((cell, index) => {
    const mapped = map.size === 0 ? undefined : map.get(normalize(cell));
    if (mapped === undefined) return { index, header: cell, role: roleOf(`${source}: ${name(index)} "${cell}"`, cell) };
    return { index, header: cell, role: mapped ?? { kind: "passthrough" }, mapped: true };
  });
  const seen = new Map<string, Column>();
  for (const column of columns) {
    const meaning = meaningOf(column.role);
    if (meaning === undefined) continue;
    const earlier = seen.get(meaning);
    if (earlier !== undefined) {
      throw new InputError(sheetWords.twoColumnsGive(source, describe(earlier, name), describe(column, name), meaning));
    }
    seen.set(meaning, column);
  }
  const split = seen.get("the split street address");
  if (split !== undefined) {
    const twice = SPLIT_ADDRESS_MEMBERS.map((member) => seen.get(`PortForm.${member}`)).find((column) => column !== undefined);
    if (twice !== undefined) throw new InputError(sheetWords.splitAndMember(source, describe(split, name), describe(twice, name)));
  }
  if (!seen.has("the number")) {
    const names = NUMBER_ALIASES.map((alias) => `"${alias}"`).join(", ");
    throw new NoNumberColumnError(sheetWords.noNumberColumn(source, names));

  }
  return columns;
}
