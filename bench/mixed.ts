/**
 * Sheets of the shapes customers send, beyond the project's own: the narrow mixed sheet of
 * `number, pilot_number, offering_id, portform.CustomerReferenceNumber, note` (half on one of
 * three trunks, half on a Type 1 offering, about 5% toll-free, bare 10-digit numbers over 28
 * NPAs, 40 distinct references so PortForms split requests, a note never sent), and a family
 * of random shapes around it drawn from a printed seed (BENCH_SEED), so that a target holds
 * for the family, not for one sheet.
 */
import { mulberry32 } from "../src/sandbox/prng.js";
import { NARROW_DEFAULTS } from "./sheet.js";

/** Real NPAs of Canada's ten provinces: 28 of them. */
const NPAS = ["416", "647", "437", "905", "289", "365", "514", "438", "450", "579", "613", "343", "604", "778", "236", "403", "587", "780", "825", "204", "431", "306", "639", "506", "902", "782", "709", "519"];
const TOLL_FREE = ["800", "833", "844", "855", "866", "877", "888"];
const TRUNKS = ["4165550100", "5145550100", "6045550100"];
/** The sandbox's Type 1 offering (fixtures/sandbox-account.json): it takes regular numbers only. */
const TYPE_1 = "OFF-GEN-001";

export type Writing = "bare" | "dashed" | "parenthesised" | "plus-one" | "dotted";
const WRITINGS: readonly Writing[] = ["bare", "dashed", "parenthesised", "plus-one", "dotted"];

export interface Shape {
  /** Free-text columns never sent, beyond the four the sheet needs (the issue's sheet: 1). */
  readonly notes: number;
  /** Share of rows on the Type 1 offering; the rest on trunks. */
  readonly offeringShare: number;
  /** Share of toll-free numbers (always on a trunk: Type 1 takes none). */
  readonly tollFreeShare: number;
  /** How the numbers are written, in turn. */
  readonly writings: readonly Writing[];
  /** Distinct portform.CustomerReferenceNumber values: distinct PortForms. */
  readonly references: number;
}

export const ISSUE_SHAPE: Shape = { notes: 1, offeringShare: 0.5, tollFreeShare: 0.05, writings: ["bare"], references: 40 };

/** The sandbox's seeded generator: enough to draw shapes and rows reproducibly. */
export const random = mulberry32;

/** A shape drawn around the issue's: 1-4 notes, 20-80% offerings, 0-15% toll-free, 1-5 writings, 5-400 PortForms. */
export function drawShape(next: () => number): Shape {
  const count = 1 + Math.floor(next() * WRITINGS.length);
  const writings = [...WRITINGS].sort(() => next() - 0.5).slice(0, count);
  return {
    notes: 1 + Math.floor(next() * 4),
    offeringShare: Math.round((0.2 + next() * 0.6) * 100) / 100,
    tollFreeShare: Math.round(next() * 0.15 * 100) / 100,
    writings,
    references: 5 + Math.floor(next() * 396),
  };
}

export function describeShape(shape: Shape): string {
  return `${4 + shape.notes} columns, ${Math.round(shape.offeringShare * 100)}% offering, ${Math.round(shape.tollFreeShare * 100)}% toll-free, writings ${shape.writings.join("/")}, ${shape.references} PortForms`;
}

/** A file name that says which shape it holds, for bench/.cache. */
export function shapeName(shape: Shape): string {
  return `mixed-n${shape.notes}-o${Math.round(shape.offeringShare * 100)}-t${Math.round(shape.tollFreeShare * 100)}-${shape.writings.join("+")}-r${shape.references}`;
}

export function mixedHeader(shape: Shape): string[] {
  return ["number", "pilot_number", "offering_id", "portform.CustomerReferenceNumber", ...Array.from({ length: shape.notes }, (_, i) => (i === 0 ? "note" : `note${i + 1}`))];
}

function write(digits: string, writing: Writing): string {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  switch (writing) {
    case "bare":
      return digits;
    case "dashed":
      return `${a}-${b}-${c}`;
    case "parenthesised":
      return `(${a}) ${b}-${c}`;
    case "plus-one":
      return `+1 ${a} ${b} ${c}`;
    case "dotted":
      return `${a}.${b}.${c}`;
  }
}

/**
 * Row `i`: numbers are distinct (row i's serial picks its NPA, exchange and line), the row's kind
 * is drawn from a generator seeded by `i`, so any row is the same whatever the sheet's length.
 */
export function mixedRowCells(shape: Shape, i: number): string[] {
  const next = random(i * 2654435761);
  const tollFree = next() < shape.tollFreeShare;
  const onOffering = !tollFree && next() < shape.offeringShare;
  const npas = tollFree ? TOLL_FREE : NPAS;
  const npa = npas[i % npas.length] ?? "416";
  const serial = Math.floor(i / npas.length);
  // Spread over every exchange of the NPA, as a customer's numbers are: many NPA-NXX blocks.
  const digits = `${npa}${200 + (serial % 800)}${String(Math.floor(serial / 800)).padStart(4, "0")}`;
  const number = write(digits, shape.writings[i % shape.writings.length] ?? "bare");
  const reference = `PO-${String(Math.floor(next() * shape.references)).padStart(4, "0")}`;
  const notes = Array.from({ length: shape.notes }, (_, n) => (n === 0 && i % 5 === 0 ? `moved from Bell, desk ${i % 97}` : `desk ${(i + n) % 89}`));
  return [number, onOffering ? "" : (TRUNKS[i % TRUNKS.length] ?? ""), onOffering ? TYPE_1 : "", reference, ...notes];
}

/** What the mixed sheet's rows do not carry: the PortForm's other members. */
export const MIXED_DEFAULTS = { portForm: NARROW_DEFAULTS.portForm };
