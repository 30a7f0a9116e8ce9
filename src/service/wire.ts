/**
 * The service's wire format, SPEC §1: every member name and type, the zod schemas of the
 * request bodies and of the answers, and the one function that builds a body. Only this
 * module spells the service's member names.
 */
import { z } from "zod";
import type { ItemKind, NumberKind, Operation, RequestMemberName } from "../catalog/operations.js";

// ---------------------------------------------------------------------------------------
// Member catalog

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
export type WireValue =
  | string
  | number
  | boolean
  | readonly string[]
  | readonly number[]
  | readonly FileAttachment[]
  | readonly ExtraDetail[];
export type WireMembers = Readonly<Record<string, WireValue>>;

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

/** The optional item members (SPEC §1.2 "Optional item members include"); the labels are not for every kind. */
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

/** SPEC §1.2 gives `Label` and `AdditionalLabel` to DIDs, lines and forwards: not to ForwardingInstructions. */
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

/** Looks a member up by any casing (SPEC §3: `PortForm.customerName` sends `CustomerName`). */
export function findMember(scope: MemberScope, name: string): MemberInfo | undefined {
  return CATALOG[scope].get(name.toLowerCase());
}

/** Every member name of a scope, in catalog order: for "did you mean" suggestions. */
export function memberNames(scope: MemberScope): string[] {
  return [...CATALOG[scope].values()].map((m) => m.name);
}

/** Whether a PortForm member may be sent for this kind of number. */
export function portFormTakes(member: MemberInfo, kind: NumberKind): boolean {
  return member.flavour === "both" || member.flavour === kind;
}

// ---------------------------------------------------------------------------------------
// Body schemas: what the service accepts. The sandbox validates every POST with these.

/** NANP: area code and exchange both start 2-9. */
export const PHONE_RE = /^[2-9]\d{2}[2-9]\d{6}$/;
const phone = z
  .number()
  .int()
  .refine((n) => PHONE_RE.test(String(n)), { message: "must be a 10-digit NANP telephone number" });
const nonEmpty = z.string().min(1, "must not be empty");
const fileSchema = z.strictObject({ FileName: nonEmpty, ContentType: nonEmpty, Base64Contents: z.base64() });

const TYPE_SCHEMAS: Readonly<Record<MemberType, z.ZodType>> = {
  string: nonEmpty,
  int: z.number().int(),
  bool: z.boolean(),
  phone,
  phoneList: z.array(phone),
  stringList: z.array(nonEmpty),
  locale: z.number().int().min(0).max(6),
  secondLocale: z.union([z.number().int().min(0).max(6), z.literal(9)]),
  country: z.enum(["CA", "US"]),
  date: z.iso.date(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM"),
  files: z.array(fileSchema),
  extraDetails: z.array(z.strictObject({ Key: nonEmpty, Value: z.string() })),
  provider: z.number().int().positive(),
};

function portFormSchema(kind: NumberKind) {
  const shape: Record<string, z.ZodType> = { NumbersToPort: z.array(phone).min(1, "must list at least one number") };
  for (const member of CATALOG.portform.values()) {
    if (!portFormTakes(member, kind)) continue;
    const schema = TYPE_SCHEMAS[member.type];
    shape[member.name] = REQUIRED_PORT_FORM_MEMBERS.includes(member.name) ? schema : schema.optional();
  }
  const form = z.strictObject(shape);
  if (kind === "toll-free") return form;
  return form.refine((f) => f["CurrentProvider"] !== undefined || f["CurrentReseller"] !== undefined, {
    message: "a regular-number PortForm needs CurrentProvider or CurrentReseller",
    path: ["CurrentProvider"],
  });
}

function itemSchema(op: Operation) {
  const items = op.items;
  if (!items) return null;
  const members = ITEM_MEMBERS[items.kind];
  const shape: Record<string, z.ZodType> = {};
  for (const name of members.accepted) {
    const schema = TYPE_SCHEMAS[ITEM_TYPES[name] ?? "string"];
    shape[name] = members.required.includes(name) ? schema : schema.optional();
  }
  if (items.numberAt === "Number") shape["Number"] = phone;
  if (items.numberAt === "NestedNumber") shape["Number"] = z.strictObject({ Number: phone });
  if (items.numberAt === "TN") shape["TN"] = phone;
  if (items.planId) shape["PlanID"] = nonEmpty;
  return z.strictObject(shape);
}

/** The full body schema of one operation. */
export function bodySchema(op: Operation): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = { PortForm: portFormSchema(op.numberKind) };
  if (op.targetMember === "PilotNumber") shape["PilotNumber"] = phone;
  if (op.targetMember === "OfferingID") shape["OfferingID"] = nonEmpty;
  for (const name of op.requestMembers) {
    const schema = TYPE_SCHEMAS[REQUEST[name].type];
    shape[name] = op.requiredRequestMembers.includes(name) ? schema : schema.optional();
  }
  const item = itemSchema(op);
  if (item && op.items) shape[op.items.listMember] = z.array(item).min(1, "must list at least one item");
  return z.strictObject(shape);
}

