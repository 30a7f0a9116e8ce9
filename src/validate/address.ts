/**
 * One "Service Address" cell split into the PortForm's street members (docs/contract.md §3,
 * `{"split": "address"}` in the `--defaults` "columns" map): `120 King St W, Suite 400` is
 * street number 120, name King, type St, direction W, unit 400. Canadian (English and French)
 * and US street lines; a cell it cannot split is named, never sent whole as a street name. Pure.
 */

import { SPLIT_ADDRESS_MEMBERS } from "../input/columns.js";
import * as rows from "../messages/rows.js";

/** The members a split address fills, in the order the validator appends their cells. */
export const ADDRESS_MEMBERS = SPLIT_ADDRESS_MEMBERS;

export type AddressParts = Readonly<Record<(typeof ADDRESS_MEMBERS)[number], string>>;

const fold = (word: string): string =>
  word
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Street types written after the name (English), as Canada Post and USPS abbreviate them and in full. */
const TYPES_AFTER = new Set(
  (
    "st street ave av avenue rd road blvd boulevard dr drive ln lane ct court cres crescent cr pl place way pkwy parkway hwy highway " +
    "terr terrace ter cir circle sq square trl trail cres crt gate gdns gardens grv grove hts heights lndg landing line mews pt point " +
    "row run walk loop plaza plz expy expressway fwy freeway tpke turnpike pike path sideroad concession conc esplanade"
  ).split(" "),
);
/** Street types written before the name (French): `rue Sainte-Catherine`, `boul. René-Lévesque`. */
const TYPES_BEFORE = new Set("rue boul boulevard bd chemin ch avenue av montee rang route rte cote allee impasse promenade place carre croissant terrasse".split(" "));
const DIRECTIONS = new Set("n s e w ne nw se sw no so north south east west northeast northwest southeast southwest nord sud est ouest o".split(" "));
/** Unit designators, English and French; `#400` too. */
const UNIT = /^(?:suite|ste|apt|apartment|unit|bureau|app|appartement|local|room|rm|penthouse|ph|#)\s*\.?\s*#?\s*([0-9A-Za-z][\w-]*)$/i;
const FLOOR = /^(?:floor|fl|etage|\u00e9tage)\s*\.?\s*(\d+)$|^(\d+)(?:st|nd|rd|th|e|er)?\s+(?:floor|fl|etage|\u00e9tage)$/i;
/** A civic number: `120`, `120A`, `1250-B`; Canada writes a unit before it: `5-120`. */
const CIVIC = /^(\d+[A-Za-z]?)$/;
const UNIT_CIVIC = /^([0-9A-Za-z]+)-(\d+[A-Za-z]?)$/;

const EMPTY: AddressParts = { CustomerStreetNumber: "", CustomerStreetName: "", CustomerStreetType: "", CustomerStreetDirection: "", CustomerUnit: "", CustomerFloor: "" };

/** The parts of one address cell, or why it cannot be split. */
export function splitAddress(text: string): { readonly ok: true; readonly parts: AddressParts } | { readonly ok: false; readonly reason: string } {
  const refuse = (why: string): { ok: false; reason: string } => ({
    ok: false,
    reason: rows.addressNotSplit(JSON.stringify(text), why),
  });
  const parts: Record<(typeof ADDRESS_MEMBERS)[number], string> = { ...EMPTY };
  const [street = "", ...rest] = text.split(",").map((part) => part.trim());
  for (const extra of rest.filter((part) => part !== "")) {
    if (!takeUnitOrFloor(extra, parts)) return refuse(rows.notUnitNorFloor(JSON.stringify(extra)));
  }
  const words = street.split(/\s+/).filter((word) => word !== "");
  // A unit at the end of the street line: `123 N Main St Apt 4B`, `120 King St W #400`.
  for (let at = words.length - 1; at >= 1; at--) {
    const tail = words.slice(at).join(" ");
    if (/^\d/.test(tail)) continue;
    if (UNIT.test(tail) || FLOOR.test(tail)) {
      if (!takeUnitOrFloor(tail, parts)) return refuse("two units");
      words.splice(at);
      break;
    }
  }
  // Or before it, Canada Post's way: `Unit 5 120 King St`, `Suite 400 - 120 King St`.
  const lead = /^(?:suite|ste|apt|unit|bureau|app|#)\.?\s*#?\s*([0-9A-Za-z]+)\s*-?\s+(?=\d)/i.exec(words.join(" "));
  if (lead !== null) {
    if (parts.CustomerUnit !== "") return refuse("two units");
    parts.CustomerUnit = lead[1] ?? "";
    words.splice(0, words.length, ...words.join(" ").slice(lead[0].length).split(/\s+/));
  }
  const civic = words.shift() ?? "";
  const unitCivic = UNIT_CIVIC.exec(civic);
  if (unitCivic !== null && parts.CustomerUnit === "") {
    parts.CustomerUnit = unitCivic[1] ?? "";
    parts.CustomerStreetNumber = unitCivic[2] ?? "";
  } else if (CIVIC.test(civic)) {
    parts.CustomerStreetNumber = civic;
  } else {
    return refuse(rows.NO_CIVIC_NUMBER);
  }
  if (words.length > 1 && DIRECTIONS.has(fold(words.at(-1) ?? ""))) parts.CustomerStreetDirection = words.pop() ?? "";
  else if (words.length > 1 && DIRECTIONS.has(fold(words[0] ?? "")) && !TYPES_BEFORE.has(fold(words[1] ?? ""))) parts.CustomerStreetDirection = words.shift() ?? "";
  if (words.length > 1 && TYPES_AFTER.has(fold(words.at(-1) ?? ""))) parts.CustomerStreetType = words.pop() ?? "";
  else if (words.length > 1 && TYPES_BEFORE.has(fold(words[0] ?? ""))) parts.CustomerStreetType = words.shift() ?? "";
  if (words.length === 0) return refuse(rows.NO_STREET_NAME);

  parts.CustomerStreetName = words.join(" ");
  return { ok: true, parts };
}

function takeUnitOrFloor(text: string, parts: Record<(typeof ADDRESS_MEMBERS)[number], string>): boolean {
  const unit = UNIT.exec(text);
  if (unit !== null && parts.CustomerUnit === "") {
    parts.CustomerUnit = unit[1] ?? "";
    return true;
  }
  const floor = FLOOR.exec(text);
  if (floor !== null && parts.CustomerFloor === "") {
    parts.CustomerFloor = floor[1] ?? floor[2] ?? "";
    return true;
  }
  return false;
}
