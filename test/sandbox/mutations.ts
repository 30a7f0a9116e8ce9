/**
 * Mutated copies of a golden body, generated systematically: each breaks one rule of
 * docs/contract.md §1.2 and says which member a refusal must name. What the contract requires and
 * allows is stated here from SPEC, not taken from the client or the sandbox, so that
 * neither can grade its own homework.
 */
// docs/contract.md §1.2's required PortForm members, as the client's catalog has them: the
// sandbox, reading the contract on its own, must refuse a body without any of them.
import { REGULAR_PROVIDER_MEMBERS, REQUIRED_PORT_FORM_MEMBERS } from "../../src/catalog/members.js";
import type { Body, Golden } from "./golden.js";

export type Family =
  | "missing"
  | "type"
  | "value"
  | "unknown"
  | "item-kind"
  | "operation"
  | "form"
  // Rules no body schema expresses: across members, or against the account's lookups.
  | "numbers"
  | "account";

export const FAMILIES: Readonly<Record<Family, string>> = {
  missing: "without one of its required members",
  type: "with one member of the wrong JSON type",
  value: "with one member of the right type but out of its range or format",
  unknown: "with a member the contract does not know",
  "item-kind": "with a member of another item kind in an item",
  operation: "with a top-level member of another operation",
  form: "with a PortForm member of the other number kind",
  numbers: "whose numbers and items disagree, or whose numbers are of the wrong kind",
  account: "naming a trunk, offering, plan or provider the account does not have",
};

export const SHAPE_FAMILIES: readonly Family[] = ["missing", "type", "value", "unknown", "item-kind", "operation", "form"];

export interface Mutation {
  readonly family: Family;
  /** What was changed, for a failure report. */
  readonly what: string;
  readonly body: Body;
  /** The path a part of the refusal must start with; "" for the body itself. */
  readonly at: string;
  /** Text that part must also hold, such as the member's name. */
  readonly member?: string;
}

/** docs/contract.md §1.2: PortForm members of one kind of number only, with a well-typed value each. */
const REGULAR_ONLY: Body = {
  NumbersToRemain: [4165550120],
  NumbersToDisconnect: [4165550121],
  ChangePilotNumber: true,
  NewPilotNumber: 4165550100,
  IsPRIMegaLink: true,
  PRIMegalinkCircuit: "CKT-TOR-0042",
  PRIMegalinkRemainActive: false,
};
const TOLL_FREE_ONLY: Body = {
  FileRespOrgForm: [{ FileName: "resporg.pdf", ContentType: "application/pdf", Base64Contents: "JVBERi0xLjQK" }],
};

/** Item members that only some kinds take, and the placements of an item's number and plan. */
const KIND_SPECIFIC: Body = {
  Account: 1001,
  Enabled: true,
  Locale: 2,
  SecondLocale: 9,
  BusinessGroupID: "BG-1",
  PCFProvisioningInstructions: "Forward all calls",
  ForwardingTN: 4165550900,
  Label: "Desk",
  AdditionalLabel: "East wing",
  Number: 4165550109,
  TN: 4165550109,
  PlanID: "OFF-RES-001",
};

/** Every top-level member some operation takes (docs/contract.md §1.2's "Body" column). */
const TOP_LEVEL: Body = {
  PilotNumber: 4165550100,
  OfferingID: "OFF-GEN-001",
  ParentSubscriptionID: "SUB-20931",
  BusinessGroupSubscriptionID: "BGS-4410",
  FaxEmail: "fax@example.ca",
  DIDs: [],
  Lines: [],
  Forwards: [],
  ForwardingInstructions: [],
};

/** docs/contract.md §1.2 "Member types": the members that hold telephone numbers. */
const TELEPHONE_NUMBERS = new Set([
  "PilotNumber",
  "Number",
  "TN",
  "ForwardingTN",
  "CallForwardingNumber",
  "CallerID",
  "TranslatedNumber",
  "NewPilotNumber",
  "SubmitterPhoneNumber",
  "NumbersToPort",
  "NumbersToRemain",
  "NumbersToDisconnect",
]);

/** Right JSON type, wrong value: by member name. */
const OUT_OF_RANGE: Readonly<Record<string, readonly unknown[]>> = {
  Locale: [7, -1, 2.5],
  SecondLocale: [7, 8, 2.5],
  Account: [1001.5],
  Extension: [200.5],
  CallForwardingDelay: [20.5],
  Surecall: [1.5],
  CurrentProvider: [0, -17, 17.5],
  CustomerCountry: ["Canada", "ca"],
  RequestedPortDate: ["2026-13-01", "12/08/2026", "2026-12-8"],
  RequestedPortTime: ["9:30", "24:00", "09:30:00"],
  Base64Contents: ["not base64!"],
};
/** Strings the contract lets be empty: an extra detail's value, and an empty file. */
const MAY_BE_EMPTY = new Set(["Value", "Base64Contents"]);
/** 9 digits, 11 with the country code, an area code and an exchange starting with 1. */
const NOT_NANP = [416555010, 14165550101, 1165550101, 4161550101];

