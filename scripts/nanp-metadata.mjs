// @ts-check
/**
 * Writes src/validate/nanp-metadata.ts: the metadata of libphonenumber-js's own
 * metadata.min.json (the set its default entry uses) for calling code +1 alone, which
 * portin hands to the library's `core` entry as its README describes for custom metadata
 * (validate/nanp.ts). portin asks about +1 numbers only; those countries' entries are 4 KB of
 * the 83 KB every start otherwise parsed. Run by `npm run build` before tsc, from the
 * installed library, so an upgrade of libphonenumber-js brings its metadata with it;
 * test/e2e/nanp-bundle.test.ts and test/fuzz/nanp-blocks.test.ts check the verdicts match
 * the full metadata's. Plain JavaScript: it runs before tsc has compiled anything.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "validate", "nanp-metadata.ts");

// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the library's own JSON, its +1 entries checked below
const full = /** @type {{ version: number, country_calling_codes: Record<string, string[]>, countries: Record<string, unknown> }} */ (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("libphonenumber-js/metadata.min.json"), "utf8"))
);
const nanp = full.country_calling_codes["1"] ?? [];
if (nanp.length === 0 || !nanp.every((country) => country in full.countries)) {
  throw new Error("libphonenumber-js/metadata.min.json has no +1 countries: see scripts/nanp-metadata.mjs");
}
const kept = {
  version: full.version,
  country_calling_codes: { 1: nanp },
  countries: Object.fromEntries(nanp.map((country) => [country, full.countries[country]])),
  nonGeographic: {},
};
const text = [
  "// Written by scripts/nanp-metadata.mjs from libphonenumber-js/metadata.min.json at build: not to be edited.",
  'import type { MetadataJson } from "libphonenumber-js/core";',
  "",
  "/** The +1 countries of libphonenumber-js's metadata, for its `core` entry (validate/nanp-blocks.ts). */",
  `export const NANP_METADATA = ${JSON.stringify(kept)} as unknown as MetadataJson;`,
  "",
].join("\n");
let before = "";
try {
  before = readFileSync(OUT, "utf8");
} catch {
  // not written yet
}
// Left untouched when unchanged: tsc and vitest need not see a new file.
if (before !== text) writeFileSync(OUT, text);
