/**
 * Whether an NPA-NXX block is in service, as libphonenumber-js decides it for `+1` numbers,
 * without its per-call cost. `parsePhoneNumberFromString("+1…").isValid()` takes ~40 µs: it
 * builds a `new RegExp` from every pattern it tries and walks the 25 NANP regions for each
 * number. A sheet spread over every exchange of its area codes asks once per block, tens of
 * thousands of times (bench/mixed.ts): that was a sixth of a narrow plan.
 *
 * This is the library's own decision, on the library's own metadata (the `min` set its
 * default entry uses, cut to the +1 countries by scripts/nanp-metadata.mjs and handed to its
 * `core` entry, as its README describes for custom metadata), with each pattern compiled once:
 * - parse picks the region (helpers/getCountryByNationalNumber.js): the regions of calling
 *   code 1 in their metadata order; a region with leading digits is picked when the number
 *   starts with them, whatever else; a region without is picked when the number has one of
 *   its types (helpers/getNumberType.js: the national pattern, then any non-empty type
 *   pattern whose lengths allow 10 digits);
 * - isValid (isValid.js) asks the picked region, or the calling code's main region when none
 *   was picked: one of its types when it has types, else its national pattern.
 * No national prefix is stripped first: the numbers asked about start with 2-9, and the
 * prefix for parsing of +1 is "1".
 *
 * test/fuzz/nanp-blocks.test.ts walks every block NPA 200-999 x NXX 200-999 against the
 * library's own call on its full metadata, through its default entry (every eighth area code
 * in `npm test`, all in `npm run fuzz`). When the metadata is not of the shape read here (another metadata
 * version), `createBlockVerdict` returns undefined and nanp.ts calls the library instead.
 */
import { NANP_METADATA } from "./nanp-metadata.js";

/** A region of the metadata, version 4: the slots read here (metadata.js of the library). */
interface Region {
  /** Slot 2, the national number pattern. */
  readonly national: RegExp;
  /** Slot 10, the leading digits, matched at the start. */
  readonly leading: RegExp | undefined;
  /** Slot 11, the number types' patterns that allow 10 digits; undefined when the region has no types. */
  readonly types: readonly RegExp[] | undefined;
}

const METADATA_VERSION = 4;
const SLOT_NATIONAL = 2;
const SLOT_LENGTHS = 3;
const SLOT_LEADING = 10;
const SLOT_TYPES = 11;
/** getNumberType asks fixed line and nine other types: the first ten entries of slot 11. */
const TYPES_ASKED = 10;
/** The national numbers asked about: 10 digits. */
const LENGTH = 10;

const entire = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);

function lengthsOf(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** One region's slots, or undefined when they are not of the shape expected. */
function readRegion(value: unknown): Region | undefined {
  if (!Array.isArray(value)) return undefined;
  const slots = value as unknown[];
  const national = slots[SLOT_NATIONAL];
  const leading = slots[SLOT_LEADING];
  const types = slots[SLOT_TYPES];
  const regionLengths = lengthsOf(slots[SLOT_LENGTHS]);
  if (typeof national !== "string" || regionLengths === undefined) return undefined;
  if (leading !== undefined && leading !== 0 && typeof leading !== "string") return undefined;
  if (types !== undefined && types !== 0 && !Array.isArray(types)) return undefined;
  const typePatterns: RegExp[] = [];
  if (Array.isArray(types)) {
    for (const type of (types as unknown[]).slice(0, TYPES_ASKED)) {
      // A type is [pattern, lengths?], or 0 when the region has none of it.
      if (type === 0 || type === undefined) continue;
      if (!Array.isArray(type)) return undefined;
      const [pattern, lengths] = type as unknown[];
      if (typeof pattern !== "string") return undefined;
      const allowed = lengths === undefined || lengths === 0 ? regionLengths : lengthsOf(lengths);
      if (allowed === undefined) return undefined;
      // An empty pattern is a type folded into another (US mobile into fixed line): it matches nothing.
      if (pattern !== "" && allowed.includes(LENGTH)) typePatterns.push(entire(pattern));
    }
  }
  return {
    national: entire(national),
    leading: typeof leading === "string" && leading !== "" ? new RegExp(`^(?:${leading})`) : undefined,
    types: Array.isArray(types) && types.length > 0 ? typePatterns : undefined,
  };
}

function hasType(region: Region, digits: string): boolean {
  return region.types !== undefined && region.national.test(digits) && region.types.some((type) => type.test(digits));
}

function validFor(region: Region, digits: string): boolean {
  return region.types !== undefined ? hasType(region, digits) : region.national.test(digits);
}

/** The library's verdict on `+1` and 10 digits starting 2-9, or undefined when its metadata is not read here. */
export function createBlockVerdict(): ((digits: string) => boolean) | undefined {
  const json = NANP_METADATA as unknown as { version?: unknown; country_calling_codes?: Record<string, unknown>; countries?: Record<string, unknown> };
  if (json.version !== METADATA_VERSION) return undefined;
  const codes = json.country_calling_codes?.["1"];
  if (!Array.isArray(codes) || codes.length === 0) return undefined;
  const regions: Region[] = [];
  for (const code of codes as unknown[]) {
    const region = typeof code === "string" ? readRegion(json.countries?.[code]) : undefined;
    if (region === undefined) return undefined;
    regions.push(region);
  }
  const [main] = regions;
  if (main === undefined) return undefined;
  return (digits) => {
    for (const region of regions) {
      if (region.leading !== undefined) {
        if (region.leading.test(digits)) return validFor(region, digits);
      } else if (hasType(region, digits)) {
        return true;
      }
    }
    return validFor(main, digits);
  };
}
