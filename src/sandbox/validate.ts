/**
 * What the service refuses with a 400: a body whose shape breaks the contract
 * (body-schemas.ts), then the service's own rules about numbers, trunks, offerings and
 * providers. Every problem is reported at once, each naming its member. Nothing here comes
 * from the client's catalog: see contract.ts for why.
 */
import { LOOKUPS } from "../service/answers.js";
import type { SandboxAccount } from "./account.js";
import { checkShape } from "./body-schemas.js";
import type { PortInOperation } from "./contract.js";
import { OFFERING_TYPE_NAMES, PORT_IN_OPERATIONS, TOLL_FREE_AREA_CODES, describePortIn } from "./contract.js";

export type Checked =
  | { readonly ok: true; readonly body: Record<string, unknown>; readonly numbers: string[] }
  | { readonly ok: false; readonly message: string };

type Body = Record<string, unknown>;

function isTollFree(tenDigits: string): boolean {
  return TOLL_FREE_AREA_CODES.has(tenDigits.slice(0, 3));
}

export function checkBody(op: PortInOperation, raw: unknown, account: SandboxAccount): Checked {
  const shaped = checkShape(op, raw);
  if (!shaped.ok) return shaped;
  const body = shaped.body;
  const numbers = ((body["PortForm"] as Body)["NumbersToPort"] as number[]).map(String);
  const problems = [
    ...checkNumbersMatchItems(op, body, numbers),
    ...checkNumberKind(op, numbers),
    ...checkTarget(op, body, account),
    ...checkProvider(body, account),
  ];
  return problems.length > 0 ? { ok: false, message: problems.join("; ") } : { ok: true, body, numbers };
}

/** The number an item carries, as 10 digits; the shape check has made sure it is there. */
function itemNumber(op: PortInOperation, item: Body): string {
  if (op.items?.numberAt === "TN") return String(item["TN"]);
  if (op.items?.numberAt === "Number.Number") return String((item["Number"] as Body)["Number"]);
  return String(item["Number"]);
}

function checkNumbersMatchItems(op: PortInOperation, body: Body, numbers: readonly string[]): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const n of numbers) {
    if (listed.has(n)) problems.push(`PortForm.NumbersToPort: ${n} is listed twice`);
    listed.add(n);
  }
  if (op.items === null) return problems;
  const { list, numberAt } = op.items;
  const firstItem = new Map<string, number>();
  (body[list] as Body[]).forEach((item, i) => {
    const n = itemNumber(op, item);
    const earlier = firstItem.get(n);
    if (earlier !== undefined) problems.push(`${list}.${i}.${numberAt}: ${n} repeats ${list}.${earlier}`);
    else firstItem.set(n, i);
    if (!listed.has(n)) problems.push(`${list}.${i}.${numberAt}: ${n} is not in PortForm.NumbersToPort`);
  });
  for (const n of listed) {
    if (!firstItem.has(n)) problems.push(`PortForm.NumbersToPort: ${n} has no item in ${list}`);
  }
  return problems;
}

function checkNumberKind(op: PortInOperation, numbers: readonly string[]): string[] {
  const where = describePortIn(op);
  if (op.numbers === "toll-free") {
    return numbers
      .filter((n) => !isTollFree(n))
      .map((n) => `PortForm.NumbersToPort: ${n} is not a toll-free number (area codes ${[...TOLL_FREE_AREA_CODES].join(", ")}), and ${where} takes toll-free numbers only`);
  }
  const tollFreeTwin = PORT_IN_OPERATIONS.find((o) => o.numbers === "toll-free" && o.offeringType === op.offeringType);
  const hint = tollFreeTwin ? `: send it to ${describePortIn(tollFreeTwin)}` : "";
  return numbers.filter(isTollFree).map((n) => `PortForm.NumbersToPort: ${n} is a toll-free number, which ${where} does not take${hint}`);
}

function checkTarget(op: PortInOperation, body: Body, account: SandboxAccount): string[] {
  if (op.target === "PilotNumber") {
    const pilot = body["PilotNumber"] as number;
    if (account.trunks.some((t) => t.Number === pilot)) return [];
    const known = account.trunks.map((t) => t.Number).join(", ");
    return [`PilotNumber: ${pilot} is not one of the account's SIP trunks (${known})`];
  }
  if (op.target === "OfferingID") return checkOffering(op, "OfferingID", body["OfferingID"] as string, account);
  if (op.items?.planId) {
    const list = op.items.list;
    const reported = new Set<string>();
    return (body[list] as Body[]).flatMap((item, i) => {
      const planId = item["PlanID"] as string;
      // One report per distinct plan: a request of 100 lines on one wrong plan is one mistake.
      if (reported.has(planId)) return [];
      reported.add(planId);
      return checkOffering(op, `${list}.${i}.PlanID`, planId, account);
    });
  }
  return [];
}

function checkOffering(op: PortInOperation, member: string, offeringId: string, account: SandboxAccount): string[] {
  const offering = account.offerings.find((o) => o.OfferingID === offeringId);
  if (!offering) return [`${member}: "${offeringId}" is not an offering of the account (see GET ${LOOKUPS.offerings.path})`];
  if (offering.Type === op.offeringType) return [];
  const expected = op.offeringType === null ? "no offering" : describeType(op.offeringType);
  return [`${member}: "${offeringId}" is a ${describeType(offering.Type)} offering, but ${describePortIn(op)} takes ${expected}`];
}

function describeType(type: number): string {
  const name = OFFERING_TYPE_NAMES[type];
  return name === undefined ? `Type ${type}` : `Type ${type} (${name})`;
}

function checkProvider(body: Body, account: SandboxAccount): string[] {
  const provider = (body["PortForm"] as Body)["CurrentProvider"] as number | undefined;
  if (provider === undefined || account.providers.some((p) => p.ID === provider)) return [];
  return [`PortForm.CurrentProvider: ${String(provider)} is not a known provider ID (see GET ${LOOKUPS.providers.path})`];
}