type Path = readonly (string | number)[];
const show = (path: Path): string => path.join(".");
const isRecord = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

function edit(body: Body, path: Path, apply: (parent: Body, key: string) => void): Body {
  const copy = structuredClone(body);
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[String(key)] as Body;
  apply(parent, String(path[path.length - 1]));
  return copy;
}
const set = (body: Body, path: Path, value: unknown): Body => edit(body, path, (parent, key) => (parent[key] = value));
const remove = (body: Body, path: Path): Body => edit(body, path, (parent, key) => delete parent[key]);
const add = (body: Body, path: Path, members: Body): Body => edit(body, [...path, ""], (parent) => Object.assign(parent, members));

function valueAt(body: Body, path: Path): unknown {
  let value: unknown = body;
  for (const key of path) value = (value as Body)[String(key)];
  return value;
}

/** Every member and list element below the body, but only the first element of each list. */
function* nodes(value: unknown, path: Path = []): Generator<{ path: Path; value: unknown }> {
  if (path.length > 0) yield { path, value };
  if (Array.isArray(value)) {
    if (value.length > 0) yield* nodes(value[0], [...path, 0]);
  } else if (isRecord(value)) {
    for (const [key, member] of Object.entries(value)) yield* nodes(member, [...path, key]);
  }
}

/** The member a node belongs to: its own key, or its list's for a list element. */
function memberOf(path: Path): string {
  return String([...path].reverse().find((key) => typeof key === "string") ?? "");
}

function wrongType(value: unknown): unknown {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return /^\d+$/.test(value) ? Number(value) : 1;
  if (Array.isArray(value)) return value[0];
  return Object.values(value as Body)[0];
}

const brief = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export function mutationsOf(golden: Golden, body: Body): Mutation[] {
  const out: Mutation[] = [];
  const push = (family: Family, what: string, mutated: Body, at: Path, member?: string) =>
    out.push({ family, what, body: mutated, at: show(at), ...(member === undefined ? {} : { member }) });
  const form = body["PortForm"] as Body;
  const items = golden.items;
  const item0: Path = items ? [items.list, 0] : [];
  const numberPath = (i: number): Path => (items ? [items.list, i, ...items.numberAt.split(".")] : []);

  // missing
  const required: Path[] = [
    ["PortForm"],
    ["PortForm", "NumbersToPort"],
    ...REQUIRED_PORT_FORM_MEMBERS.map((m) => ["PortForm", m]),
    ...golden.required.map((m) => [m]),
  ];
  if (items) {
    const numberKeys = items.numberAt.split(".");
    numberKeys.forEach((_, depth) => required.push([...item0, ...numberKeys.slice(0, depth + 1)]));
    required.push(...items.required.map((m) => [...item0, m]));
  }
  for (const { path, value } of nodes(body)) {
    const list = path[path.length - 2];
    const attachment = typeof list === "string" && (list.startsWith("File") || list === "ExtraDetails");
    if (attachment && isRecord(value)) required.push(...Object.keys(value).map((m) => [...path, m]));
  }
  for (const path of required) push("missing", `${show(path)} removed`, remove(body, path), path);
  if (golden.numbers === "regular") {
    const without = REGULAR_PROVIDER_MEMBERS.reduce((b, m) => remove(b, ["PortForm", m]), body);
    push("missing", "both CurrentProvider and CurrentReseller removed", without, ["PortForm", "CurrentProvider"]);
  }

  for (const { path, value } of nodes(body)) {
    // type
    const swapped = wrongType(value);
    push("type", `${show(path)} as ${brief(swapped)}`, set(body, path, swapped), path);
    // value
    const name = memberOf(path);
    const bad = [
      ...(OUT_OF_RANGE[name] ?? []),
      ...(TELEPHONE_NUMBERS.has(name) && typeof value === "number" ? NOT_NANP : []),
      ...(typeof value === "string" && !MAY_BE_EMPTY.has(name) ? [""] : []),
      ...((name === "NumbersToPort" || name === items?.list) && Array.isArray(value) ? [[]] : []),
    ];
    for (const v of bad) push("value", `${show(path)} as ${brief(v)}`, set(body, path, v), path);
    // unknown
    if (isRecord(value)) push("unknown", `Nickname added to ${show(path)}`, add(body, path, { Nickname: "Acme" }), path, "Nickname");
  }
  push("unknown", "Nickname added to the body", add(body, [], { Nickname: "Acme" }), [], "Nickname");

  // item-kind
  if (items) {
    const first = valueAt(body, item0) as Body;
    const own = new Set([...items.required, ...items.takes, ...Object.keys(first)]);
    for (const [member, value] of Object.entries(KIND_SPECIFIC)) {
      if (!own.has(member)) push("item-kind", `${member} added to ${show(item0)}`, add(body, item0, { [member]: value }), item0, member);
    }
  }

  // operation
  for (const [member, value] of Object.entries(TOP_LEVEL)) {
    if (!(member in body)) push("operation", `${member} added to the body`, add(body, [], { [member]: value }), [], member);
  }

  // form
  const otherKind = golden.numbers === "regular" ? TOLL_FREE_ONLY : REGULAR_ONLY;
  for (const [member, value] of Object.entries(otherKind)) {
    push("form", `${member} added to a ${golden.numbers} PortForm`, add(body, ["PortForm"], { [member]: value }), ["PortForm"], member);
  }

  // numbers
  const listed = form["NumbersToPort"] as number[];
  const first = listed[0] as number;
  const last = listed.length - 1;
  push("numbers", "NumbersToPort lists its first number twice", set(body, ["PortForm", "NumbersToPort"], [...listed, first]), ["PortForm", "NumbersToPort"], `${first} is listed twice`);
  if (items) {
    const itemList = body[items.list] as Body[];
    push("numbers", "NumbersToPort misses its last number", set(body, ["PortForm", "NumbersToPort"], listed.slice(0, -1)), numberPath(last), "PortForm.NumbersToPort");
    const extra = golden.numbers === "regular" ? 4165550177 : 8335550177;
    push("numbers", `NumbersToPort lists ${extra}, which has no item`, set(body, ["PortForm", "NumbersToPort"], [...listed, extra]), ["PortForm", "NumbersToPort"], String(extra));
    push("numbers", "the first item repeated at the end", set(body, [items.list], [...itemList, itemList[0]]), numberPath(itemList.length), `repeats ${show(item0)}`);
  }
  const otherNumber = golden.numbers === "regular" ? 8555550100 : 4165550150;
  let swapped = set(body, ["PortForm", "NumbersToPort", 0], otherNumber);
  if (items) swapped = set(swapped, numberPath(0), otherNumber);
  push("numbers", `${otherNumber} in place of ${first}`, swapped, ["PortForm", "NumbersToPort"], String(otherNumber));

  // account
  if ("PilotNumber" in body) push("account", "a pilot number that is not a trunk", set(body, ["PilotNumber"], 6045550101), ["PilotNumber"], "6045550101");
  if ("OfferingID" in body) push("account", "an offering of Type 9", set(body, ["OfferingID"], "OFF-LEG-009"), ["OfferingID"], "OFF-LEG-009");
  if (items?.required.includes("PlanID")) push("account", "a plan of Type 9", set(body, [...item0, "PlanID"], "OFF-LEG-009"), [...item0, "PlanID"], "OFF-LEG-009");
  if ("CurrentProvider" in form) push("account", "an unknown provider ID", set(body, ["PortForm", "CurrentProvider"], 9999), ["PortForm", "CurrentProvider"], "9999");
  return out;
}