/** "PortForm.CustomerName: must not be empty; DIDs.0.Number: …" — zod issues as one line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      const message = issue.code === "unrecognized_keys" ? `unknown member ${issue.keys.join(", ")}` : issue.message;
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}

// ---------------------------------------------------------------------------------------
// Building a body

export interface BodyNumber {
  /** 10 digits. */
  readonly number: string;
  readonly item: WireMembers;
}

/** What a planned request hands the service layer. */
export interface BodyInput {
  readonly operation: Operation;
  /** The pilot number (10 digits) for trunk operations; the OfferingID otherwise. */
  readonly target: string;
  readonly portForm: WireMembers;
  readonly request: WireMembers;
  readonly numbers: readonly BodyNumber[];
}

/** Builds the JSON body of one port-in request. `PortForm.NumbersToPort` is always portin's. */
export function buildBody(input: BodyInput): Record<string, unknown> {
  const { operation: op } = input;
  const numbersToPort = input.numbers.map((n) => Number(n.number));
  const body: Record<string, unknown> = { PortForm: { ...input.portForm, NumbersToPort: numbersToPort } };
  if (op.targetMember === "PilotNumber") body["PilotNumber"] = Number(input.target);
  if (op.targetMember === "OfferingID") body["OfferingID"] = input.target;
  for (const name of op.requestMembers) {
    const value = input.request[name];
    if (value !== undefined) body[name] = value;
  }
  const items = op.items;
  if (items) {
    body[items.listMember] = input.numbers.map((n, i) => {
      const item: Record<string, unknown> = { ...n.item };
      const num = numbersToPort[i];
      if (items.numberAt === "Number") item["Number"] = num;
      if (items.numberAt === "NestedNumber") item["Number"] = { Number: num };
      if (items.numberAt === "TN") item["TN"] = num;
      if (items.planId) item["PlanID"] = input.target;
      return item;
    });
  }
  return body;
}

/** The numbers a body asks to port, as 10-digit strings (for the sandbox and tests). */
export function numbersOfBody(body: Record<string, unknown>): string[] {
  const form = body["PortForm"] as { NumbersToPort?: unknown } | undefined;
  const list = Array.isArray(form?.NumbersToPort) ? (form.NumbersToPort as unknown[]) : [];
  return list.map((n) => String(n));
}

/** The numbers carried in a body's items, in order; null when the operation has no items. */
export function itemNumbersOfBody(op: Operation, body: Record<string, unknown>): string[] | null {
  const items = op.items;
  if (!items) return null;
  const list = body[items.listMember];
  if (!Array.isArray(list)) return [];
  return list.map((raw) => {
    const item = raw as Record<string, unknown>;
    if (items.numberAt === "TN") return String(item["TN"]);
    if (items.numberAt === "NestedNumber") return String((item["Number"] as { Number?: unknown } | undefined)?.Number);
    return String(item["Number"]);
  });
}

// ---------------------------------------------------------------------------------------
// Answers. Lookups are read tolerantly (SPEC §1.1): member names in any case, numbers as
// integers or numeric strings. Anything that is not a list of such objects is refused.

function lowerKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
}
const tolerant = <T extends z.ZodType>(schema: T) => z.preprocess(lowerKeys, schema);
const intLike = z.union([z.number().int(), z.string().trim().regex(/^\d+$/).transform(Number)]);

