/**
 * `portin template` (docs/contract.md §2, §3): the columns one operation takes, required first
 * and then optional, and an example row that `plan` accepts as written, built from the
 * account's own trunks, offerings and providers.
 */
import type { Lookups } from "../catalog/account.js";
import { ITEM_MEMBERS, REGULAR_PROVIDER_MEMBERS, REQUIRED_PORT_FORM_MEMBERS, membersOf, portFormTakes } from "../catalog/members.js";
import type { Operation } from "../catalog/operations.js";
import { portinOwner } from "./columns.js";
import * as sheetWords from "../messages/sheet.js";
import { E911_MEMBERS } from "../catalog/e911.js";

export interface Template {
  readonly header: readonly string[];
  /** One row of example values: required cells filled, optional ones empty. */
  readonly example: readonly string[];
  /** What the account lacks for the example to pass `plan` (no trunk, no offering of the Type), if anything. */
  readonly missing: string | null;
}

/** Example values of the required members, in the writings §3 reads; the account's own for targets and providers. */
const EXAMPLES: Readonly<Record<string, string>> = {
  "portform.CustomerAccountNumber": "ACME-0001",
  "portform.CustomerName": "Acme Plumbing Ltd.",
  "portform.CustomerStreetNumber": "120",
  "portform.CustomerStreetName": "King St W",
  "portform.CustomerCity": "Toronto",
  "portform.CustomerProvince": "ON",
  "portform.CustomerPostalCode": "M5H 1J9",
  "portform.CustomerCountry": "CA",
  "portform.EmailAddress": "it@acme.example",
  "request.ParentSubscriptionID": "SUB-000123",
  "request.BusinessGroupSubscriptionID": "BGS-000123",
  "request.FaxEmail": "fax@acme.example",
  "item.Account": "300451",
  "item.Enabled": "true",
  "item.Locale": "EnglishCA",
  "item.SecondLocale": "FrenchCA",
  "item.BusinessGroupID": "BG-0001",
  "item.CallForwardingNumber": "416-555-0199",
  "item.PCFProvisioningInstructions": sheetWords.TEMPLATE_PCF_EXAMPLE,

  "item.ForwardingTN": "416-555-0199",
};

/** Fictional 555-01XX numbers: valid NANP, in no real customer's sheet. */
const EXAMPLE_NUMBER = { regular: "416-555-0123", "toll-free": "1-888-555-0123" } as const;

export function templateFor(op: Operation, account: Lookups): Template {
  const required: string[] = ["number", op.targetKind === "trunk" ? "pilot_number" : "offering_id"];
  required.push(...REQUIRED_PORT_FORM_MEMBERS.map((name) => `portform.${name}`));
  // One of the two is required on a regular form: the provider, which most sheets name.
  if (op.numberKind === "regular") required.push(`portform.${REGULAR_PROVIDER_MEMBERS[0]}`);
  required.push(...op.requiredRequestMembers.map((name) => `request.${name}`));
  if (op.items !== null) required.push(...ITEM_MEMBERS[op.items.kind].required.map((name) => `item.${name}`));

  const optional: string[] = ["group"];
  for (const member of membersOf("portform")) {
    const column = `portform.${member.name}`;
    // ExtraDetails takes one column per key, named by the user: portform.ExtraDetails.<Key>.
    if (member.type === "extraDetails" || portinOwner("portform", member.name) !== undefined) continue;
    if (portFormTakes(member, op.numberKind) && !required.includes(column)) optional.push(column);
  }
  for (const name of op.requestMembers) if (!required.includes(`request.${name}`)) optional.push(`request.${name}`);
  if (op.items !== null) {
    const { required: needed, accepted } = ITEM_MEMBERS[op.items.kind];
    for (const member of membersOf("item")) if (accepted.has(member.name) && !needed.includes(member.name)) optional.push(`item.${member.name}`);
  }

  // docs/contract.md §2 "9-1-1 addresses": a regular number on a trunk takes its 9-1-1 address.
  if (op.numberKind === "regular" && op.targetKind === "trunk") optional.push(...E911_MEMBERS.map((member) => `e911.${member}`));

  const trunk = account.trunks[0];
  const offering = account.offerings.find((o) => o.type === op.offeringType);
  const provider = account.providers[0];
  const filled: Record<string, string> = {
    ...EXAMPLES,
    number: EXAMPLE_NUMBER[op.numberKind],
    pilot_number: trunk?.pilotNumber ?? "",
    offering_id: offering?.offeringId ?? "",
    "portform.CurrentProvider": provider?.name ?? "",
  };
  let missing: string | null = null;
  if (op.targetKind === "trunk" && trunk === undefined) missing = sheetWords.TEMPLATE_NO_TRUNK;
  if (op.targetKind === "offering" && offering === undefined) missing = sheetWords.templateNoOffering(String(op.offeringType ?? "?"));
  if (op.numberKind === "regular" && provider === undefined) missing = sheetWords.TEMPLATE_NO_PROVIDER;

  const header = [...required, ...optional];
  return { header, example: header.map((column) => (required.includes(column) ? (filled[column] ?? "") : "")), missing };
}
