/**
 * The route table: the ten port-in operations of docs/contract.md §1.2, as data. Nothing else in the
 * code spells a path. `routeFor` chooses the operation for a (target, number kind) pair.
 */
import * as rows from "../messages/rows.js";

export type NumberKind = "regular" | "toll-free";

/** docs/contract.md §1.2: the NANP area codes of toll-free numbers, which have operations of their own. */
export const TOLL_FREE_AREA_CODES: ReadonlySet<string> = new Set(["800", "833", "844", "855", "866", "877", "888"]);

/** Offering Types, docs/contract.md §1.1. */
export const OFFERING_TYPES = {
  1: "General Product",
  2: "General Child Product",
  3: "Residential Line",
  4: "Business Line",
  5: "Permanent Call Forward",
  6: "Business Permanent Call Forward",
  7: "Virtual Fax",
} as const;
export type OfferingType = keyof typeof OFFERING_TYPES;

export function isOfferingType(value: number): value is OfferingType {
  return Number.isInteger(value) && value >= 1 && value <= 7;
}

/** The per-number item kinds; members.ts says which members each takes. */
export type ItemKind = "DID" | "ResidentialLine" | "BusinessLine" | "Forward" | "ForwardingInstruction";

export interface ItemShape {
  /** The body member holding the list of items. */
  readonly listMember: "DIDs" | "Lines" | "Forwards" | "ForwardingInstructions";
  readonly kind: ItemKind;
  /** Where the number goes in an item: `Number: 4165550101`, `Number: {Number: …}` or `TN: …`. */
  readonly numberAt: "Number" | "NestedNumber" | "TN";
  /** Types 3, 4 and 5 send the offering's ID as each item's `PlanID`. */
  readonly planId: boolean;
}

export type TargetKind = "trunk" | "offering";

export interface Operation {
  /** Stable short name, used in the journal and the summary. */
  readonly id: OperationId;
  readonly method: "POST";
  readonly path: string;
  readonly numberKind: NumberKind;
  readonly targetKind: TargetKind;
  /** For offering operations, the offering Type it serves. */
  readonly offeringType: OfferingType | null;
  /** `PilotNumber` for trunks; `OfferingID` at the top level for Types 1, 2, 6, 7; none when the plan ID rides in the items. */
  readonly targetMember: "PilotNumber" | "OfferingID" | null;
  /** Null when the numbers travel only in `PortForm.NumbersToPort`. */
  readonly items: ItemShape | null;
  /** Top-level request members the user must supply (docs/contract.md §1.2, starred). */
  readonly requiredRequestMembers: readonly RequestMemberName[];
  /** Top-level request members this operation accepts from `request.*` columns. */
  readonly requestMembers: readonly RequestMemberName[];
}

export type RequestMemberName = "ParentSubscriptionID" | "BusinessGroupSubscriptionID" | "FaxEmail";

export type OperationId =
  | "dids"
  | "tollfree-dids"
  | "general-products"
  | "general-child-products"
  | "residential-lines"
  | "business-lines"
  | "permanent-call-forwards"
  | "tollfree-permanent-call-forwards"
  | "business-permanent-call-forwards"
  | "virtual-faxes";

const DID_ITEMS: ItemShape = { listMember: "DIDs", kind: "DID", numberAt: "Number", planId: false };
const FORWARD_ITEMS: ItemShape = { listMember: "Forwards", kind: "Forward", numberAt: "NestedNumber", planId: true };

function operation(op: Omit<Operation, "method" | "requestMembers"> & { requestMembers?: readonly RequestMemberName[] }): Operation {
  return { method: "POST", requestMembers: op.requiredRequestMembers, ...op };
}