export interface Trunk {
  /** 10 digits. */
  readonly pilotNumber: string;
  readonly label: string;
}
export interface Offering {
  readonly offeringId: string;
  /** Any integer; the validator refuses Types outside 1..7 per row. */
  readonly type: number;
  readonly name: string;
}
export interface Provider {
  readonly id: number;
  readonly name: string;
}

const trunkSchema = tolerant(
  z.object({
    number: z.union([z.number().int(), z.string().trim().regex(/^\d+$/)]).transform(String),
    label: z.string().nullish(),
  }),
).transform((t): Trunk => ({ pilotNumber: t.number, label: t.label ?? "" }));

const productName = z.union([
  z.string(),
  tolerant(z.object({ en: z.string().nullish(), fr: z.string().nullish() })).transform((n) => n.en ?? n.fr ?? ""),
]);
const offeringSchema = tolerant(
  z.object({
    offeringid: z.union([z.string().min(1), z.number()]).transform(String),
    type: intLike,
    productname: productName.nullish(),
  }),
).transform((o): Offering => ({ offeringId: o.offeringid, type: o.type, name: o.productname ?? "" }));

const providerSchema = tolerant(z.object({ id: intLike, name: z.string().min(1) })).transform(
  (p): Provider => ({ id: p.id, name: p.name }),
);

export const LOOKUPS = {
  trunks: { path: "/SipTrunks", what: "SIP trunks", schema: z.array(trunkSchema) },
  offerings: { path: "/Products/TelephoneOfferings", what: "telephone offerings", schema: z.array(offeringSchema) },
  providers: { path: "/NumberPorts/Providers", what: "losing-carrier providers", schema: z.array(providerSchema) },
} as const;

export function portInStatusPath(tenDigits: string): string {
  return `/v2/NumberPorts/Inbound/Numbers/${tenDigits}/PortInStatus`;
}

export interface PortInStatus {
  readonly ticketId: string;
  readonly status: string;
  readonly portDate: string;
  readonly rejectReason: string;
  readonly rejectSummary: string;
}
export const portInStatusSchema = tolerant(
  z.object({
    ticketid: z.union([z.string(), z.number()]).transform(String),
    status: z.string(),
    portdate: z.string().nullish(),
    rejectreason: z.string().nullish(),
    rejectsummary: z.string().nullish(),
  }),
).transform(
  (s): PortInStatus => ({
    ticketId: s.ticketid,
    status: s.status,
    portDate: s.portdate ?? "",
    rejectReason: s.rejectreason ?? "",
    rejectSummary: s.rejectsummary ?? "",
  }),
);

/** Reply codes of a TicketResponse. */
export const REPLY = { Rejected: 0, Accepted: 1, Deferred: 2, Conditional: 3, Error: 4 } as const;
export type ReplyCode = (typeof REPLY)[keyof typeof REPLY];
export const REPLY_NAMES: Readonly<Record<ReplyCode, string>> = {
  0: "Rejected",
  1: "Accepted",
  2: "Deferred",
  3: "Conditional",
  4: "Error",
};

export interface TicketResponse {
  readonly ticketMask: string;
  readonly reply: ReplyCode;
  readonly message: string;
}
export const ticketResponseSchema = tolerant(
  z.object({
    ticketmask: z.union([z.string(), z.number()]).nullish().transform((t) => (t == null ? "" : String(t))),
    reply: z.union([z.literal([0, 1, 2, 3, 4]), z.literal(["0", "1", "2", "3", "4"]).transform(Number)]),
    message: z.string().nullish(),
  }),
).transform((t): TicketResponse => ({ ticketMask: t.ticketmask, reply: t.reply as ReplyCode, message: t.message ?? "" }));

/** The service's error body. */
export const exceptionSchema = tolerant(
  z.object({ id: z.union([z.string(), z.number()]).nullish(), message: z.string().nullish() }),
).transform((e) => ({ id: e.id == null ? "" : String(e.id), message: e.message ?? "" }));

/** Serializers for the sandbox, so it answers in the service's own spelling. */
export function ticketResponseJson(t: TicketResponse): Record<string, unknown> {
  return { TicketMask: t.ticketMask, Reply: t.reply, Message: t.message };
}
export function exceptionJson(id: string, message: string): Record<string, unknown> {
  return { ID: id, Message: message };
}
