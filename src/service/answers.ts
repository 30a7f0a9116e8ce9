/**
 * The service's answers, docs/contract.md §1.1 and §1.2: the lookups and a number's PortInStatus
 * (parsed into catalog/account.ts's types), the TicketResponse of a POST and the error body.
 * Lookups are read tolerantly (docs/contract.md §1.1): member names in any case, numbers as integers
 * or numeric strings. Anything that is not a list of such objects is refused.
 */
import { z } from "zod";
import { once } from "../once.js";
import * as serviceWords from "../messages/service.js";
import { parseNanp } from "../validate/nanp.js";
import { readRangeEnds } from "../validate/ranges.js";
import type { AccountOrder, Holiday, Offering, PortabilityReply, PortInStatus, Provider, RejectDetail, Trunk } from "../catalog/account.js";

/** An object's members with their names in lower case: answers are read whatever the case of their names (docs/contract.md §1.1). */
export function lowerKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
}
export const tolerant = <T extends z.ZodType>(schema: T) => z.preprocess(lowerKeys, schema);
const intLike = z.union([z.number().int(), z.string().trim().regex(/^\d+$/).transform(Number)]);

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

/** One port-in order's status, by its ticket (docs/contract.md §1.4). */
export function ticketStatusPath(ticketId: string): string {
  return `/v2/NumberPorts/Inbound/Tickets/${encodeURIComponent(ticketId)}/PortInStatus`;
}

/** docs/contract.md §1.1: the days on which the service ports nothing. */
export const HOLIDAYS_PATH = "/Holidays";

/**
 * `[{"Date": "2026-12-25T00:00:00", "Name": "Christmas Day"}]`, read tolerantly like the other
 * lookups: member names in any case, the date with or without a time (the day is the date's
 * own, never shifted by a time zone), the name optional.
 */
export const holidayListSchema = z.array(
  tolerant(
    z.object({
      date: z
        .string()
        .trim()
        .regex(/^\d{4}-\d{2}-\d{2}(?:[T ].*)?$/, { message: serviceWords.NOT_A_HOLIDAY_DATE })
        .transform((d) => d.slice(0, 10)),
      name: z.string().nullish(),
    }),
  ).transform((h): Holiday => ({ date: h.date, name: h.name?.trim() ?? "" })),
);

/** docs/contract.md §1.4: the NPA-NXX prefixes the service ports in, and the check of one. */
export const NPANXX_PATH = "/NumberPorts/LNP/NPANXX";
export const NPANXX_CHECK_PATH = "/NumberPorts/LNP/NPANXX/Check";

/** A member read as text: strings as they are, numbers written out, anything else "". */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "";
}

/**
 * RejectDetails entries are read member by member, keys compared case-insensitively
 * (`"RJCT CODE"`); an entry that is not an object is skipped rather than losing the whole
 * answer: a status without its details is still worth reporting.
 */
function rejectDetailsOf(value: unknown): RejectDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): RejectDetail[] => {
    const members = lowerKeys(entry);
    if (members === null || typeof members !== "object" || Array.isArray(members)) return [];
    const get = (name: string): string => textOf((members as Record<string, unknown>)[name]).trim();
    return [{ code: get("rjct code"), field: get("fld abbr"), remarks: get("rjct remarks"), note: get("remarks") }];
  });
}

/** NumbersToPort as 10-digit strings; entries that are not NANP numbers are left out. */
function numbersOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const digits = textOf(entry).replace(/^\+?1(?=\d{10}$)/, "");
    return /^\d{10}$/.test(digits) ? [digits] : [];
  });
}

export const portInStatusSchema = once(() =>
  tolerant(
    z.object({
      ticketid: z.union([z.string(), z.number()]).transform(String),
      status: z.string(),
      portdate: z.string().nullish(),
      rejectreason: z.string().nullish(),
      rejectsummary: z.string().nullish(),
      rejectdetails: z.unknown().optional().transform(rejectDetailsOf),
      numberstoport: z.unknown().optional().transform(numbersOf),
      accountnumber: z.union([z.string(), z.number()]).nullish(),
      endusername: z.string().nullish(),
    }),
  ).transform(
    (s): PortInStatus => ({
      ticketId: s.ticketid,
      status: s.status,
      portDate: s.portdate ?? "",
      rejectReason: s.rejectreason ?? "",
      rejectSummary: s.rejectsummary ?? "",
      rejectDetails: s.rejectdetails,
      numbersToPort: s.numberstoport,
      accountNumber: s.accountnumber == null ? "" : String(s.accountnumber),
      endUserName: s.endusername ?? "",
    }),
  ),
);

/** docs/contract.md §1.1: every port-in order on the account, however it was placed. */
export const ORDER_LIST_PATH = "/v2/NumberPorts/Inbound/Dashboard/PortInInfo";

/** A run of numbers of one NPA-NXX, as AccountOrder holds it. */
type NumberRun = { readonly first: string; readonly last: string };

/**
 * A TnRange as runs of one NPA-NXX each, in any writing the service or a person at its portal
 * gives one number or a range: `4165550101`, `(416) 555-0101`, `+1 416 555 0101`,
 * `4165550100-0199`, `4165550100-4165550199`, `416-555-0100 to 0199`; null for text that is
 * none of these, which the order list keeps as unread (docs/contract.md §5): its numbers are
 * then found by their digits alone.
 */
