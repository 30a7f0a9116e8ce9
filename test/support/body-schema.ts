/**
 * What the service accepts, docs/contract.md §1.2: the zod schema of each operation's body, built from
 * the catalog. The body tests check buildBody (src/service/body.ts) against it, so it is test
 * support: portin itself never checks a body it built; the sandbox validates POSTs with its own
 * reading of the contract (src/sandbox/body-schemas.ts), so that a mistake here is not repeated there.
 */
import { z } from "zod";
import type { NumberKind, Operation } from "../../src/catalog/operations.js";
import { ITEM_MEMBERS, REQUIRED_PORT_FORM_MEMBERS, findMember, membersOf, portFormTakes } from "../../src/catalog/members.js";
import type { MemberType } from "../../src/catalog/members.js";
import * as serviceWords from "../../src/messages/service.js";

/** NANP: area code and exchange both start 2-9. */
const PHONE_RE = /^[2-9]\d{2}[2-9]\d{6}$/;
const phone = z
  .number()
  .int()
  .refine((n) => PHONE_RE.test(String(n)), { message: serviceWords.BODY_NOT_NANP });
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
  const shape: Record<string, z.ZodType> = { NumbersToPort: z.array(phone).min(1, serviceWords.BODY_NO_NUMBERS) };
  for (const member of membersOf("portform")) {
    if (!portFormTakes(member, kind)) continue;
    const schema = TYPE_SCHEMAS[member.type];
    shape[member.name] = REQUIRED_PORT_FORM_MEMBERS.includes(member.name) ? schema : schema.optional();
  }
  const form = z.strictObject(shape);
  if (kind === "toll-free") return form;
  return form.refine((f) => f["CurrentProvider"] !== undefined || f["CurrentReseller"] !== undefined, {
    message: serviceWords.BODY_NO_PROVIDER,

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
  if (item && op.items) shape[op.items.listMember] = z.array(item).min(1, serviceWords.BODY_NO_ITEMS);

  return z.strictObject(shape);
}
