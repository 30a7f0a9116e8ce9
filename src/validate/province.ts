/**
 * `CustomerProvince` as carriers check it (docs/contract.md §3 "Values the losing carrier
 * checks"): a Canadian province or territory or a US state, by its two-letter code or its
 * English or French name, any case, with or without accents, sent as the code. Losing
 * carriers match the service address against their records by the postal abbreviation.
 */
import { plain } from "./writings.js";
import * as rows from "../messages/rows.js";

export type Country = "CA" | "US";

interface Region {
  readonly code: string;
  readonly country: Country;
  /** English, French and common other names; compared by `keyOf`. */
  readonly names: readonly string[];
}

const REGIONS: readonly Region[] = [
  { code: "AB", country: "CA", names: ["Alberta"] },
  { code: "BC", country: "CA", names: ["British Columbia", "Colombie-Britannique"] },
  { code: "MB", country: "CA", names: ["Manitoba"] },
  { code: "NB", country: "CA", names: ["New Brunswick", "Nouveau-Brunswick"] },
  { code: "NL", country: "CA", names: ["Newfoundland and Labrador", "Newfoundland & Labrador", "Newfoundland", "Terre-Neuve-et-Labrador", "Terre-Neuve", "NF", "Nfld"] },
  { code: "NS", country: "CA", names: ["Nova Scotia", "Nouvelle-Écosse"] },
  { code: "NT", country: "CA", names: ["Northwest Territories", "Territoires du Nord-Ouest", "NWT"] },
  { code: "NU", country: "CA", names: ["Nunavut"] },
  { code: "ON", country: "CA", names: ["Ontario", "Ont"] },
  { code: "PE", country: "CA", names: ["Prince Edward Island", "Île-du-Prince-Édouard", "PEI"] },
  // PQ is Quebec's code before 1990; older customer databases still hold it.
  { code: "QC", country: "CA", names: ["Quebec", "Québec", "Province de Québec", "PQ", "Que"] },
  { code: "SK", country: "CA", names: ["Saskatchewan", "Sask"] },
  { code: "YT", country: "CA", names: ["Yukon", "Yukon Territory", "YK"] },
  { code: "AL", country: "US", names: ["Alabama"] },
  { code: "AK", country: "US", names: ["Alaska"] },
  { code: "AZ", country: "US", names: ["Arizona"] },
  { code: "AR", country: "US", names: ["Arkansas"] },
  { code: "CA", country: "US", names: ["California", "Californie"] },
  { code: "CO", country: "US", names: ["Colorado"] },
  { code: "CT", country: "US", names: ["Connecticut"] },
  { code: "DE", country: "US", names: ["Delaware"] },
  { code: "DC", country: "US", names: ["District of Columbia", "District de Columbia", "Washington DC", "Washington D.C."] },
  { code: "FL", country: "US", names: ["Florida", "Floride"] },
  { code: "GA", country: "US", names: ["Georgia", "Géorgie"] },
  { code: "HI", country: "US", names: ["Hawaii", "Hawaï"] },
  { code: "ID", country: "US", names: ["Idaho"] },
  { code: "IL", country: "US", names: ["Illinois"] },
  { code: "IN", country: "US", names: ["Indiana"] },
  { code: "IA", country: "US", names: ["Iowa"] },
  { code: "KS", country: "US", names: ["Kansas"] },
  { code: "KY", country: "US", names: ["Kentucky"] },
  { code: "LA", country: "US", names: ["Louisiana", "Louisiane"] },
  { code: "ME", country: "US", names: ["Maine"] },
  { code: "MD", country: "US", names: ["Maryland"] },
  { code: "MA", country: "US", names: ["Massachusetts"] },
  { code: "MI", country: "US", names: ["Michigan"] },
  { code: "MN", country: "US", names: ["Minnesota"] },
  { code: "MS", country: "US", names: ["Mississippi"] },
  { code: "MO", country: "US", names: ["Missouri"] },
  { code: "MT", country: "US", names: ["Montana"] },
  { code: "NE", country: "US", names: ["Nebraska"] },
  { code: "NV", country: "US", names: ["Nevada"] },
  { code: "NH", country: "US", names: ["New Hampshire", "Nouvel-Hampshire", "New-Hampshire"] },
  { code: "NJ", country: "US", names: ["New Jersey", "New-Jersey"] },
  { code: "NM", country: "US", names: ["New Mexico", "Nouveau-Mexique"] },
  { code: "NY", country: "US", names: ["New York", "New York State", "État de New York"] },
  { code: "NC", country: "US", names: ["North Carolina", "Caroline du Nord"] },
  { code: "ND", country: "US", names: ["North Dakota", "Dakota du Nord"] },
  { code: "OH", country: "US", names: ["Ohio"] },
  { code: "OK", country: "US", names: ["Oklahoma"] },
  { code: "OR", country: "US", names: ["Oregon"] },
  { code: "PA", country: "US", names: ["Pennsylvania", "Pennsylvanie"] },
  { code: "RI", country: "US", names: ["Rhode Island"] },
  { code: "SC", country: "US", names: ["South Carolina", "Caroline du Sud"] },
  { code: "SD", country: "US", names: ["South Dakota", "Dakota du Sud"] },
  { code: "TN", country: "US", names: ["Tennessee"] },
  { code: "TX", country: "US", names: ["Texas"] },
  { code: "UT", country: "US", names: ["Utah"] },
  { code: "VT", country: "US", names: ["Vermont"] },
  { code: "VA", country: "US", names: ["Virginia", "Virginie"] },
  { code: "WA", country: "US", names: ["Washington", "Washington State", "État de Washington"] },
  { code: "WV", country: "US", names: ["West Virginia", "Virginie-Occidentale"] },
  { code: "WI", country: "US", names: ["Wisconsin"] },
  { code: "WY", country: "US", names: ["Wyoming"] },
  // The US territories the North American Numbering Plan serves (+1 numbers portin ports).
  { code: "PR", country: "US", names: ["Puerto Rico", "Porto Rico"] },
  { code: "VI", country: "US", names: ["US Virgin Islands", "U.S. Virgin Islands", "Virgin Islands", "Îles Vierges des États-Unis"] },
  { code: "GU", country: "US", names: ["Guam"] },
  { code: "AS", country: "US", names: ["American Samoa", "Samoa américaines"] },
  { code: "MP", country: "US", names: ["Northern Mariana Islands", "Îles Mariannes du Nord"] },
];

