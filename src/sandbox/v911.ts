/**
 * The sandbox's 9-1-1 database (docs/contract.md §1.5): a V911 record per number, which
 * addresses it knows, and which numbers a completed port put on their trunk. Its faults
 * (docs/sandbox.md "9-1-1 and trunks"): cities it does not know, each answered with the
 * one it would accept; a share of registrations answered 500 after they were made; numbers
 * a completed port leaves off their trunk.
 */
import type { V911Record } from "./body-schemas.js";
import type { Random } from "./prng.js";

export interface V911Faults {
  /** City (any case) -> the city the database suggests instead; such an address is refused. */
  readonly refusedCities: ReadonlyMap<string, string>;
  /** Share of registrations (POST, PUT) answered 500 after the record was made, 0..1. */
  readonly failAfterRate: number;
  /** Numbers a completed port leaves off their trunk. */
  readonly offTrunk: ReadonlySet<string>;
}

export const NO_V911_FAULTS: V911Faults = { refusedCities: new Map(), failAfterRate: 0, offTrunk: new Set() };

/** One reason the database refuses an address, as the service's V911 answer gives it. */
export interface V911Error {
  readonly ErrorCode: number;
  readonly ErrorMessage: string;
  readonly SuggestedCity: string;
  readonly SuggestedProvince: string;
}

/** The V911 answer of docs/contract.md §1.5. */
export function v911AnswerJson(number: number, errors: readonly V911Error[], message: string, accepted = errors.length === 0): Record<string, unknown> {
  return { Number: number, Reply: accepted ? 1 : 0, Message: message, ResponseData: { Accepted: accepted, Errors: errors } };
}

/** The error codes the sandbox answers with; the service's own list is not published. */
export const V911_ERROR = { unknownCity: 12, provinceOfPostalCode: 14 } as const;

/**
 * The province a Canadian postal code's first letter belongs to (Canada Post's forward
 * sortation areas): the database refuses an address whose province disagrees with it.
 * X serves both the Northwest Territories and Nunavut.
 */
const PROVINCE_OF_POSTAL_LETTER: Readonly<Record<string, readonly string[]>> = {
  A: ["NL"],
  B: ["NS"],
  C: ["PE"],
  E: ["NB"],
  G: ["QC"],
  H: ["QC"],
  J: ["QC"],
  K: ["ON"],
  L: ["ON"],
  M: ["ON"],
  N: ["ON"],
  P: ["ON"],
  R: ["MB"],
  S: ["SK"],
  T: ["AB"],
  V: ["BC"],
  X: ["NT", "NU"],
  Y: ["YT"],
};

export class V911Database {
  private readonly records = new Map<string, V911Record>();
  private faults: V911Faults;

  constructor(
    faults: V911Faults,
    private readonly random: Random,
  ) {
    this.faults = faults;
  }

  setFaults(faults: Partial<V911Faults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  /** Why the database refuses this address; empty when it knows it. */
  verify(record: V911Record): V911Error[] {
    const errors: V911Error[] = [];
    const province = record.ProvinceState.trim().toUpperCase();
    const suggestedCity = this.faults.refusedCities.get(record.City.trim().toLowerCase());
    if (suggestedCity !== undefined) {
      errors.push({
        ErrorCode: V911_ERROR.unknownCity,
        ErrorMessage: `the city ${record.City} is not in the 9-1-1 database for ${province}`,
        SuggestedCity: suggestedCity,
        SuggestedProvince: province,
      });
    }
    const letter = record.PostalZip.trim().charAt(0).toUpperCase();
    const provinces = PROVINCE_OF_POSTAL_LETTER[letter];
    const first = provinces?.[0];
    if (first !== undefined && provinces !== undefined && !provinces.includes(province)) {
      errors.push({
        ErrorCode: V911_ERROR.provinceOfPostalCode,
        ErrorMessage: `the postal code ${record.PostalZip} is not in ${province}`,
        SuggestedCity: record.City,
        SuggestedProvince: first,
      });
    }
    return errors;
  }

  get(number: string): V911Record | undefined {
    return this.records.get(number);
  }

  has(number: string): boolean {
    return this.records.has(number);
  }

  /** Keeps the record; true when the answer is then to be a 500 (V911Faults.failAfterRate). */
  keep(record: V911Record): boolean {
    this.records.set(String(record.Number), record);
    // One draw per registration whatever the rate, so that a registration's fault depends only on its place.
    return this.random() < this.faults.failAfterRate;
  }

  /** Whether a completed port left this number off its trunk (a fault). */
  leftOffTrunk(number: string): boolean {
    return this.faults.offTrunk.has(number);
  }

  get size(): number {
    return this.records.size;
  }

  /** Every record, to be kept between runs (saved-orders.ts). */
  snapshot(): V911Record[] {
    return [...this.records.values()];
  }

  restore(records: readonly V911Record[]): void {
    for (const record of records) this.records.set(String(record.Number), record);
  }
}
