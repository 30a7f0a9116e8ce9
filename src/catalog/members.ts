/**
 * The member catalog of docs/contract.md §1.2: every PortForm, request and item member, with its type,
 * its scope, the kind of number whose form takes it, which are required, and which item
 * kinds take which members. The names are the service's own spellings because docs/contract.md §3 has
 * the sheet name members as the service does; how a body is laid out is service/'s.
 */
import type { ItemKind, NumberKind, RequestMemberName } from "./operations.js";

/** How a member travels on the wire; input/validate convert cells to these. */
export type MemberType =
  | "string"
  | "int"
  | "bool"
  | "phone" // a NANP number, sent as a 10-digit integer
  | "phoneList"
  | "stringList"
  | "locale" // 0..6, by code or name
  | "secondLocale" // 0..6 or 9 (None)
  | "country" // CA | US
  | "date" // YYYY-MM-DD
  | "time" // HH:MM, Eastern
  | "files" // [{FileName, ContentType, Base64Contents}], from file paths
  | "extraDetails" // [{Key, Value}], from portform.ExtraDetails.<Key> columns
  | "provider"; // a provider ID, or a provider name resolved through the lookup

export interface FileAttachment {
  readonly FileName: string;
  readonly ContentType: string;
  readonly Base64Contents: string;
}
export interface ExtraDetail {
  readonly Key: string;
  readonly Value: string;
}
export type MemberValue =
  | string
  | number
  | boolean
  | readonly string[]
  | readonly number[]
  | readonly FileAttachment[]
  | readonly ExtraDetail[];
export type Members = Readonly<Record<string, MemberValue>>;

/** Which PortForm flavour a member belongs to. */
type Flavour = "both" | NumberKind;

const PORT_FORM: Readonly<Record<string, { type: MemberType; flavour: Flavour }>> = {
  CustomerAccountNumber: { type: "string", flavour: "both" },
  CustomerName: { type: "string", flavour: "both" },
  CustomerStreetNumber: { type: "string", flavour: "both" },
  CustomerStreetName: { type: "string", flavour: "both" },
  CustomerCity: { type: "string", flavour: "both" },
  CustomerProvince: { type: "string", flavour: "both" },
  CustomerPostalCode: { type: "string", flavour: "both" },
  CustomerCountry: { type: "country", flavour: "both" },
  EmailAddress: { type: "string", flavour: "both" },
  CurrentProvider: { type: "provider", flavour: "both" },
  CurrentReseller: { type: "string", flavour: "both" },
  CustomerUnit: { type: "string", flavour: "both" },
  CustomerFloor: { type: "string", flavour: "both" },
  CustomerStreetType: { type: "string", flavour: "both" },
  CustomerStreetDirection: { type: "string", flavour: "both" },
  CustomerStreetSuffix: { type: "string", flavour: "both" },
  CustomerReferenceNumber: { type: "string", flavour: "both" },
  AdditionalEmailAddresses: { type: "stringList", flavour: "both" },
  CommentsLosingCarrier: { type: "string", flavour: "both" },
  CommentsPortTeam: { type: "string", flavour: "both" },
  RequestedPortDate: { type: "date", flavour: "both" },
  RequestedPortTime: { type: "time", flavour: "both" },
  SubmitterFirstName: { type: "string", flavour: "both" },
  SubmitterLastName: { type: "string", flavour: "both" },
  SubmitterPhoneNumber: { type: "phone", flavour: "both" },
  ContactMeBLIF: { type: "bool", flavour: "both" },
  ContactMeScheduling: { type: "bool", flavour: "both" },
  CurrentProviderNotMandatory: { type: "bool", flavour: "both" },
  ExtraDetails: { type: "extraDetails", flavour: "both" },
  FileLetterOfAuthorization: { type: "files", flavour: "both" },
  FileLastInvoice: { type: "files", flavour: "both" },
  FileBlifSpreadsheet: { type: "files", flavour: "both" },
  FileRespOrgForm: { type: "files", flavour: "toll-free" },
  NumbersToRemain: { type: "phoneList", flavour: "regular" },
  NumbersToDisconnect: { type: "phoneList", flavour: "regular" },
  ChangePilotNumber: { type: "bool", flavour: "regular" },
  NewPilotNumber: { type: "phone", flavour: "regular" },
  IsPRIMegaLink: { type: "bool", flavour: "regular" },
  PRIMegalinkCircuit: { type: "string", flavour: "regular" },
  PRIMegalinkRemainActive: { type: "bool", flavour: "regular" },
};

/** Required in every PortForm; regular forms also need `CurrentProvider` or `CurrentReseller`. */
export const REQUIRED_PORT_FORM_MEMBERS: readonly string[] = [
  "CustomerAccountNumber",
  "CustomerName",
  "CustomerStreetNumber",
  "CustomerStreetName",
  "CustomerCity",
  "CustomerProvince",
  "CustomerPostalCode",
  "CustomerCountry",
  "EmailAddress",
];
export const REGULAR_PROVIDER_MEMBERS = ["CurrentProvider", "CurrentReseller"] as const;

