/**
 * `--defaults FILE` (docs/contract.md §2): `{"portForm": {…}, "request": {…}, "item": {…}}`, values used
 * where a row leaves a member empty. Checked and converted once, up front, with the same
 * converters as cells; anything wrong refuses the run (exit 2) naming the file and member.
 */
import * as e911Words from "../messages/e911.js";
import { open } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InputError } from "../errors.js";
import type { ColumnMap } from "../input/columns.js";
import { NO_COLUMN_MAP, portinOwner } from "../input/columns.js";
import { checkColumnMap } from "../input/column-map.js";
import type { MemberInfo, MemberScope, MemberValue } from "../catalog/members.js";
import { findMember, memberNames } from "../catalog/members.js";
import type { Provider } from "../catalog/account.js";
import { closestNames } from "../closest.js";
import type { ConvertEnv, Converted, RawValue } from "./convert.js";
import { converterFor } from "./convert.js";
import type { ReadFile } from "./files.js";
import { createFileAttacher } from "./files.js";
import type { Defaults } from "./types.js";
import { describeSystemError } from "../system-error.js";
import { checkCarrierValues } from "./carrier-ready.js";
import type { PortCalendar } from "./port-date.js";
import { easternToday, NO_HOLIDAYS } from "./port-date.js";
import * as sheetWords from "../messages/sheet.js";
import { E911_MEMBERS, findE911Member } from "../catalog/e911.js";
import type { E911Address, E911Member } from "../catalog/e911.js";

export const NO_DEFAULTS: Defaults = Object.freeze({
  portForm: Object.freeze({}),
  request: Object.freeze({}),
  item: Object.freeze({}),
});

