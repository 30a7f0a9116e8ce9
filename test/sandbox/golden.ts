/**
 * The golden request bodies in fixtures/golden: one literal body per port-in operation,
 * written by hand from docs/contract.md §1.2 and never by running portin, so that the body builder
 * (test/service) and the sandbox (test/sandbox) are each held to the contract rather than
 * to each other. What SPEC requires of each is stated here too, for the mutated copies.
 */
import { readFileSync } from "node:fs";
import { fixture, type FixtureIn } from "../e2e/fixtures.js";

export type Body = Record<string, unknown>;

export interface Golden {
  readonly file: FixtureIn<"golden">;
  /** The operation's path, from the table in docs/contract.md §1.2. */
  readonly path: string;
  readonly numbers: "regular" | "toll-free";
  /** Top-level members SPEC requires besides PortForm: the target, the starred request members, the item list. */
  readonly required: readonly string[];
  readonly items: {
    readonly list: string;
    /** Where each item holds its number. */
    readonly numberAt: "Number" | "Number.Number" | "TN";
    /** The kind's required members, and PlanID where the offering rides in the items; the number is required too. */
    readonly required: readonly string[];
    /** Members that only some item kinds take (see KIND_SPECIFIC) and this kind takes without requiring them. */
    readonly takes: readonly string[];
  } | null;
}

const LABELS = ["Label", "AdditionalLabel"];

export const GOLDEN: readonly Golden[] = [
  {
    file: "dids.json",
    path: "/v2/NumberPorts/Inbound/DIDs",
    numbers: "regular",
    required: ["PilotNumber", "DIDs"],
    items: { list: "DIDs", numberAt: "Number", required: [], takes: LABELS },
  },
  {
    file: "tollfree-dids.json",
    path: "/v2/NumberPorts/Inbound/TollFree/DIDs",
    numbers: "toll-free",
    required: ["PilotNumber", "DIDs"],
    items: { list: "DIDs", numberAt: "Number", required: [], takes: LABELS },
  },
  { file: "general-products.json", path: "/NumberPorts/Inbound/GeneralProducts", numbers: "regular", required: ["OfferingID"], items: null },
  {
    file: "general-child-products.json",
    path: "/NumberPorts/Inbound/GeneralChildProducts",
    numbers: "regular",
    required: ["OfferingID", "ParentSubscriptionID"],
    items: null,
  },
  {
    file: "residential-lines.json",
    path: "/v2/NumberPorts/Inbound/ResidentialLines",
    numbers: "regular",
    required: ["Lines"],
    items: { list: "Lines", numberAt: "Number.Number", required: ["PlanID", "Account", "Enabled", "Locale", "SecondLocale"], takes: LABELS },
  },
  {
    file: "business-lines.json",
    path: "/v2/NumberPorts/Inbound/BusinessLines",
    numbers: "regular",
    required: ["Lines"],
    items: { list: "Lines", numberAt: "Number.Number", required: ["PlanID", "Account", "BusinessGroupID", "Locale", "SecondLocale"], takes: LABELS },
  },
  {
    file: "permanent-call-forwards.json",
    path: "/v2/NumberPorts/Inbound/PermanentCallForwards",
    numbers: "regular",
    required: ["Forwards"],
    items: {
      list: "Forwards",
      numberAt: "Number.Number",
      required: ["PlanID", "Account", "CallForwardingNumber", "Enabled", "PCFProvisioningInstructions"],
      takes: LABELS,
    },
  },
  {
    file: "tollfree-permanent-call-forwards.json",
    path: "/v2/NumberPorts/Inbound/TollFree/PermanentCallForwards",
    numbers: "toll-free",
    required: ["Forwards"],
    items: {
      list: "Forwards",
      numberAt: "Number.Number",
      required: ["PlanID", "Account", "CallForwardingNumber", "Enabled", "PCFProvisioningInstructions"],
      takes: LABELS,
    },
  },
  {
    file: "business-permanent-call-forwards.json",
    path: "/NumberPorts/Inbound/BusinessPermanentCallForwards",
    numbers: "regular",
    required: ["OfferingID", "BusinessGroupSubscriptionID", "ForwardingInstructions"],
    // SPEC gives the labels to DIDs, lines and forwards, not to forwarding instructions.
    items: { list: "ForwardingInstructions", numberAt: "TN", required: ["ForwardingTN"], takes: [] },
  },
  {
    file: "virtual-faxes.json",
    path: "/NumberPorts/Inbound/VirtualFaxes",
    numbers: "regular",
    required: ["OfferingID", "FaxEmail"],
    items: null,
  },
];

/** A fresh copy each time, so that a test may change it. */
export function readGolden(file: FixtureIn<"golden">): Body {
  return JSON.parse(readFileSync(fixture(`golden/${file}`), "utf8")) as Body;
}
