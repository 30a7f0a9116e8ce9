/**
 * A row's 9-1-1 address (docs/contract.md §2 "9-1-1 addresses", §3 `e911.<Member>`): its
 * `e911.*` cells over the --defaults "e911" object, member by member, held to the carrier-ready
 * rules of the PortForm's address (province codes, postal codes) and to the V911 record's
 * required members. Never taken from `PortForm.Customer…`: the billing address is not where
 * the phone is. Only a regular number on a SIP trunk takes one (takesE911).
 */
import * as e911Words from "../messages/e911.js";
import type { Operation } from "../catalog/operations.js";
import { E911_MEMBERS, E911_REQUIRED } from "../catalog/e911.js";
import type { E911Address, E911Member } from "../catalog/e911.js";
import type { SheetLayout } from "../input/types.js";
import type { CheckedRow, InvalidRow } from "./types.js";
import { readPostalCode } from "./postal-code.js";
import { countryName, readProvince } from "./province.js";

export type E911Reading =
  | { readonly kind: "none" }
  | { readonly kind: "address"; readonly address: E911Address; readonly notes: readonly string[] }
  | { readonly kind: "invalid"; readonly reason: string };

/** What prepare learned of the rows' 9-1-1 addresses (engine/prepare.ts). */
export interface E911Rows {
  /** Whether the sheet or the defaults give addresses: the results then have `result_e911`. */
  readonly given: boolean;
  /** Each valid row that takes a 9-1-1 record and has an address: its index -> the address, as sent. */
  readonly addresses: Map<number, E911Address>;
  /** Rows made invalid by their address (theirs is `result_e911` "invalid"). */
  readonly invalid: Set<number>;
}

export interface E911Reader {
  /** Whether the sheet or the defaults give 9-1-1 addresses at all: the results then have `result_e911` (docs/contract.md §6). */
  readonly given: boolean;
  /** The address of a row, from its cells. */
  read(cells: readonly string[]): E911Reading;
}

/** Whether a row's number takes a 9-1-1 record from portin: a regular number ported to a SIP trunk (docs/contract.md §1.5). */
export function takesE911(operation: Operation | null): boolean {
  return operation !== null && operation.numberKind === "regular" && operation.targetKind === "trunk";
}

const label = (member: E911Member): string => `e911.${member}`;

const NONE: E911Reading = { kind: "none" };

export function createE911Reader(layout: SheetLayout, defaults: E911Address | undefined): E911Reader {
  const columns = new Map<E911Member, number>();
  for (const column of layout.columns) if (column.role.kind === "e911") columns.set(column.role.member, column.index);
  const fallback = defaults ?? {};
  const given = columns.size > 0 || Object.keys(fallback).length > 0;
  // A sheet's rows share a few addresses: each is judged once, and rows share its reading.
  const judged = new Map<string, E911Reading>();
  return {
    given,
    read(cells) {
      if (!given) return NONE;
      const values = E911_MEMBERS.map((member) => {
        const at = columns.get(member);
        const cell = at === undefined ? "" : (cells[at] ?? "").trim();
        return cell === "" ? (fallback[member] ?? "") : cell;
      });
      const key = values.join("\u0000");
      let reading = judged.get(key);
      if (reading === undefined) {
        reading = judge(values);
        judged.set(key, reading);
      }
      return reading;
    },
  };
}

function judge(values: readonly string[]): E911Reading {
  const given: Partial<Record<E911Member, string>> = {};
  E911_MEMBERS.forEach((member, i) => {
    const value = values[i] ?? "";
    if (value !== "") given[member] = value;
  });
  if (Object.keys(given).length === 0) return NONE;
  const problems: string[] = [];
  const missing = E911_REQUIRED.filter((member) => given[member] === undefined);
  if (missing.length > 0) {
    const names = missing.map(label).join(", ");
    problems.push(`${names} ${missing.length === 1 ? "is" : "are"} missing: a 9-1-1 address needs ${E911_REQUIRED.join(", ")}`);
  }
  const notes: string[] = [];
  const address = { ...given };
  const set = (member: E911Member, value: string): void => {
    const was = given[member];
    if (was === undefined || was === value) return;
    address[member] = value;
    notes.push(`${label(member)} ${JSON.stringify(was)} sent as ${JSON.stringify(value)}`);
  };
  const provinceText = given.ProvinceState;
  const province = provinceText === undefined ? null : readProvince(provinceText, undefined);
  if (province !== null && provinceText !== undefined) {
    if (province.ok) set("ProvinceState", province.code);
    else problems.push(`${label("ProvinceState")} ${province.reason}`);
  }
  const postalText = given.PostalZip;
  if (postalText !== undefined) {
    const postal = readPostalCode(postalText, undefined);
    if (!postal.ok) problems.push(`${label("PostalZip")} ${postal.reason}`);
    else if (province?.ok === true && postal.country !== province.country) {
      const what = postal.country === "CA" ? "a Canadian postal code" : "a US ZIP code";
      problems.push(e911Words.postalOfOtherCountry(label("PostalZip"), JSON.stringify(postalText), what, label("ProvinceState"), province.code, countryName(province.country)));
    } else set("PostalZip", postal.value);
  }
  if (problems.length > 0) return { kind: "invalid", reason: problems.join("; ") };
  return { kind: "address", address, notes };
}

/**
 * Reads `row`'s address from `cells`: returns the row as it then stands, invalid when its
 * address is (a row that takes no 9-1-1 record ignores the columns), and notes in `into`
 * what it learned.
 */
export function readRowE911(reader: E911Reader, row: CheckedRow, cells: readonly string[], into: E911Rows): CheckedRow {
  if (!reader.given || !row.valid || !takesE911(row.operation)) return row;
  const reading = reader.read(cells);
  if (reading.kind === "none") return row;
  if (reading.kind === "invalid") {
    into.invalid.add(row.index);
    const invalid: InvalidRow = { valid: false, index: row.index, line: row.line, number: row.number, numberKind: row.numberKind, operation: row.operation, reason: reading.reason };
    return invalid;
  }
  into.addresses.set(row.index, reading.address);
  if (reading.notes.length === 0) return row;
  const notes = [row.notes, ...reading.notes].filter((n) => n !== undefined && n !== "").join("; ");
  return { ...row, notes };
}