/** Case, accents, spaces, dots, hyphens and apostrophes dropped: "Île-du-Prince-Édouard" = "ileduprinceedouard". */
const keyOf = (text: string): string => plain(text).replace(/[^a-z0-9&]/g, "");

/** Every spelling, codes included; a code is read before a name (CA is California's code, never Canada). */
const BY_KEY: ReadonlyMap<string, Region> = new Map([
  ...REGIONS.flatMap((region) => region.names.map((name): [string, Region] => [keyOf(name), region])),
  ...REGIONS.map((region): [string, Region] => [keyOf(region.code), region]),
]);

const COUNTRY_NAMES: Readonly<Record<Country, string>> = { CA: "Canada", US: "the United States" };
const ACCEPTED: Readonly<Record<Country, string>> = rows.PROVINCE_FORMS;


export type ProvinceReading = { readonly ok: true; readonly code: string; readonly country: Country } | { readonly ok: false; readonly reason: string };

/**
 * The province's code, or why not. `country` is the row's CustomerCountry when it has one:
 * a province must belong to it (a Québec address with country US is refused, not guessed at).
 */
export function readProvince(text: string, country: Country | undefined): ProvinceReading {
  const quoted = JSON.stringify(text);
  const region = BY_KEY.get(keyOf(text));
  if (region === undefined) {
    const accepted = country === undefined ? `${ACCEPTED.CA}; or ${ACCEPTED.US}` : ACCEPTED[country];
    return { ok: false, reason: rows.notAProvince(quoted, accepted) };
  }
  if (country !== undefined && region.country !== country) {
    const named = keyOf(text) === keyOf(region.code) ? quoted : `${quoted} (${region.code})`;
    return { ok: false, reason: rows.provinceOfOtherCountry(named, region.country === "CA", country, ACCEPTED[country]) };

  }
  return { ok: true, code: region.code, country: region.country };
}

/** The country a province or state is in, as a sentence names it. */
export const countryName = (country: Country): string => COUNTRY_NAMES[country];
