/**
 * The shape of every port-in body, as zod schemas made from the sandbox's reading of the
 * contract (contract.ts). Each is built on its operation's first request and kept: zod
 * compiles a schema on its first parse, and compiling per request once cost the sandbox
 * more CPU than everything else it does (`npm run bench`). Not at load: a run uses one or
 * two of the operations.
 */
import { z } from "zod";
import { once } from "../once.js";
import type { Items, Members, NumberKind, PortInOperation, Rule } from "./contract.js";
import {
  ITEM_KINDS,
  LOSING_CARRIER,
  PORT_FORM_OPTIONAL,
  PORT_FORM_REQUIRED,
  REGULAR_PORT_FORM_ONLY,
  TOLL_FREE_PORT_FORM_ONLY,
  V911_OPTIONAL,
  V911_REQUIRED,
} from "./contract.js";

/** NANP: area code and exchange both start 2-9, and no leading 1 (docs/contract.md §1.2: 10-digit integers). */
export const NANP = /^[2-9]\d{2}[2-9]\d{6}$/;

/** Made at the first request's check, with the schemas below: a run that sends nothing makes none (docs/contract.md §8, "Start-up"). */
const RULES = once(makeRules);

function makeRules(): Readonly<Record<Rule, z.ZodType>> {
  const tn = z
    .number()
    .int()
    .refine((n) => NANP.test(String(n)), { message: "must be a 10-digit NANP telephone number" });
  const text = z.string().min(1, "must not be empty");
  const locale = z.number().int().min(0).max(6);
  return {
    text,
    integer: z.number().int(),
    boolean: z.boolean(),
    tn,
    tnList: z.array(tn),
    textList: z.array(text),
    locale,
    secondLocale: z.union([locale, z.literal(9)]),
    country: z.enum(["CA", "US"]),
    date: z.iso.date(),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM"),
    files: z.array(z.strictObject({ FileName: text, ContentType: text, Base64Contents: z.base64() })),
    extraDetails: z.array(z.strictObject({ Key: text, Value: z.string() })),
    providerId: z.number().int().positive(),
  };
}

function shapeOf(required: Members, optional: Members = {}): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, rule] of Object.entries(required)) shape[name] = RULES()[rule];
  // A member named in both (CallForwardingNumber on forwards) stays required.
  for (const [name, rule] of Object.entries(optional)) shape[name] ??= RULES()[rule].optional();
  return shape;
}

function portFormSchema(kind: NumberKind): z.ZodType {
  const only = kind === "regular" ? REGULAR_PORT_FORM_ONLY : TOLL_FREE_PORT_FORM_ONLY;
  const shape: Record<string, z.ZodType> = {
    NumbersToPort: z.array(RULES().tn).min(1, "must list at least one number"),
    ...shapeOf(PORT_FORM_REQUIRED, { ...LOSING_CARRIER, ...PORT_FORM_OPTIONAL, ...only }),
  };
  const form = z.strictObject(shape);
  if (kind === "toll-free") return form;
  return form.refine((f) => f["CurrentProvider"] !== undefined || f["CurrentReseller"] !== undefined, {
    message: "a regular-number PortForm needs CurrentProvider or CurrentReseller",
    path: ["CurrentProvider"],
  });
}

function numberAt(at: Items["numberAt"]): Record<string, z.ZodType> {
  const { tn } = RULES();
  if (at === "Number") return { Number: tn };
  if (at === "Number.Number") return { Number: z.strictObject({ Number: tn }) };
  return { TN: tn };
}

function itemSchema(items: Items): z.ZodType {
  const kind = ITEM_KINDS[items.kind];
  return z.strictObject({
    ...shapeOf(kind.required, kind.optional),
    ...numberAt(items.numberAt),
    ...(items.planId ? { PlanID: RULES().text } : {}),
  });
}

function bodySchema(op: PortInOperation): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = { PortForm: portFormSchema(op.numbers) };
  if (op.target === "PilotNumber") shape["PilotNumber"] = RULES().tn;
  if (op.target === "OfferingID") shape["OfferingID"] = RULES().text;
  Object.assign(shape, shapeOf(op.requestMembers));
  if (op.items) shape[op.items.list] = z.array(itemSchema(op.items)).min(1, "must list at least one item");
  return z.strictObject(shape);
}

const schemas = new Map<PortInOperation, z.ZodType<Record<string, unknown>>>();

export type Shaped = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly ok: false; readonly message: string };

/** Checks a body's shape: members, types, formats. Every problem at once, each as `path: message`. */
export function checkShape(op: PortInOperation, raw: unknown): Shaped {
  let schema = schemas.get(op);
  if (schema === undefined) {
    schema = bodySchema(op);
    schemas.set(op, schema);
  }
  const parsed = schema.safeParse(raw, { reportInput: true });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, message: describe(parsed.error) };
}

/** A V911 record (docs/contract.md §1.5), made at the first 9-1-1 request. */
const v911Schema = once(() =>
  z.strictObject({
    Number: RULES().tn,
    ...shapeOf(V911_REQUIRED, V911_OPTIONAL),
    PendingPort: RULES().boolean.optional(),
  }),
);

export type V911Shaped = { readonly ok: true; readonly record: V911Record } | { readonly ok: false; readonly message: string };

/** A V911 record as the sandbox keeps it: the members as sent. */
export interface V911Record {
  readonly Number: number;
  readonly FirstName: string;
  readonly LastName: string;
  readonly StreetNumber: string;
  readonly StreetName: string;
  readonly SuiteNumber?: string;
  readonly City: string;
  readonly ProvinceState: string;
  readonly PostalZip: string;
  readonly OtherInfo?: string;
  readonly PendingPort?: boolean;
}

/** Checks a V911 body: every problem at once, each naming its member, as for a port-in. */
export function checkV911Shape(raw: unknown): V911Shaped {
  const parsed = v911Schema().safeParse(raw, { reportInput: true });
  return parsed.success ? { ok: true, record: parsed.data as V911Record } : { ok: false, message: describe(parsed.error) };
}

/** "PortForm.CustomerName: required member is missing; DIDs.0: unknown member Locale". */
function describe(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${messageOf(issue)}` : messageOf(issue);
    })
    .join("; ");
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown member ${issue.keys.join(", ")}`;
  // "is required" reads better than zod's "expected string, received undefined" for an absent member.
  const absent = issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.path.length > 0;
  return absent ? "required member is missing" : issue.message;
}
