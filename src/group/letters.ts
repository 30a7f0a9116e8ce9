/**
 * ValidRow[] -> one letter of authorization per customer (docs/contract.md §2, "Letters of
 * authorization"): pure, no I/O. A letter's group is the rows that share `CustomerName`,
 * `CustomerAccountNumber` and the losing carrier after --defaults, whatever their target or
 * request; its content is every value the letter prints, and its fingerprint a digest of them,
 * which `portin loa` writes into the letter and `plan`/`submit` compare with the rows.
 */
import { hash } from "node:crypto";
import type { Provider } from "../catalog/account.js";
import type { Members } from "../catalog/members.js";
import type { ValidRow } from "../validate/types.js";

/** A letter's content: the values it prints, in the shape it prints them. */
export interface LetterContent {
  readonly customer: string;
  readonly account: string;
  /** The losing carrier's name (the provider the row names, or its reseller); "" when the form names neither (toll-free). */
  readonly carrier: string;
  /** The billing address's members the letter prints, by the service's names. */
  readonly address: Readonly<Record<string, string>>;
  /** 10 digits each, ascending, each once. */
  readonly numbers: readonly string[];
  /** `RequestedPortDate`s of the group's rows (YYYY-MM-DD), ascending, each once; [] when none is given. */
  readonly portDates: readonly string[];
  /** Every row that gives a `Locale` gives FrenchCA (5): the letter is written in French unless told otherwise. */
  readonly french: boolean;
}

export interface LetterGroup {
  readonly content: LetterContent;
  /** Its rows, in input order. */
  readonly rows: readonly ValidRow[];
}

/** The billing address members a letter prints, in the order an address is written. */
export const ADDRESS_MEMBERS = [
  "CustomerUnit",
  "CustomerFloor",
  "CustomerStreetNumber",
  "CustomerStreetName",
  "CustomerStreetType",
  "CustomerStreetDirection",
  "CustomerStreetSuffix",
  "CustomerCity",
  "CustomerProvince",
  "CustomerPostalCode",
  "CustomerCountry",
] as const;

/** docs/contract.md §1.2: Locale 5 is FrenchCA. */
const FRENCH_CA = 5;

const text = (members: Members, name: string): string => {
  const value = members[name];
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
};

/** The losing carrier as the rows name it: a provider by its ID, else a reseller by name. */
function carrierKey(form: Members): string {
  const provider = form["CurrentProvider"];
  if (typeof provider === "number") return `provider:${provider}`;
  const reseller = text(form, "CurrentReseller");
  return reseller === "" ? "" : `reseller:${reseller}`;
}

function carrierName(form: Members, providers: ReadonlyMap<number, string>): string {
  const provider = form["CurrentProvider"];
  if (typeof provider === "number") return providers.get(provider) ?? String(provider);
  return text(form, "CurrentReseller");
}

/**
 * The letters of these rows, in order of each group's first row. A group's billing address is
 * its first row's: rows of one customer account share it, and a row that gives another is
 * still the same account at the same carrier.
 */
export function letterGroups(rows: Iterable<ValidRow>, providers: readonly Provider[]): LetterGroup[] {
  const names = new Map(providers.map((p) => [p.id, p.name]));
  const groups = new Map<string, ValidRow[]>();
  for (const row of rows) {
    const form = row.portForm;
    // JSON of the three values: no separator a customer's name could contain can merge two keys.
    const key = JSON.stringify([text(form, "CustomerName"), text(form, "CustomerAccountNumber"), carrierKey(form)]);
    const members = groups.get(key);
    if (members === undefined) groups.set(key, [row]);
    else members.push(row);
  }
  return [...groups.values()].map((members) => ({ content: contentOf(members, names), rows: members }));
}

function contentOf(rows: readonly ValidRow[], providers: ReadonlyMap<number, string>): LetterContent {
  const first = (rows[0] as ValidRow).portForm;
  const address: Record<string, string> = {};
  for (const name of ADDRESS_MEMBERS) {
    const value = text(first, name);
    if (value !== "") address[name] = value;
  }
  const dates = new Set<string>();
  let locales = 0;
  let french = 0;
  for (const row of rows) {
    const date = text(row.portForm, "RequestedPortDate");
    if (date !== "") dates.add(date);
    const locale = row.item["Locale"];
    if (typeof locale === "number") {
      locales++;
      if (locale === FRENCH_CA) french++;
    }
  }
  return {
    customer: text(first, "CustomerName"),
    account: text(first, "CustomerAccountNumber"),
    carrier: carrierName(first, providers),
    address,
    numbers: [...new Set(rows.map((row) => row.number))].sort(),
    portDates: [...dates].sort(),
    french: locales > 0 && french === locales,
  };
}

/** A fingerprint's length: 22 characters of base64url, 132 bits of SHA-256. */
const LETTER_FINGERPRINT_LENGTH = 22;

/**
 * The digest of what a letter says: its numbers and every value it prints, not its wording,
 * so that a letter written in French (`--language fr`) is the same letter as in English.
 */
export function letterFingerprint(content: LetterContent): string {
  const address = ADDRESS_MEMBERS.filter((name) => content.address[name] !== undefined).map((name) => [name, content.address[name]]);
  const canonical = JSON.stringify([content.customer, content.account, content.carrier, address, content.numbers, content.portDates]);
  return hash("sha256", canonical, "base64url").slice(0, LETTER_FINGERPRINT_LENGTH);
}

/**
 * The fingerprint of a group's numbers alone: told apart from the whole letter's, it says
 * whether a stale letter lists other numbers or the same numbers with other values.
 */
export function letterNumbersFingerprint(content: LetterContent): string {
  return hash("sha256", JSON.stringify(content.numbers), "base64url").slice(0, LETTER_FINGERPRINT_LENGTH);
}

/** A run of consecutive numbers; `first === last` for a number alone. */
export interface NumberRun {
  readonly first: string;
  readonly last: string;
  readonly count: number;
}

/** Ascending 10-digit numbers as runs of consecutive ones: a carrier reads 416-555-0100 to 0199 as one block. */
export function numberRuns(numbers: readonly string[]): NumberRun[] {
  const runs: NumberRun[] = [];
  let start = 0;
  for (let i = 1; i <= numbers.length; i++) {
    const previous = numbers[i - 1] as string;
    const current = numbers[i];
    if (current !== undefined && Number(current) === Number(previous) + 1) continue;
    runs.push({ first: numbers[start] as string, last: previous, count: i - start });
    start = i;
  }
  return runs;
}
