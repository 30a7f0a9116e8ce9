/**
 * The service's wire format, SPEC §1: the zod schemas of the request bodies and of the
 * answers, and the one function that builds a body. The members themselves are the
 * catalog's (catalog/members.ts).
 */
import { z } from "zod";
import type { NumberKind, Operation } from "../catalog/operations.js";
import { ITEM_MEMBERS, REQUIRED_PORT_FORM_MEMBERS, findMember, membersOf, portFormTakes } from "../catalog/members.js";
import type { MemberType, Members } from "../catalog/members.js";

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
  for (const member of membersOf("portform")) {
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
    const schema = TYPE_SCHEMAS[findMember("item", name)?.type ?? "string"];
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
    const schema = TYPE_SCHEMAS[findMember("request", name)?.type ?? "string"];
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
  readonly item: Members;
}

/** What a planned request hands the service layer. */
export interface BodyInput {
  readonly operation: Operation;
  /** The pilot number (10 digits) for trunk operations; the OfferingID otherwise. */
  readonly target: string;
  readonly portForm: Members;
  readonly request: Members;
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
