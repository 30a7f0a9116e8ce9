/**
 * What the service refuses with a 400: a body that does not match the operation's schema
 * (service/wire.ts), then the service's own rules about numbers, trunks, offerings and
 * providers. Every problem is reported at once, each naming its member.
 */
import { z } from "zod";
import { OFFERING_TYPES, OPERATIONS, TOLL_FREE_AREA_CODES, describeOperation, isOfferingType } from "../catalog/operations.js";
import type { Operation } from "../catalog/operations.js";
import { LOOKUPS } from "../service/answers.js";
import { bodySchema } from "../service/body-schema.js";
import { itemNumbersOfBody, numbersOfBody } from "../service/body.js";
import { describeIssues } from "../service/zod-issues.js";
import type { SandboxAccount } from "./account.js";


function isTollFree(tenDigits: string): boolean {
  return TOLL_FREE_AREA_CODES.has(tenDigits.slice(0, 3));
}

export type Checked =
  | { readonly ok: true; readonly body: Record<string, unknown>; readonly numbers: string[] }
  | { readonly ok: false; readonly message: string };

// Built once per operation: zod compiles a schema on its first parse, which cost the
// sandbox more CPU per request than everything else it does (issue 5's benchmark).
const schemas = new Map<Operation, ReturnType<typeof bodySchema>>();
function schemaOf(op: Operation): ReturnType<typeof bodySchema> {
  let schema = schemas.get(op);
  if (schema === undefined) {
    schema = bodySchema(op);
    schemas.set(op, schema);
  }
  return schema;
}

export function checkBody(op: Operation, raw: unknown, account: SandboxAccount): Checked {
  const parsed = schemaOf(op).safeParse(raw, { reportInput: true });
  if (!parsed.success) return { ok: false, message: describeIssues(withMissingNamed(parsed.error)) };
  const body = parsed.data;
  const numbers = numbersOfBody(body);
  const problems = [
    ...checkNumbersMatchItems(op, body, numbers),
    ...checkNumberKind(op, numbers),
    ...checkTarget(op, body, account),
    ...checkProvider(body, account),
  ];
  return problems.length > 0 ? { ok: false, message: problems.join("; ") } : { ok: true, body, numbers };
}

/** "is required" reads better than zod's "expected string, received undefined" for an absent member. */
function withMissingNamed(error: z.ZodError): z.ZodError {
  return new z.ZodError(
    error.issues.map((issue) =>
      issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.path.length > 0
        ? { ...issue, message: "required member is missing" }
        : issue,
    ),
  );
}

function checkNumbersMatchItems(op: Operation, body: Record<string, unknown>, numbers: readonly string[]): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const n of numbers) {
    if (listed.has(n)) problems.push(`PortForm.NumbersToPort: ${n} is listed twice`);
    listed.add(n);
  }
  const itemNumbers = itemNumbersOfBody(op, body);
  if (itemNumbers === null || op.items === null) return problems;
  const list = op.items.listMember;
  const member = op.items.numberAt === "TN" ? "TN" : op.items.numberAt === "NestedNumber" ? "Number.Number" : "Number";
  const firstItem = new Map<string, number>();
  itemNumbers.forEach((n, i) => {
    const earlier = firstItem.get(n);
    if (earlier !== undefined) problems.push(`${list}.${i}.${member}: ${n} repeats ${list}.${earlier}`);
    else firstItem.set(n, i);
    if (!listed.has(n)) problems.push(`${list}.${i}.${member}: ${n} is not in PortForm.NumbersToPort`);
  });
  for (const n of listed) {
    if (!firstItem.has(n)) problems.push(`PortForm.NumbersToPort: ${n} has no item in ${list}`);
  }
  return problems;
}

function checkNumberKind(op: Operation, numbers: readonly string[]): string[] {
  const where = describeOperation(op);
  if (op.numberKind === "toll-free") {
    return numbers
      .filter((n) => !isTollFree(n))
      .map((n) => `PortForm.NumbersToPort: ${n} is not a toll-free number (area codes ${[...TOLL_FREE_AREA_CODES].join(", ")}), and ${where} takes toll-free numbers only`);
  }
  const tollFreeTwin = OPERATIONS.find((o) => o.numberKind === "toll-free" && o.targetKind === op.targetKind && o.offeringType === op.offeringType);
  const hint = tollFreeTwin ? `: send it to ${describeOperation(tollFreeTwin)}` : "";
  return numbers.filter(isTollFree).map((n) => `PortForm.NumbersToPort: ${n} is a toll-free number, which ${where} does not take${hint}`);
}

function checkTarget(op: Operation, body: Record<string, unknown>, account: SandboxAccount): string[] {
  if (op.targetMember === "PilotNumber") {
    const pilot = body["PilotNumber"] as number;
    if (account.trunks.some((t) => t.Number === pilot)) return [];
    const known = account.trunks.map((t) => t.Number).join(", ");
    return [`PilotNumber: ${pilot} is not one of the account's SIP trunks (${known})`];
  }
  if (op.targetMember === "OfferingID") return checkOffering(op, "OfferingID", body["OfferingID"] as string, account);
  if (op.items?.planId) {
    const list = op.items.listMember;
    const items = body[list] as readonly Record<string, unknown>[];
    const reported = new Set<string>();
    return items.flatMap((item, i) => {
      const planId = item["PlanID"] as string;
      // One report per distinct plan: a request of 100 lines on one wrong plan is one mistake.
      if (reported.has(planId)) return [];
      reported.add(planId);
      return checkOffering(op, `${list}.${i}.PlanID`, planId, account);
    });
  }
  return [];
}

function checkOffering(op: Operation, member: string, offeringId: string, account: SandboxAccount): string[] {
  const offering = account.offerings.find((o) => o.OfferingID === offeringId);
  if (!offering) return [`${member}: "${offeringId}" is not an offering of the account (see GET ${LOOKUPS.offerings.path})`];
  if (offering.Type === op.offeringType) return [];
  const expected = op.offeringType === null ? "no offering" : describeType(op.offeringType);
  return [`${member}: "${offeringId}" is a ${describeType(offering.Type)} offering, but ${describeOperation(op)} takes ${expected}`];
}

function describeType(type: number): string {
  return isOfferingType(type) ? `Type ${type} (${OFFERING_TYPES[type]})` : `Type ${type}`;
}

function checkProvider(body: Record<string, unknown>, account: SandboxAccount): string[] {
  const form = body["PortForm"] as Record<string, unknown>;
  const provider = form["CurrentProvider"] as number | undefined;
  if (provider === undefined || account.providers.some((p) => p.ID === provider)) return [];
  return [`PortForm.CurrentProvider: ${String(provider)} is not a known provider ID (see GET ${LOOKUPS.providers.path})`];
}