export function parseTnRange(text: string): NumberRun[] | null {
  const one = parseNanp(text);
  if (one.ok) return [{ first: one.digits, last: one.digits }];
  const range = readRangeEnds(text.trim());
  if (range?.kind !== "range") return null;
  // A run that crosses into the next NPA-NXX is cut where the exchange changes: ranges are matched by NPA-NXX.
  const runs: NumberRun[] = [];
  for (let first = Number(range.first); first <= Number(range.last); ) {
    const endOfBlock = Math.min(Number(range.last), Math.floor(first / 10_000) * 10_000 + 9_999);
    runs.push({ first: String(first), last: String(endOfBlock) });
    first = endOfBlock + 1;
  }
  return runs;
}

/**
 * The order list, read as tolerantly as the lookups: member names in any case, OrderID as
 * number or text, a request that cannot be read left out rather than losing the whole list.
 * A TnRange that cannot be read is kept as text (`unread`), never dropped: a number it holds
 * must not be sent as if no order held it (engine/account-orders.ts). An answer without an
 * `Orders` list is refused.
 */
const tnRangeSchema = tolerant(z.object({ tnrange: z.union([z.string(), z.number()]).transform(String) }));
const orderRequestSchema = tolerant(
  z.object({
    requestidx: z.unknown().optional(),
    assessment: z.string().nullish(),
    numbertoport: z.array(z.unknown()).nullish(),
  }),
);
const orderSchema = tolerant(
  z.object({
    orderid: z.union([z.string(), z.number()]).transform(String),
    requests: z.array(z.unknown()).nullish(),
  }),
);
export const orderListSchema = tolerant(z.object({ orders: z.array(z.unknown()) })).transform((list): AccountOrder[] => list.orders.flatMap(accountOrdersOf));

/**
 * One entry of the list's `Orders` as the orders portin reads (each request of an order counts
 * as one); none when the entry cannot be read. order-stream.ts reads the list entry by entry.
 */
export function accountOrdersOf(entry: unknown): AccountOrder[] {
  const order = orderSchema.safeParse(entry);
  if (!order.success) return [];
  const requests = order.data.requests ?? [];
  return requests.flatMap((item, i): AccountOrder[] => {
    const request = orderRequestSchema.safeParse(item);
    if (!request.success) return [];
    const ranges: NumberRun[] = [];
    const unread: string[] = [];
    for (const tn of request.data.numbertoport ?? []) {
      const entry = tnRangeSchema.safeParse(tn);
      const text = entry.success ? entry.data.tnrange : JSON.stringify(tn);
      const runs = parseTnRange(text);
      if (runs === null) unread.push(text);
      else ranges.push(...runs);
    }
    const orderId = requests.length === 1 ? order.data.orderid : `${order.data.orderid}/${i}`;
    return [{ orderId, open: !/^\s*closed\s*$/i.test(request.data.assessment ?? ""), ranges, unread }];
  });
}

/** GET /NumberPorts/LNP/NPANXX: 6-digit integers, or digit strings. */
export const npaNxxListSchema = once(() =>
  z.array(
    z.union([z.number().int(), z.string().trim().regex(/^\d+$/).transform(Number)]).refine((n) => n >= 200_200 && n <= 999_999, {
      message: serviceWords.NOT_AN_NPA_NXX,

    }),
  ),
);

/** POST /NumberPorts/LNP/NPANXX/Check: `{Number, Reply, Message}`, Reply 1 portable, 0 not. */
export const portabilityReplySchema = once(() =>
  tolerant(
    z.object({
      reply: z.union([z.literal([0, 1]), z.literal(["0", "1"]).transform(Number)]),
      message: z.string().nullish(),
    }),
  ).transform((r): PortabilityReply => ({ portable: r.reply === 1, message: r.message ?? "" })),
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
export const ticketResponseSchema = once(() =>
  tolerant(
    z.object({
      ticketmask: z.union([z.string(), z.number()]).nullish().transform((t) => (t == null ? "" : String(t))),
      reply: z.union([z.literal([0, 1, 2, 3, 4]), z.literal(["0", "1", "2", "3", "4"]).transform(Number)]),
      message: z.string().nullish(),
    }),
  ).transform((t): TicketResponse => ({ ticketMask: t.ticketmask, reply: t.reply as ReplyCode, message: t.message ?? "" })),
);

/** The service's error body. */
export const exceptionSchema = once(() =>
  tolerant(
    z.object({ id: z.union([z.string(), z.number()]).nullish(), message: z.string().nullish() }),
  ).transform((e) => ({ id: e.id == null ? "" : String(e.id), message: e.message ?? "" })),
);

/** Serializers for the sandbox, so it answers in the service's own spelling. */
export function ticketResponseJson(t: TicketResponse): Record<string, unknown> {
  return { TicketMask: t.ticketMask, Reply: t.reply, Message: t.message };
}
export function exceptionJson(id: string, message: string): Record<string, unknown> {
  return { ID: id, Message: message };
}
