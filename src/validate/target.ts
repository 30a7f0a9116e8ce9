/**
 * Where a row's number goes (docs/contract.md §3 "Invalid rows" 3–6, §1.2): its pilot
 * number or its offering, and the operation that target and the number's kind select. The one
 * owner of these rules: the validator's fast path judges a row by them and its every-problem
 * path words the row's message by them, so a verdict and its message cannot disagree.
 */
import type { NumberKind, Operation } from "../catalog/operations.js";
import { isOfferingType } from "../catalog/operations.js";
import type { Offering } from "../catalog/account.js";
import { closestNames } from "../closest.js";
import type { Lookups } from "./types.js";
import { parseNanp } from "./nanp.js";
import { routeTable } from "./rules.js";
import * as rows from "../messages/rows.js";

/** A row's target: the pilot's 10 digits or the OfferingID, and the offering's Type (null for a trunk) that routing needs. */
export type RowTarget = { readonly ok: true; readonly target: string; readonly offeringType: number | null } | { readonly ok: false; readonly reason: string };

export type RowRoute = { readonly ok: true; readonly operation: Operation } | { readonly ok: false; readonly reason: string };

export interface TargetResolver {
  /** The target the row's `pilot_number` and `offering_id` cells name (exactly one must be filled), or why there is none. */
  targetOf(pilotText: string, offeringText: string): RowTarget;
  /** The operation that ports a number of this kind onto the target, or why none does (a trunk's own pilot number has none). */
  routeOf(offeringType: number | null, digits: string, kind: NumberKind): RowRoute;
}

/** A message lists the account's trunks when there are this few; beyond, it points at `portin trunks`. */
const TRUNKS_LISTED_AT_MOST = 5;

const quote = (text: string): string => JSON.stringify(text);

const NO_TARGET: RowTarget = { ok: false, reason: rows.NO_TARGET };

export function createTargetResolver(lookups: Lookups): TargetResolver {
  const trunkNumbers = new Set(lookups.trunks.map((t) => t.pilotNumber));
  const trunkList =
    lookups.trunks.length === 0
      ? rows.NO_TRUNKS
      : lookups.trunks.length <= TRUNKS_LISTED_AT_MOST
        ? rows.trunksAre(lookups.trunks.map((t) => t.pilotNumber).join(", "))
        : rows.trunkCount(lookups.trunks.length);
  const offeringsById = new Map(lookups.offerings.map((o) => [o.offeringId, o]));
  const offeringsByLowerId = new Map<string, Offering[]>();
  for (const offering of lookups.offerings) {
    const key = offering.offeringId.toLowerCase();
    offeringsByLowerId.set(key, [...(offeringsByLowerId.get(key) ?? []), offering]);
  }
  const route = routeTable();

  function pilotTarget(text: string): RowTarget {
    const parsed = parseNanp(text);
    if (!parsed.ok) return { ok: false, reason: `pilot_number ${parsed.reason}` };
    if (!trunkNumbers.has(parsed.digits)) {
      return { ok: false, reason: rows.notATrunk(parsed.digits, trunkList) };
    }
    return { ok: true, target: parsed.digits, offeringType: null };
  }

  function offeringTarget(text: string): RowTarget {
    const offering = offeringsById.get(text) ?? singleOf(offeringsByLowerId.get(text.toLowerCase()));
    if (offering === undefined) {
      const [near] = closestNames(text, lookups.offerings.map((o) => o.offeringId));
      const hint = near === undefined ? "" : rows.closestOffering(near);
      return { ok: false, reason: rows.notAnOffering(quote(text), hint) };
    }
    if (!isOfferingType(offering.type)) {
      return { ok: false, reason: rows.offeringTypeOutOfRange(quote(offering.offeringId), offering.type) };
    }
    return { ok: true, target: offering.offeringId, offeringType: offering.type };
  }

  // Each distinct pilot and offering cell is resolved once: a sheet names a few targets on
  // many rows, and "did you mean" costs an edit distance per offering.
  const pilots = new Map<string, RowTarget>();
  const offerings = new Map<string, RowTarget>();
  const cached = (cache: Map<string, RowTarget>, text: string, resolve: (text: string) => RowTarget): RowTarget => {
    let found = cache.get(text);
    if (found === undefined) cache.set(text, (found = resolve(text)));
    return found;
  };

  return {
    targetOf(pilotText, offeringText) {
      if (pilotText === "" && offeringText === "") return NO_TARGET;
      if (pilotText !== "" && offeringText !== "") {
        return { ok: false, reason: rows.twoTargets(quote(pilotText), quote(offeringText)) };

      }
      return pilotText !== "" ? cached(pilots, pilotText, pilotTarget) : cached(offerings, offeringText, offeringTarget);
    },
    routeOf(offeringType, digits, kind) {
      // docs/contract.md §3 "Invalid rows" 6: a trunk's pilot number is on the service already; a range
      // written from it ("416-555-0100 to 0199" on trunk 4165550100) would port it onto itself.
      if (trunkNumbers.has(digits)) return { ok: false, reason: rows.pilotAsNumber(digits) };
      const routed = route(offeringType, kind);
      return routed.ok ? routed : { ok: false, reason: `${digits}: ${routed.reason}` };
    },
  };
}

/** The one offering a case-insensitive match found; none when it found none or several. */
function singleOf(offerings: readonly Offering[] | undefined): Offering | undefined {
  return offerings?.length === 1 ? offerings[0] : undefined;
}
