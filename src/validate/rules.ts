/**
 * What each operation accepts and requires (docs/contract.md §1.2), worked out once per run: which
 * members it cannot send, which defaults apply to it, which members it needs, and the
 * route for every (target, number kind) pair.
 */
import type { NumberKind, Operation, Route } from "../catalog/operations.js";
import { describeOperation, isOfferingType, routeFor } from "../catalog/operations.js";
import type { MemberInfo, MemberValue } from "../catalog/members.js";
import { ITEM_MEMBERS, REGULAR_PROVIDER_MEMBERS, REQUIRED_PORT_FORM_MEMBERS, findMember, portFormTakes } from "../catalog/members.js";
import type { Defaults } from "./types.js";
import * as rows from "../messages/rows.js";

export type Records = { portForm: Record<string, MemberValue>; request: Record<string, MemberValue>; item: Record<string, MemberValue> };
export type Section = keyof Records;

export const SECTION_OF: Readonly<Record<MemberInfo["scope"], Section>> = { portform: "portForm", request: "request", item: "item" };

export const labelOf = (member: MemberInfo): string => `${member.scope}.${member.name}`;

/** How the carrier checks (carrier-ready.ts) name a PortForm member in a row's message. */
export const portFormLabel = (member: string): string => `portform.${member}`;

/** Why `op` cannot send `member`, or undefined when it can (docs/contract.md §1.2 member tables). */
export function refusalOf(member: MemberInfo, op: Operation): string | undefined {
  const label = labelOf(member);
  if (member.scope === "portform") {
    if (portFormTakes(member, op.numberKind)) return undefined;
    const other = op.numberKind === "regular" ? "toll-free" : "regular";
    return rows.memberForOtherKind(label, other, op.numberKind);
  }
  if (member.scope === "request") {
    if ((op.requestMembers as readonly string[]).includes(member.name)) return undefined;
    const takes = op.requestMembers.length === 0 ? "no request members" : op.requestMembers.join(", ");
    return rows.requestMemberNotTaken(label, describeOperation(op), takes);
  }
  if (op.items === null) return rows.noItemsTaken(label, describeOperation(op));
  if (ITEM_MEMBERS[op.items.kind].accepted.has(member.name)) return undefined;
  return rows.itemMemberNotTaken(label, op.items.kind, describeOperation(op));
}

/** The defaults an operation can send: the rest serve other rows of a mixed sheet. */
export function defaultsFor(defaults: Defaults, op: Operation): Records {
  const out: Records = { portForm: {}, request: {}, item: {} };
  for (const section of ["portForm", "request", "item"] as const) {
    const scope = section === "portForm" ? "portform" : section;
    for (const [name, value] of Object.entries(defaults[section])) {
      const member = findMember(scope, name);
      if (member !== undefined && refusalOf(member, op) === undefined) out[section][member.name] = value;
    }
  }
  return out;
}

export interface Requirement {
  readonly section: Section;
  /** Any one of these members satisfies it. */
  readonly anyOf: readonly string[];
  readonly label: string;
}

/** In this order: PortForm, request, then item requirements (the validator relies on items coming last). */
export function requirementsOf(op: Operation): Requirement[] {
  const out: Requirement[] = REQUIRED_PORT_FORM_MEMBERS.map((name) => ({ section: "portForm", anyOf: [name], label: `portform.${name}` }));
  if (op.numberKind === "regular") {
    out.push({ section: "portForm", anyOf: REGULAR_PROVIDER_MEMBERS, label: REGULAR_PROVIDER_MEMBERS.map((n) => `portform.${n}`).join(" or ") });
  }
  for (const name of op.requiredRequestMembers) out.push({ section: "request", anyOf: [name], label: `request.${name}` });
  if (op.items) {
    for (const name of ITEM_MEMBERS[op.items.kind].required) out.push({ section: "item", anyOf: [name], label: `item.${name}` });
  }
  return out;
}

/** Routes for every (target, kind) pair, computed once instead of per row. */
export function routeTable(): (type: number | null, kind: NumberKind) => Route {
  // Offering routes indexed by Type: a lookup per row builds no key.
  const trunk: Record<NumberKind, Route> = { regular: routeFor({ kind: "trunk" }, "regular"), "toll-free": routeFor({ kind: "trunk" }, "toll-free") };
  const offering: Record<NumberKind, Route[]> = { regular: [], "toll-free": [] };
  for (let type = 1; type <= 7; type++) {
    if (!isOfferingType(type)) continue;
    offering.regular[type] = routeFor({ kind: "offering", type }, "regular");
    offering["toll-free"][type] = routeFor({ kind: "offering", type }, "toll-free");
  }
  return (type, kind) => (type === null ? trunk[kind] : offering[kind][type]) ?? { ok: false, reason: rows.noOperationFor(kind) };

}