/** Copies the contract accepts: each optional member left out in turn, and the other way of naming the losing carrier. */
export function acceptableVariantsOf(golden: Golden, body: Body): { what: string; body: Body }[] {
  const out: { what: string; body: Body }[] = [];
  const form = body["PortForm"] as Body;
  const requiredInForm = new Set<string>([...REQUIRED_PORT_FORM_MEMBERS, "NumbersToPort", ...(golden.numbers === "regular" ? REGULAR_PROVIDER_MEMBERS : [])]);
  for (const member of Object.keys(form)) {
    if (!requiredInForm.has(member)) out.push({ what: `without PortForm.${member}`, body: remove(body, ["PortForm", member]) });
  }
  const items = golden.items;
  if (items) {
    const ownsNumber = items.numberAt.split(".")[0] as string;
    const keep = new Set([...items.required, ownsNumber]);
    for (const member of Object.keys(valueAt(body, [items.list, 0]) as Body)) {
      if (!keep.has(member)) out.push({ what: `without ${items.list}.0.${member}`, body: remove(body, [items.list, 0, member]) });
    }
  }
  if (golden.numbers === "regular") {
    const reseller = remove(add(body, ["PortForm"], { CurrentReseller: "Distributel" }), ["PortForm", "CurrentProvider"]);
    out.push({ what: "with CurrentReseller in place of CurrentProvider", body: reseller });
    out.push({ what: "with both CurrentProvider and CurrentReseller", body: add(reseller, ["PortForm"], { CurrentProvider: 17 }) });
  }
  return out;
}

/** Whether a refusal message has a part for the mutation's path that holds its member. */
export function namesMember(message: string, mutation: Mutation): boolean {
  return message.split("; ").some((part) => {
    const placed = mutation.at === "" ? !/^[\w.]+: /.test(part) : part.startsWith(`${mutation.at}: `) || part.startsWith(`${mutation.at}.`);
    return placed && (mutation.member === undefined || part.includes(mutation.member));
  });
}