const SECTIONS: ReadonlyMap<string, { key: "portForm" | "request" | "item"; scope: MemberScope }> = new Map([
  ["portform", { key: "portForm", scope: "portform" }],
  ["request", { key: "request", scope: "request" }],
  ["item", { key: "item", scope: "item" }],
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON values to what a converter takes: scalars as text, arrays as list parts. */
function rawOf(value: unknown): RawValue | undefined {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.map(String);
  return undefined;
}

/** `ExtraDetails` may be written `{"Key": "Value"}`, `[{"Key": …, "Value": …}]` or `"Key=Value;…"`. */
function extraDetailsOf(value: unknown): MemberValue | undefined {
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (!entries.every(([, v]) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")) return undefined;
    return entries.map(([Key, v]) => ({ Key, Value: String(v) }));
  }
  if (Array.isArray(value)) {
    const details = value.map((entry) => {
      if (!isObject(entry)) return undefined;
      const key = entry["Key"] ?? entry["key"];
      const val = entry["Value"] ?? entry["value"];
      return typeof key === "string" && key !== "" && (typeof val === "string" || typeof val === "number")
        ? { Key: key, Value: String(val) }
        : undefined;
    });
    return details.every((d) => d !== undefined) ? details : undefined;
  }
  return undefined;
}

/** Where a JSON.parse failure is, as an offset into `text`: node 20's messages do not always say. */
function syntaxErrorAt(text: string): number {
  // A prefix is viable when more text could still make it valid JSON; the first character
  // that makes it not viable is the error. Defaults files are small: a few parses each.
  const viable = (length: number): boolean => {
    const prefix = text.slice(0, length);
    try {
      JSON.parse(prefix);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message.startsWith("Unexpected end of JSON input")) return true;
      const at = / at position (\d+)/.exec(message);
      return at !== null && Number(at[1]) >= length;
    }
  };
  if (viable(text.length)) return text.length;
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (viable(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * How deep a defaults file may nest: the file, a section, a member, a list or ExtraDetails
 * object, an entry: five levels, so 16 leaves room. Deeper JSON is no defaults file, and code that walks a value
 * (converting, quoting it in a message) must never meet one 100,000 levels deep
 * (docs/contract.md §7: no input ends in an internal error).
 */
const MAX_DEFAULTS_DEPTH = 16;

/** Where `text` first opens a bracket past `max` levels, or -1; strings are skipped, escapes honoured. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (inString) {
      if (c === 0x5c) at++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return at;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** "line 3, column 5" of an offset into `text`. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return sheetWords.lineAndColumn(line, offset - lineStart + 1);
}

/** V8's reason without its offset or its quote of the text, which the message replaces with a line and column. */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, "")
    .replace(/ of JSON input$/, " of the file")
    // The token V8 names may be a line break: the message stays on one line.
    .replace(/[\r\n\t]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** Converts one member's JSON value; a problem is returned as text, for the one-line report. */
async function convertMember(member: MemberInfo, value: unknown, env: ConvertEnv): Promise<Converted | string> {
  if (member.type === "extraDetails" && typeof value !== "string") {
    const details = extraDetailsOf(value);
    return details === undefined ? sheetWords.EXTRA_DETAILS_FORM : { ok: true, value: details };
  }
  const raw = rawOf(value);
  if (raw === undefined || raw === "") return sheetWords.notAMemberValue(JSON.stringify(value));
  const converted = await converterFor(member.type, env)(raw);
  return converted.ok ? converted : converted.reason;
}

/**
 * Largest defaults file. One customer's PortForm, request and item members are a few KB;
 * attachments are named by path, not inlined. The file may lie beside a sheet that came by
 * e-mail (docs/contract.md §2), so its size is bounded like the sheet's.
 */
export const MAX_DEFAULTS_BYTES = 1024 * 1024;

/** The file's bytes, or null past `limit`; read in sequence, so a pipe (`<(…)`) works too. */
async function readAtMost(path: string, limit: number): Promise<Buffer | null> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled > limit ? null : buffer.subarray(0, filled);
  } finally {
    await file.close();
  }
}

/** The file's JSON object; `where` names it in messages. */
async function readDefaultsJson(path: string, where: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const bytes = await readAtMost(path, MAX_DEFAULTS_BYTES);
    if (bytes === null) throw new InputError(sheetWords.defaultsTooLarge(where, MAX_DEFAULTS_BYTES / 1024));
    text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(sheetWords.defaultsUnreadable(where, describeSystemError(error)), { cause: error });
  }
  const deep = tooDeepAt(text, MAX_DEFAULTS_DEPTH);
  if (deep >= 0) {
    throw new InputError(sheetWords.defaultsTooDeep(where, lineAndColumn(text, deep), MAX_DEFAULTS_DEPTH));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const at = lineAndColumn(text, syntaxErrorAt(text));
    throw new InputError(sheetWords.defaultsNotJson(where, at, syntaxReason(error)), { cause: error });
  }
  if (!isObject(json)) {
    throw new InputError(sheetWords.defaultsNotAnObject(where));
  }
  return json;
}

const whereOf = (path: string): string => sheetWords.defaultsFile(path);

/** The key of the column mapping (docs/contract.md §3), read before the sheet is opened: columnMapOf. */
const COLUMNS_KEY = "columns";

/** A defaults file as read, once: its "columns" mapping is needed before the sheet is opened, its members once the lookups are in. */
export interface DefaultsFile {
  readonly path: string;
  readonly json: Readonly<Record<string, unknown>>;
}

/** Reads and parses the file, once: a pipe (`<(…)`) cannot be read twice. */
export async function readDefaultsFile(path: string): Promise<DefaultsFile> {
  return { path, json: await readDefaultsJson(path, whereOf(path)) };
}

/**
 * The defaults file's "columns" mapping, checked: read before the sheet is opened, since the
 * header is matched with it, and so before anything connects.
 */
export function columnMapOf(file: DefaultsFile): ColumnMap {
  const entry = Object.entries(file.json).find(([key]) => key.toLowerCase() === COLUMNS_KEY);
  return entry === undefined ? NO_COLUMN_MAP : checkColumnMap(whereOf(file.path), entry[1]);
}

/**
 * Converts a defaults file's members; `calendar` judges a RequestedPortDate as rows' are
 * (default: today in Eastern time, no holidays known); `readAttachment` is for attachments it
 * names (tests count reads).
 */
export async function loadDefaults(
  file: DefaultsFile,
  providers: readonly Provider[],
  calendar: PortCalendar = { today: easternToday(), holidays: () => NO_HOLIDAYS },
  readAttachment?: ReadFile,
): Promise<Defaults> {
  const { path, json } = file;
  const where = whereOf(path);

  // Attachments a defaults file names are confined to its own folder, as a sheet's are to the sheet's.
  const folder = { dir: dirname(resolve(path)), name: sheetWords.DEFAULTS_FOLDER };
  const env: ConvertEnv = { providers, files: createFileAttacher(folder, readAttachment) };
  const out: Record<"portForm" | "request" | "item", Record<string, MemberValue>> = { portForm: {}, request: {}, item: {} };
  let e911: E911Address | null = null;
  // Every problem is reported at once, as "path: message", so one edit fixes the file.
  const problems: string[] = [];
  for (const [sectionName, members] of Object.entries(json)) {
    // Checked by columnMapOf when the sheet was opened.
    if (sectionName.toLowerCase() === COLUMNS_KEY) continue;
    if (sectionName.toLowerCase() === E911_KEY) {
      e911 = e911Defaults(members, problems);
      continue;
    }
    const section = SECTIONS.get(sectionName.toLowerCase());
    if (section === undefined) {
      problems.push(sheetWords.unknownSection(sectionName));
      continue;
    }
    if (!isObject(members)) {
      problems.push(sheetWords.sectionNotAnObject(section.key));
      continue;
    }
    for (const [name, value] of Object.entries(members)) {
      const jsonPath = `${section.key}.${name}`;
      const owner = portinOwner(section.scope, name);
      if (owner !== undefined) {
        problems.push(sheetWords.defaultsMemberFilledByPortin(jsonPath, owner));
        continue;
      }
      const member = findMember(section.scope, name);
      if (member === undefined) {
        const [near] = closestNames(name, memberNames(section.scope));
        problems.push(sheetWords.unknownMember(jsonPath, near === undefined ? "" : sheetWords.didYouMeanDefaults(section.key, near)));
        continue;
      }
      const converted = await convertMember(member, value, env);
      if (typeof converted === "string") problems.push(`${jsonPath}: ${converted}`);
      else if (converted.ok && !(Array.isArray(converted.value) && converted.value.length === 0)) out[section.key][member.name] = converted.value;
    }
  }
  // The values a carrier checks, as a row's are (docs/contract.md §3): refused here once rather than on every row.
  const verdict = await checkCarrierValues(out.portForm, calendar, (member) => `portForm.${member}`);
  problems.push(...verdict.problems);
  if (problems.length > 0) throw new InputError(sheetWords.defaultsProblems(where, problems.join("; ")));
  return { ...out, portForm: verdict.portForm, ...(e911 === null ? {} : { e911 }) };
}

/** The key of the 9-1-1 address every row without its own takes (docs/contract.md §2, "9-1-1 addresses"). */
const E911_KEY = "e911";

/**
 * The "e911" object's members as text; judged with each row's own (validate/e911.ts), since a
 * row may give the street and leave the city to the defaults.
 */
function e911Defaults(members: unknown, problems: string[]): E911Address | null {
  if (!isObject(members)) {
    problems.push(e911Words.defaultsNotObject(E911_MEMBERS));
    return null;
  }
  const out: Partial<Record<E911Member, string>> = {};
  for (const [name, value] of Object.entries(members)) {
    const member = findE911Member(name);
    if (member === undefined) {
      const [near] = closestNames(name, [...E911_MEMBERS]);
      problems.push(`e911.${name}: unknown member${near === undefined ? "" : ` (did you mean e911.${near}?)`}`);
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number") {
      problems.push(e911Words.defaultsNotText(name, JSON.stringify(value)));
      continue;
    }
    const text = String(value).trim();
    if (text !== "") out[member] = text;
  }
  return out;
}
