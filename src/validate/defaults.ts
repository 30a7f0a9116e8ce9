/**
 * `--defaults FILE` (SPEC §2): `{"portForm": {…}, "request": {…}, "item": {…}}`, values used
 * where a row leaves a member empty. Checked and converted once, up front, with the same
 * converters as cells; anything wrong refuses the run (exit 2) naming the file and member.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InputError } from "../errors.js";
import type { MemberScope, Provider, WireValue } from "../service/wire.js";
import { findMember, memberNames } from "../service/wire.js";
import { closestNames } from "../closest.js";
import type { Converted, RawValue } from "./convert.js";
import { converterFor } from "./convert.js";
import type { ReadFile } from "./files.js";
import { createFileAttacher } from "./files.js";
import type { Defaults } from "./types.js";

export const NO_DEFAULTS: Defaults = Object.freeze({
  portForm: Object.freeze({}),
  request: Object.freeze({}),
  item: Object.freeze({}),
});

const SECTIONS: ReadonlyMap<string, { key: keyof Defaults; scope: MemberScope }> = new Map([
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
function extraDetailsOf(value: unknown): WireValue | undefined {
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

/** Loads and converts a defaults file; `readFile` is for attachments it names (tests count reads). */
export async function loadDefaults(path: string, providers: readonly Provider[], readAttachment?: ReadFile): Promise<Defaults> {
  const where = `--defaults file ${JSON.stringify(path)}`;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = code === "ENOENT" ? "no such file" : error instanceof Error ? error.message : String(error);
    throw new InputError(`cannot read ${where} (${why}); check the path`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`${where} is not valid JSON (${why}); fix the file`, { cause: error });
  }
  if (!isObject(json)) {
    throw new InputError(`${where} must hold a JSON object {"portForm": {…}, "request": {…}, "item": {…}}`);
  }

  const env = { providers, files: createFileAttacher(readAttachment), baseDir: dirname(resolve(path)) };
  const out: Record<keyof Defaults, Record<string, WireValue>> = { portForm: {}, request: {}, item: {} };
  for (const [sectionName, members] of Object.entries(json)) {
    const section = SECTIONS.get(sectionName.toLowerCase());
    if (section === undefined) {
      throw new InputError(`${where}: unknown key ${JSON.stringify(sectionName)} (expected portForm, request or item)`);
    }
    if (!isObject(members)) throw new InputError(`${where}: ${section.key} must be a JSON object of member: value`);
    for (const [name, value] of Object.entries(members)) {
      const jsonPath = `${section.key}.${name}`;
      const member = findMember(section.scope, name);
      if (member === undefined) {
        const [near] = closestNames(name, memberNames(section.scope));
        const hint = near === undefined ? "" : ` (did you mean ${section.key}.${near}?)`;
        throw new InputError(`${where}: unknown member ${jsonPath}${hint}`);
      }
      let converted: Converted;
      if (member.type === "extraDetails" && typeof value !== "string") {
        const details = extraDetailsOf(value);
        converted = details === undefined ? { ok: false, reason: "must be {\"Key\": \"Value\", …}" } : { ok: true, value: details };
      } else {
        const raw = rawOf(value);
        if (raw === undefined || raw === "") {
          throw new InputError(`${where}: ${jsonPath} must be a non-empty string, number, boolean or list, not ${JSON.stringify(value)}`);
        }
        converted = await converterFor(member.type, env)(raw);
      }
      if (!converted.ok) throw new InputError(`${where}: ${jsonPath} ${converted.reason}`);
      if (Array.isArray(converted.value) && converted.value.length === 0) continue;
      out[section.key][member.name] = converted.value;
    }
  }
  return out;
}