const REQUEST: Readonly<Record<RequestMemberName, { type: MemberType }>> = {
  ParentSubscriptionID: { type: "string" },
  BusinessGroupSubscriptionID: { type: "string" },
  FaxEmail: { type: "string" },
};

const ITEM_TYPES: Readonly<Record<string, MemberType>> = {
  Account: "int",
  Enabled: "bool",
  Locale: "locale",
  SecondLocale: "secondLocale",
  BusinessGroupID: "string",
  CallForwardingNumber: "phone",
  PCFProvisioningInstructions: "string",
  ForwardingTN: "phone",
  Label: "string",
  AdditionalLabel: "string",
  CallerName: "string",
  CallerID: "phone",
  Email: "string",
  CallForwardingDelay: "int",
  Extension: "int",
  SipPassword: "string",
  WebSelfCarePassword: "string",
  TranslatedNumber: "phone",
  Surecall: "int",
};

/** The optional item members (docs/contract.md §1.2 "Optional item members include"); the labels are not for every kind. */
const OPTIONAL_ITEM_MEMBERS = [
  "Label",
  "AdditionalLabel",
  "CallerName",
  "CallerID",
  "Email",
  "CallForwardingNumber",
  "CallForwardingDelay",
  "Extension",
  "SipPassword",
  "WebSelfCarePassword",
  "TranslatedNumber",
  "Surecall",
] as const;

/** docs/contract.md §1.2 gives `Label` and `AdditionalLabel` to DIDs, lines and forwards: not to ForwardingInstructions. */
const LABELS: ReadonlySet<string> = new Set(["Label", "AdditionalLabel"]);

export const ITEM_MEMBERS: Readonly<Record<ItemKind, { required: readonly string[]; accepted: ReadonlySet<string> }>> = (() => {
  const required: Record<ItemKind, readonly string[]> = {
    DID: [],
    ResidentialLine: ["Account", "Enabled", "Locale", "SecondLocale"],
    BusinessLine: ["Account", "BusinessGroupID", "Locale", "SecondLocale"],
    Forward: ["Account", "CallForwardingNumber", "Enabled", "PCFProvisioningInstructions"],
    ForwardingInstruction: ["ForwardingTN"],
  };
  const out = {} as Record<ItemKind, { required: readonly string[]; accepted: ReadonlySet<string> }>;
  for (const kind of Object.keys(required) as ItemKind[]) {
    const optional = kind === "ForwardingInstruction" ? OPTIONAL_ITEM_MEMBERS.filter((name) => !LABELS.has(name)) : OPTIONAL_ITEM_MEMBERS;
    out[kind] = { required: required[kind], accepted: new Set([...required[kind], ...optional]) };
  }
  return out;
})();

export type MemberScope = "portform" | "request" | "item";

export interface MemberInfo {
  readonly scope: MemberScope;
  /** The member's own spelling, as the wire uses it. */
  readonly name: string;
  readonly type: MemberType;
  /** For PortForm members: which flavour of form takes it. */
  readonly flavour: Flavour;
}

const CATALOG: Readonly<Record<MemberScope, ReadonlyMap<string, MemberInfo>>> = {
  portform: indexMembers("portform", Object.entries(PORT_FORM).map(([name, m]) => [name, m.type, m.flavour])),
  request: indexMembers("request", Object.entries(REQUEST).map(([name, m]) => [name, m.type, "both"])),
  item: indexMembers("item", Object.entries(ITEM_TYPES).map(([name, type]) => [name, type, "both"])),
};

function indexMembers(scope: MemberScope, entries: [string, MemberType, Flavour][]): ReadonlyMap<string, MemberInfo> {
  return new Map(entries.map(([name, type, flavour]) => [name.toLowerCase(), { scope, name, type, flavour }]));
}

/** Looks a member up by any casing (docs/contract.md §3: `PortForm.customerName` sends `CustomerName`). */
export function findMember(scope: MemberScope, name: string): MemberInfo | undefined {
  return CATALOG[scope].get(name.toLowerCase());
}

/** Every member of a scope, in catalog order. */
export function membersOf(scope: MemberScope): MemberInfo[] {
  return [...CATALOG[scope].values()];
}

/** Every member name of a scope, in catalog order: for "did you mean" suggestions. */
export function memberNames(scope: MemberScope): string[] {
  return membersOf(scope).map((m) => m.name);
}

/** Whether a PortForm member may be sent for this kind of number. */
export function portFormTakes(member: MemberInfo, kind: NumberKind): boolean {
  return member.flavour === "both" || member.flavour === kind;
}
