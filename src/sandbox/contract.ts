/**
 * The ten port-in operations and what their bodies may hold, as the sandbox reads docs/contract.md §1.2.
 * Written here from the contract on purpose, not taken from the client's tables in
 * service/: a simulator that judges bodies by the client's own catalog agrees with every
 * mistake in it, and then a catalog mistake is found only in production.
 */
import type { OperationId } from "../catalog/operations.js";

export type NumberKind = "regular" | "toll-free";

/** How a member must look on the wire (docs/contract.md §1.2 "Member types", and the formats given beside members). */
export type Rule =
  | "text" // a non-empty string
  | "integer"
  | "boolean"
  | "tn" // a telephone number: a 10-digit NANP integer
  | "tnList"
  | "textList"
  | "locale" // 0..6
  | "secondLocale" // 0..6, or 9 None
  | "country" // CA | US
  | "date" // YYYY-MM-DD
  | "time" // HH:MM
  | "files" // [{FileName, ContentType, Base64Contents}]
  | "extraDetails" // [{Key, Value}]
  | "providerId"; // a positive integer

export type Members = Readonly<Record<string, Rule>>;

/** docs/contract.md §1.2: required in every PortForm. */
export const PORT_FORM_REQUIRED: Members = {
  CustomerAccountNumber: "text",
  CustomerName: "text",
  CustomerStreetNumber: "text",
  CustomerStreetName: "text",
  CustomerCity: "text",
  CustomerProvince: "text",
  CustomerPostalCode: "text",
  CustomerCountry: "country",
  EmailAddress: "text",
};

/** A regular-number PortForm names its losing carrier by one of these; a toll-free one may. */
export const LOSING_CARRIER: Members = { CurrentProvider: "providerId", CurrentReseller: "text" };

/** docs/contract.md §1.2: optional in every PortForm. */
export const PORT_FORM_OPTIONAL: Members = {
  CustomerUnit: "text",
  CustomerFloor: "text",
  CustomerStreetType: "text",
  CustomerStreetDirection: "text",
  CustomerStreetSuffix: "text",
  CustomerReferenceNumber: "text",
  AdditionalEmailAddresses: "textList",
  CommentsLosingCarrier: "text",
  CommentsPortTeam: "text",
  RequestedPortDate: "date",
  RequestedPortTime: "time",
  SubmitterFirstName: "text",
  SubmitterLastName: "text",
  SubmitterPhoneNumber: "tn",
  ContactMeBLIF: "boolean",
  ContactMeScheduling: "boolean",
  CurrentProviderNotMandatory: "boolean",
  ExtraDetails: "extraDetails",
  FileLetterOfAuthorization: "files",
  FileLastInvoice: "files",
  FileBlifSpreadsheet: "files",
};

/** docs/contract.md §1.2: only toll-free forms take these. */
export const TOLL_FREE_PORT_FORM_ONLY: Members = { FileRespOrgForm: "files" };

/** docs/contract.md §1.2 "Regular-number forms also take". */
export const REGULAR_PORT_FORM_ONLY: Members = {
  NumbersToRemain: "tnList",
  NumbersToDisconnect: "tnList",
  ChangePilotNumber: "boolean",
  NewPilotNumber: "tn",
  IsPRIMegaLink: "boolean",
  PRIMegalinkCircuit: "text",
  PRIMegalinkRemainActive: "boolean",
};

export type ItemKind = "DID" | "ResidentialLine" | "BusinessLine" | "Forward" | "ForwardingInstruction";

/** docs/contract.md §1.2 "Optional item members include", but for the labels, which not every kind takes. */
const OPTIONAL_ITEM: Members = {
  CallerName: "text",
  CallerID: "tn",
  Email: "text",
  CallForwardingNumber: "tn",
  CallForwardingDelay: "integer",
  Extension: "integer",
  SipPassword: "text",
  WebSelfCarePassword: "text",
  TranslatedNumber: "tn",
  Surecall: "integer",
};

/** docs/contract.md §1.2 gives `Label` and `AdditionalLabel` to DIDs, lines and forwards: not to forwarding instructions. */
const LABELS: Members = { Label: "text", AdditionalLabel: "text" };

/** Each item kind's members besides its number and PlanID, which the operation places. */
export const ITEM_KINDS: Readonly<Record<ItemKind, { readonly required: Members; readonly optional: Members }>> = {
  DID: { required: {}, optional: { ...LABELS, ...OPTIONAL_ITEM } },
  ResidentialLine: {
    required: { Account: "integer", Enabled: "boolean", Locale: "locale", SecondLocale: "secondLocale" },
    optional: { ...LABELS, ...OPTIONAL_ITEM },
  },
  BusinessLine: {
    required: { Account: "integer", BusinessGroupID: "text", Locale: "locale", SecondLocale: "secondLocale" },
    optional: { ...LABELS, ...OPTIONAL_ITEM },
  },
  Forward: {
    required: { Account: "integer", CallForwardingNumber: "tn", Enabled: "boolean", PCFProvisioningInstructions: "text" },
    optional: { ...LABELS, ...OPTIONAL_ITEM },
  },
  ForwardingInstruction: { required: { ForwardingTN: "tn" }, optional: OPTIONAL_ITEM },
};

