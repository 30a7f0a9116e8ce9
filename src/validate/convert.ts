/**
 * Cell text to member values, one converter per MemberType (docs/contract.md §1.2 types, §3 values).
 * Converters are built once per run; reasons start with the offending value so the caller
 * can prefix the column: `portform.RequestedPortDate "2026-13-01" is not a date (YYYY-MM-DD)`.
 */
import type { ExtraDetail, MemberType, MemberValue } from "../catalog/members.js";
import type { Provider } from "../catalog/account.js";
import { closestNames } from "../closest.js";
import { parseNanp } from "./nanp.js";
import { terminalSafe } from "../terminal-text.js";
import { excelInteger, looseCountry, looseLocale, looseTime, MORE_BOOLEANS, portablePath, providersByWords, readDate, SECOND_LOCALE_NONE } from "./writings.js";
import * as rows from "../messages/rows.js";

export type Converted = { readonly ok: true; readonly value: MemberValue } | { readonly ok: false; readonly reason: string };

/** A trimmed, non-empty cell, or the parts of a list already split (from a JSON array). */
export type RawValue = string | readonly string[];
export type Converter = (raw: RawValue) => Converted | Promise<Converted>;

/** Turns `File…` cells into attachments: declared where it is used, and implemented by files.ts. */
export interface FileAttacher {
  /** Paths relative to the attacher's folder; the reason names the path as written. */
  attach(paths: readonly string[]): Promise<Converted>;
}

export interface ConvertEnv {
  readonly providers: readonly Provider[];
  /** Reads `File…` paths, confined to the folder they are relative to (files.ts). */
  readonly files: FileAttacher;
}

const quote = (text: string): string => JSON.stringify(text);
const fail = (reason: string): Converted => ({ ok: false, reason });
const ok = (value: MemberValue): Converted => ({ ok: true, value });

/** docs/contract.md §3: list members take `;`-separated values; blanks between separators are dropped. */
export function splitList(raw: RawValue): string[] {
  const parts = typeof raw === "string" ? raw.split(";") : raw;
  const out: string[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed !== "") out.push(trimmed);
  }
  return out;
}

const asText = (raw: RawValue): string => (typeof raw === "string" ? raw : raw.join(";"));

const INT_RE = /^[+-]?\d+$/;
function toInt(raw: RawValue): Converted {
  const text = asText(raw);
  const value = Number(text);
  if (INT_RE.test(text) && Number.isSafeInteger(value)) return ok(value);
  // Excel's `300451.0`: tried only once the strict reading has failed.
  const whole = excelInteger(text);
  return whole !== null && Number.isSafeInteger(Number(whole)) ? ok(Number(whole)) : fail(rows.notAnInteger(quote(text)));
}

const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["yes", true],
  ["1", true],
  ["false", false],
  ["no", false],
  ["0", false],
  ...MORE_BOOLEANS,
]);
function toBool(raw: RawValue): Converted {
  const text = asText(raw);
  const value = BOOLEANS.get(text.toLowerCase());
  return value === undefined ? fail(rows.notABoolean(quote(text))) : ok(value);
}

function toPhone(raw: RawValue): Converted {
  const parsed = parseNanp(asText(raw));
  return parsed.ok ? ok(Number(parsed.digits)) : fail(parsed.reason);
}

function toPhoneList(raw: RawValue): Converted {
  const numbers: number[] = [];
  for (const part of splitList(raw)) {
    const parsed = parseNanp(part);
    if (!parsed.ok) return fail(parsed.reason);
    numbers.push(Number(parsed.digits));
  }
  return ok(numbers);
}

const LOCALE_NAMES = ["EnglishUS", "EnglishUK", "EnglishCA", "UserDefined1", "UserDefined2", "FrenchCA", "SpanishLatinAmerica"];
/** Names compared without case, spaces, `-` or `_`: "English CA" = "englishca". */
const normalizeName = (text: string): string => text.toLowerCase().replace(/[\s_-]+/g, "");

function localeConverter(second: boolean): Converter {
  const codes = new Map<string, number>();
  LOCALE_NAMES.forEach((name, code) => {
    codes.set(String(code), code);
    codes.set(normalizeName(name), code);
  });
  if (second) {
    codes.set(String(SECOND_LOCALE_NONE), SECOND_LOCALE_NONE);
    codes.set("none", SECOND_LOCALE_NONE);
  }
  const accepted = second ? rows.SECOND_LOCALES : rows.LOCALES;
  return (raw) => {
    const text = asText(raw);
    const code = codes.get(normalizeName(text)) ?? looseLocale(text, second);
    return code === undefined ? fail(rows.notALocale(quote(text), accepted)) : ok(code);
  };
}