export const OPERATIONS: readonly Operation[] = [
  operation({
    id: "dids",
    path: "/v2/NumberPorts/Inbound/DIDs",
    numberKind: "regular",
    targetKind: "trunk",
    offeringType: null,
    targetMember: "PilotNumber",
    items: DID_ITEMS,
    requiredRequestMembers: [],
  }),
  operation({
    id: "tollfree-dids",
    path: "/v2/NumberPorts/Inbound/TollFree/DIDs",
    numberKind: "toll-free",
    targetKind: "trunk",
    offeringType: null,
    targetMember: "PilotNumber",
    items: DID_ITEMS,
    requiredRequestMembers: [],
  }),
  operation({
    id: "general-products",
    path: "/NumberPorts/Inbound/GeneralProducts",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 1,
    targetMember: "OfferingID",
    items: null,
    requiredRequestMembers: [],
  }),
  operation({
    id: "general-child-products",
    path: "/NumberPorts/Inbound/GeneralChildProducts",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 2,
    targetMember: "OfferingID",
    items: null,
    requiredRequestMembers: ["ParentSubscriptionID"],
  }),
  operation({
    id: "residential-lines",
    path: "/v2/NumberPorts/Inbound/ResidentialLines",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 3,
    targetMember: null,
    items: { listMember: "Lines", kind: "ResidentialLine", numberAt: "NestedNumber", planId: true },
    requiredRequestMembers: [],
  }),
  operation({
    id: "business-lines",
    path: "/v2/NumberPorts/Inbound/BusinessLines",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 4,
    targetMember: null,
    items: { listMember: "Lines", kind: "BusinessLine", numberAt: "NestedNumber", planId: true },
    requiredRequestMembers: [],
  }),
  operation({
    id: "permanent-call-forwards",
    path: "/v2/NumberPorts/Inbound/PermanentCallForwards",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 5,
    targetMember: null,
    items: FORWARD_ITEMS,
    requiredRequestMembers: [],
  }),
  operation({
    id: "tollfree-permanent-call-forwards",
    path: "/v2/NumberPorts/Inbound/TollFree/PermanentCallForwards",
    numberKind: "toll-free",
    targetKind: "offering",
    offeringType: 5,
    targetMember: null,
    items: FORWARD_ITEMS,
    requiredRequestMembers: [],
  }),
  operation({
    id: "business-permanent-call-forwards",
    path: "/NumberPorts/Inbound/BusinessPermanentCallForwards",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 6,
    targetMember: "OfferingID",
    items: { listMember: "ForwardingInstructions", kind: "ForwardingInstruction", numberAt: "TN", planId: false },
    requiredRequestMembers: ["BusinessGroupSubscriptionID"],
  }),
  operation({
    id: "virtual-faxes",
    path: "/NumberPorts/Inbound/VirtualFaxes",
    numberKind: "regular",
    targetKind: "offering",
    offeringType: 7,
    targetMember: "OfferingID",
    items: null,
    requiredRequestMembers: ["FaxEmail"],
  }),
];

export type Target = { readonly kind: "trunk" } | { readonly kind: "offering"; readonly type: OfferingType };

export type Route = { readonly ok: true; readonly operation: Operation } | { readonly ok: false; readonly reason: string };

/** Chooses the one operation for a target and a number kind, or says why there is none. */
export function routeFor(target: Target, numberKind: NumberKind): Route {
  const found = OPERATIONS.find(
    (op) =>
      op.numberKind === numberKind &&
      op.targetKind === target.kind &&
      (target.kind === "trunk" || op.offeringType === target.type),
  );
  if (found) return { ok: true, operation: found };
  if (target.kind === "offering") {
    return {
      ok: false,
      reason: rows.tollFreeOntoOffering(target.type, OFFERING_TYPES[target.type]),
    };
  }
  return { ok: false, reason: rows.noOperationOntoTrunk(numberKind) };

}

/** "POST /v2/NumberPorts/Inbound/DIDs", as the results and summary show it. */
/** Each operation's description, made once: every results row names its operation. */
const DESCRIBED = new WeakMap<Operation, string>();

export function describeOperation(op: Operation): string {
  let text = DESCRIBED.get(op);
  if (text === undefined) DESCRIBED.set(op, (text = `${op.method} ${op.path}`));
  return text;
}

export function operationById(id: string): Operation | undefined {
  return OPERATIONS.find((op) => op.id === id);
}