export interface Items {
  /** The body member holding the list. */
  readonly list: "DIDs" | "Lines" | "Forwards" | "ForwardingInstructions";
  readonly kind: ItemKind;
  /** `{Number}`, `{Number: {Number}}` or `{TN}`. */
  readonly numberAt: "Number" | "Number.Number" | "TN";
  /** Types 3, 4 and 5 carry the offering as each item's `PlanID`. */
  readonly planId: boolean;
}

export interface PortInOperation {
  /** The name /_sandbox/requests shows: the client's name for the same operation. */
  readonly id: OperationId;
  readonly path: string;
  readonly numbers: NumberKind;
  /** The offering Type its OfferingID or PlanID must have; null for the SIP trunk operations. */
  readonly offeringType: number | null;
  /** The top-level member naming the target, when the target is not in the items. */
  readonly target: "PilotNumber" | "OfferingID" | null;
  /** SPEC's starred request members: each operation's are all required, and no other is taken. */
  readonly requestMembers: Members;
  readonly items: Items | null;
}

const DIDS: Items = { list: "DIDs", kind: "DID", numberAt: "Number", planId: false };
const FORWARDS: Items = { list: "Forwards", kind: "Forward", numberAt: "Number.Number", planId: true };

/** docs/contract.md §1.2's table, row by row. */
export const PORT_IN_OPERATIONS: readonly PortInOperation[] = [
  { id: "dids", path: "/v2/NumberPorts/Inbound/DIDs", numbers: "regular", offeringType: null, target: "PilotNumber", requestMembers: {}, items: DIDS },
  {
    id: "tollfree-dids",
    path: "/v2/NumberPorts/Inbound/TollFree/DIDs",
    numbers: "toll-free",
    offeringType: null,
    target: "PilotNumber",
    requestMembers: {},
    items: DIDS,
  },
  {
    id: "general-products",
    path: "/NumberPorts/Inbound/GeneralProducts",
    numbers: "regular",
    offeringType: 1,
    target: "OfferingID",
    requestMembers: {},
    items: null,
  },
  {
    id: "general-child-products",
    path: "/NumberPorts/Inbound/GeneralChildProducts",
    numbers: "regular",
    offeringType: 2,
    target: "OfferingID",
    requestMembers: { ParentSubscriptionID: "text" },
    items: null,
  },
  {
    id: "residential-lines",
    path: "/v2/NumberPorts/Inbound/ResidentialLines",
    numbers: "regular",
    offeringType: 3,
    target: null,
    requestMembers: {},
    items: { list: "Lines", kind: "ResidentialLine", numberAt: "Number.Number", planId: true },
  },
  {
    id: "business-lines",
    path: "/v2/NumberPorts/Inbound/BusinessLines",
    numbers: "regular",
    offeringType: 4,
    target: null,
    requestMembers: {},
    items: { list: "Lines", kind: "BusinessLine", numberAt: "Number.Number", planId: true },
  },
  {
    id: "permanent-call-forwards",
    path: "/v2/NumberPorts/Inbound/PermanentCallForwards",
    numbers: "regular",
    offeringType: 5,
    target: null,
    requestMembers: {},
    items: FORWARDS,
  },
  {
    id: "tollfree-permanent-call-forwards",
    path: "/v2/NumberPorts/Inbound/TollFree/PermanentCallForwards",
    numbers: "toll-free",
    offeringType: 5,
    target: null,
    requestMembers: {},
    items: FORWARDS,
  },
  {
    id: "business-permanent-call-forwards",
    path: "/NumberPorts/Inbound/BusinessPermanentCallForwards",
    numbers: "regular",
    offeringType: 6,
    target: "OfferingID",
    requestMembers: { BusinessGroupSubscriptionID: "text" },
    items: { list: "ForwardingInstructions", kind: "ForwardingInstruction", numberAt: "TN", planId: false },
  },
  {
    id: "virtual-faxes",
    path: "/NumberPorts/Inbound/VirtualFaxes",
    numbers: "regular",
    offeringType: 7,
    target: "OfferingID",
    requestMembers: { FaxEmail: "text" },
    items: null,
  },
];

/** docs/contract.md §1.1's offering Types, for the messages that name one. */
export const OFFERING_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: "General Product",
  2: "General Child Product",
  3: "Residential Line",
  4: "Business Line",
  5: "Permanent Call Forward",
  6: "Business Permanent Call Forward",
  7: "Virtual Fax",
};

/** docs/contract.md §1.2: the NANP area codes of toll-free numbers. */
export const TOLL_FREE_AREA_CODES: ReadonlySet<string> = new Set(["800", "833", "844", "855", "866", "877", "888"]);

/** "POST /v2/NumberPorts/Inbound/DIDs", as the service's messages name an operation. */
export function describePortIn(op: PortInOperation): string {
  return `POST ${op.path}`;
}

/**
 * docs/contract.md §1.5: a V911 record, as the 9-1-1 endpoints take it. `Number` and
 * `PendingPort` are typed apart from these text members (body-schemas.ts v911Schema).
 */
export const V911_REQUIRED: Members = {
  FirstName: "text",
  LastName: "text",
  StreetNumber: "text",
  StreetName: "text",
  City: "text",
  ProvinceState: "text",
  PostalZip: "text",
};
export const V911_OPTIONAL: Members = { SuiteNumber: "text", OtherInfo: "text" };
