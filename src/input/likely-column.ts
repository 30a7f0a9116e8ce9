/**
 * Which portin column a customer's header most likely means ("Pilot #" -> pilot_number,
 * "Customer Name" -> portform.CustomerName), for the start-of-run notice of columns that are
 * copied but never sent (docs/contract.md §3). Headers are compared as words, because a
 * customer's header differs from portin's by words added, dropped or abbreviated far more
 * often than by typos; an edit distance catches the typos.
 */
import { memberNames } from "../catalog/members.js";
import { closestNames, distance } from "../closest.js";
import { NUMBER_ALIASES, portinOwner } from "./columns.js";
import type { Column, ColumnRole, SheetLayout } from "./types.js";

/** Headers this close (word overlap, 0..1) to a name are worth suggesting it: one word of two is not. */
const LIKELY_AT_LEAST = 0.7;
/** A word portin's PortForm names carry that a customer's header usually leaves out ("City" = CustomerCity). */
const IMPLIED_WORD = "customer";
/** A typo: this many edits or fewer between the compacted names. */
const TYPO_EDITS_AT_MOST = 2;

/** Words people write for "number" in a header. */
const NUMBER_WORDS: ReadonlyMap<string, string> = new Map([
  ["#", "number"],
  ["no", "number"],
  ["num", "number"],
  ["nbr", "number"],
  ["numero", "number"],
  ["tel", "telephone"],
  ["phone", "telephone"],
  ["email", "email"],
  ["mail", "email"],
  ["e", ""],
]);

/**
 * Headers people write that share no word with portin's name for the column, keyed by their
 * words joined (wordsOf): the losing carrier is the PortForm's CurrentProvider, a DID or TN is
 * the number to port.
 */
const COMMON_HEADERS: ReadonlyMap<string, string> = new Map([
  ["carrier", "portform.CurrentProvider"],
  ["currentcarrier", "portform.CurrentProvider"],
  ["losingcarrier", "portform.CurrentProvider"],
  ["oldcarrier", "portform.CurrentProvider"],
  ["provider", "portform.CurrentProvider"],
  ["losingprovider", "portform.CurrentProvider"],
  ["fournisseur", "portform.CurrentProvider"],
  ["fournisseuractuel", "portform.CurrentProvider"],
  ["did", "number"],
  ["dids", "number"],
  ["tn", "number"],
  ["telephone", "number"],
  ["telephonenumber", "number"],
  ["numbertoport", "number"],
  ["number", "number"],
]);

interface Candidate {
  /** What to suggest: every alias of the number column suggests "number". */
  readonly name: string;
  readonly words: readonly string[];
  /** The words without IMPLIED_WORD. */
  readonly core: readonly string[];
  readonly compact: string;
}

/** Lower-case words without accents: "CustomerName" -> customer, name; "Pilot #" -> pilot, number. */
function wordsOf(text: string): string[] {
  const spaced = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/#/g, " # ")
    .toLowerCase();
  const words: string[] = [];
  for (const word of spaced.split(/[^a-z0-9#]+/)) {
    const mapped = NUMBER_WORDS.get(word) ?? word;
    if (mapped !== "") words.push(mapped);
  }
  return words;
}

let candidates: readonly Candidate[] | null = null;
function allCandidates(): readonly Candidate[] {
  if (candidates !== null) return candidates;
  const names: { name: string; member: string }[] = [
    ...NUMBER_ALIASES.map((alias) => ({ name: "number", member: alias })),
    { name: "pilot_number", member: "pilot_number" },
    { name: "offering_id", member: "offering_id" },
    { name: "group", member: "group" },
  ];
  for (const scope of ["portform", "request", "item"] as const) {
    for (const member of memberNames(scope)) {
      if (portinOwner(scope, member) !== undefined || member === "ExtraDetails") continue;
      names.push({ name: `${scope}.${member}`, member });
    }
  }
  candidates = names.map(({ name, member }) => {
    const words = wordsOf(member);
    return { name, words, core: words.filter((word) => word !== IMPLIED_WORD), compact: words.join("") };
  });
  return candidates;
}

/** The share of words the two names have in common (Dice coefficient). */
function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const rest = [...b];
  let shared = 0;
  for (const word of a) {
    const at = rest.indexOf(word);
    if (at >= 0) {
      shared++;
      rest.splice(at, 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** The one portin column `header` most likely means, or undefined when none stands out. */
export function likelyColumn(header: string): string | undefined {
  const words = wordsOf(header);
  const compact = words.join("");
  if (compact === "") return undefined;
  const common = COMMON_HEADERS.get(compact);
  if (common !== undefined) return common;
  const best = closestCandidate(words, compact);
  return best === undefined ? undefined : portFormFirst(best, words);
}

/**
 * A PortForm member before an item or request member the header names as well (docs/contract.md
 * §3): "Email" is the PortForm's EmailAddress, which a port needs, rather than item.Email, so
 * the suggestion works when pasted.
 */
function portFormFirst(best: string, words: readonly string[]): string {
  if (!best.startsWith("item.") && !best.startsWith("request.")) return best;
  const portForm = allCandidates().find((candidate) => candidate.name.startsWith("portform.") && words.every((word) => candidate.core.includes(word)));
  return portForm?.name ?? best;
}

function closestCandidate(words: readonly string[], compact: string): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  let tied = false;
  for (const candidate of allCandidates()) {
    const score = candidate.compact === compact ? 1 : Math.max(overlap(words, candidate.words), overlap(words, candidate.core));
    if (score > bestScore) {
      best = candidate.name;
      bestScore = score;
      tied = false;
    } else if (score === bestScore && score > 0 && candidate.name !== best) {
      tied = true;
    }
  }
  if (bestScore >= LIKELY_AT_LEAST && !tied) return best;
  const [typo] = closestNames(compact, allCandidates().map((c) => c.compact));
  if (typo !== undefined && distance(typo, compact) <= TYPO_EDITS_AT_MOST && typo.length > TYPO_EDITS_AT_MOST * 2) {
    return allCandidates().find((c) => c.compact === typo)?.name;
  }
  return undefined;
}

/** For a mapping to no portin column: the closest portin column name by spelling. */
export function closestColumnName(target: string): string | undefined {
  return likelyColumn(target) ?? closestNames(target, allCandidates().map((c) => c.name))[0];
}

export interface UnsentColumn {
  readonly header: string;
  /** The portin column it most likely means, when one stands out. */
  readonly likely?: string;
}

/**
 * The columns neither known nor mapped: copied to the results, never sent. Columns mapped to
 * null and empty header cells are left out: the user has said so, or there is nothing to name.
 */
export function unsentColumns(layout: SheetLayout): UnsentColumn[] {
  // A column another one already gives is no suggestion: mapping it would refuse the sheet.
  const given = new Set(layout.columns.map((column) => nameOf(column.role)));
  return layout.columns
    .filter((column: Column) => column.role.kind === "passthrough" && column.mapped !== true && column.header.trim() !== "")
    .map((column) => {
      const likely = likelyColumn(column.header);
      return likely === undefined || given.has(likely) ? { header: column.header.trim() } : { header: column.header.trim(), likely };
    });
}

/** The portin column name of a role, as likelyColumn names it. */
function nameOf(role: ColumnRole): string {
  switch (role.kind) {
    case "number":
      return "number";
    case "pilot":
      return "pilot_number";
    case "offering":
      return "offering_id";
    case "group":
      return "group";
    case "member":
      return `${role.member.scope}.${role.member.name}`;
    case "e911":
      return `e911.${role.member}`;
    case "extraDetail":
    case "address":
    case "passthrough":
      return "";
  }
}