function toCountry(raw: RawValue): Converted {
  const text = asText(raw);
  const upper = text.toUpperCase();
  if (upper === "CA" || upper === "US") return ok(upper);
  const named = looseCountry(text);
  return named === undefined ? fail(rows.notACountry(quote(text))) : ok(named);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
function toDate(raw: RawValue): Converted {
  const text = asText(raw);
  const match = DATE_RE.exec(text);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return ok(text);
  }
  // Other orders, names of months, and why a date is not one: only once the strict reading failed.
  const read = readDate(text);
  return read.ok ? ok(read.value) : fail(read.reason);
}

const TIME_RE = /^([01]?\d|2[0-3]):([0-5]\d)$/;
function toTime(raw: RawValue): Converted {
  const text = asText(raw);
  const match = TIME_RE.exec(text);
  if (match) return ok(`${(match[1] ?? "").padStart(2, "0")}:${match[2] ?? ""}`);
  const loose = looseTime(text);
  return loose === undefined ? fail(rows.notATime(quote(text))) : ok(loose);
}

/** `"Key=Value;Key2=Value2"`, as a --defaults file may write ExtraDetails; a sheet has a column per Key instead. */
function toExtraDetails(raw: RawValue): Converted {
  const details: ExtraDetail[] = [];
  for (const part of splitList(raw)) {
    const at = part.indexOf("=");
    const key = at > 0 ? part.slice(0, at).trim() : "";
    if (key === "") return fail(rows.notAnExtraDetail(quote(part)));
    details.push({ Key: key, Value: part.slice(at + 1).trim() });
  }
  return ok(details);
}

function providerConverter(providers: readonly Provider[]): Converter {
  const byId = new Map(providers.map((p) => [p.id, p]));
  const byName = new Map<string, Provider[]>();
  for (const provider of providers) {
    const key = provider.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), provider]);
  }
  const describe = (p: Provider): string => `${p.name} (${p.id})`;
  // A sheet names the same few carriers again and again: resolve each spelling once.
  const seen = new Map<string, Converted>();
  function resolveProvider(text: string): Converted {
    const digits = INT_RE.test(text) ? text : excelInteger(text);
    if (digits !== null) {
      const id = Number(digits);
      if (byId.has(id)) return ok(id);
    }
    const exact = byName.get(text.toLowerCase()) ?? [];
    // A name as people say it ("TELUS", "Videotron"): by words, ignoring case and accents.
    const matches = exact.length > 0 ? exact : providersByWords(text, providers);
    const [only] = matches;
    if (matches.length === 1 && only) return ok(only.id);
    if (matches.length > 1) {
      const instead = exact.length > 1 ? rows.GIVE_PROVIDER_ID : rows.WRITE_PROVIDER_IN_FULL;
      return fail(rows.severalProviders(quote(text), matches.map(describe).join(", "), instead));
    }
    const near = closestNames(text, providers.map((p) => p.name), 3);
    const hint = near.length > 0 ? rows.closestProviders(near.join(", ")) : "";
    return fail(rows.unknownProvider(quote(text), hint));

  }
  return (raw) => {
    const text = asText(raw);
    let result = seen.get(text);
    if (result === undefined) {
      result = resolveProvider(text);
      seen.set(text, result);
    }
    return result;
  };
}

/** Builds the converter for one member type; `extraDetails` columns of one Key are handled by the validator. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this rule is for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * docs/contract.md §3 "Values": a control character inside a cell (a DEL, an escape, a C1
 * control) makes the row invalid, naming the column. Left in, it would be dropped by a
 * carrier-ready rule (a province `a<DEL>b` read as `AB`) or sent as is; either way the value
 * sent is not the one the sheet shows. Tab and line breaks are text (a cell of several lines).
 */
export function refusingControls(convert: Converter): Converter {
  return (raw) => {
    const text = asText(raw);
    const at = text.search(CONTROL);
    if (at < 0) return convert(raw);
    const code = text.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0");
    return fail(rows.controlCharacter(terminalSafe(text), code, at + 1));
  };
}

export function converterFor(type: MemberType, env: ConvertEnv): Converter {
  switch (type) {
    case "string":
      return (raw) => ok(asText(raw));
    case "int":
      return toInt;
    case "bool":
      return toBool;
    case "phone":
      return toPhone;
    case "phoneList":
      return toPhoneList;
    case "stringList":
      return (raw) => ok(splitList(raw));
    case "locale":
      return localeConverter(false);
    case "secondLocale":
      return localeConverter(true);
    case "country":
      return toCountry;
    case "date":
      return toDate;
    case "time":
      return toTime;
    case "files":
      return (raw) => env.files.attach(splitList(raw).map(portablePath));
    case "extraDetails":
      return toExtraDetails;
    case "provider":
      return providerConverter(env.providers);
  }
}
