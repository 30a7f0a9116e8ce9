/**
 * Which route a path names. The port-in paths are the sandbox's own (contract.ts), so that
 * a client whose route table misspells one finds out here, not in production; the lookup
 * paths come from service/answers.ts. Matching is exact and case-sensitive.
 */
import { HOLIDAYS_PATH, LOOKUPS, NPANXX_CHECK_PATH, NPANXX_PATH, portInStatusPath, ticketStatusPath } from "../service/answers.js";
import type { PortInOperation } from "./contract.js";
import { PORT_IN_OPERATIONS } from "./contract.js";
import { ORDER_LIST_PATH } from "./order-list.js";
import { trunkDidPath, v911RecordPath, V911_PATH, V911_VERIFY_PATH } from "../service/v911.js";

export type LookupName = keyof typeof LOOKUPS;

export type Route =
  | { readonly kind: "lookup"; readonly method: "GET"; readonly lookup: LookupName }
  | { readonly kind: "status"; readonly method: "GET"; readonly number: string }
  | { readonly kind: "operation"; readonly method: "POST"; readonly operation: PortInOperation }
  | { readonly kind: "requests"; readonly method: "GET" }
  | { readonly kind: "ticket-status"; readonly method: "GET"; readonly ticket: string }
  | { readonly kind: "npanxx"; readonly method: "GET" }
  | { readonly kind: "order-list"; readonly method: "GET" }
  | { readonly kind: "holidays"; readonly method: "GET" }
  | { readonly kind: "npanxx-check"; readonly method: "POST" }
  /** GET reads the sandbox's calendar, POST advances it; no credentials, like REQUESTS_PATH. */
  | { readonly kind: "clock"; readonly method: "GET" | "POST" }
  /** Places an order as the web portal would; no credentials, like CLOCK_PATH. */
  | { readonly kind: "portal-order"; readonly method: "POST" }
  /** docs/contract.md §1.5: is this 9-1-1 address one the database knows? */
  | { readonly kind: "v911-verify"; readonly method: "POST" }
  /** Registers a number's 9-1-1 record. */
  | { readonly kind: "v911-register"; readonly method: "POST" }
  /** GET reads a number's 9-1-1 record, PUT replaces it. */
  | { readonly kind: "v911-record"; readonly method: "GET" | "PUT"; readonly number: string }
  /** Whether a number is on a trunk. */
  | { readonly kind: "trunk-did"; readonly method: "GET"; readonly pilot: string; readonly number: string };

/** Where the sandbox's own routes live; none of them needs credentials. */
export const SANDBOX_PATHS = "/_sandbox/";

/** The sandbox's own inspection route; it needs no credentials. */
export const REQUESTS_PATH = "/_sandbox/requests";

/** The sandbox's calendar (sandbox/clock.ts). */
export const CLOCK_PATH = "/_sandbox/clock";

/** Orders placed in the web portal (sandbox/portal.ts). */
export const PORTAL_ORDERS_PATH = "/_sandbox/orders";

const STATUS_MARK = "\u0000";
const [STATUS_PREFIX = "", STATUS_SUFFIX = ""] = portInStatusPath(STATUS_MARK).split(STATUS_MARK);
const [V911_PREFIX = "", V911_SUFFIX = ""] = v911RecordPath(STATUS_MARK).split(STATUS_MARK);
const TRUNK_DID = /^\/SipTrunks\/(\d{10})\/Dids\/(\d{10})$/;
const TICKET_MARK = "TICKET";
const [TICKET_PREFIX = "", TICKET_SUFFIX = ""] = ticketStatusPath(TICKET_MARK).split(TICKET_MARK);

/** The segment between a route's prefix and suffix, or null when the path is not that route's. */
function segment(pathname: string, prefix: string, suffix: string): string | null {
  if (!pathname.startsWith(prefix) || !pathname.endsWith(suffix) || pathname.length <= prefix.length + suffix.length) return null;
  const middle = pathname.slice(prefix.length, pathname.length - suffix.length);
  return middle.includes("/") ? null : middle;
}

export function matchRoute(pathname: string): Route | null {
  if (pathname === REQUESTS_PATH) return { kind: "requests", method: "GET" };
  if (pathname === CLOCK_PATH) return { kind: "clock", method: "POST" };
  if (pathname === PORTAL_ORDERS_PATH) return { kind: "portal-order", method: "POST" };
  if (pathname === NPANXX_PATH) return { kind: "npanxx", method: "GET" };
  if (pathname === ORDER_LIST_PATH) return { kind: "order-list", method: "GET" };
  if (pathname === HOLIDAYS_PATH) return { kind: "holidays", method: "GET" };
  if (pathname === NPANXX_CHECK_PATH) return { kind: "npanxx-check", method: "POST" };
  if (pathname === V911_VERIFY_PATH) return { kind: "v911-verify", method: "POST" };
  if (pathname === V911_PATH) return { kind: "v911-register", method: "POST" };
  for (const lookup of Object.keys(LOOKUPS) as LookupName[]) {
    if (LOOKUPS[lookup].path === pathname) return { kind: "lookup", method: "GET", lookup };
  }
  const operation = PORT_IN_OPERATIONS.find((op) => op.path === pathname);
  if (operation) return { kind: "operation", method: "POST", operation };
  const number = segment(pathname, STATUS_PREFIX, STATUS_SUFFIX);
  if (number !== null) return { kind: "status", method: "GET", number };
  const v911Number = segment(pathname, V911_PREFIX, V911_SUFFIX);
  if (v911Number !== null) return { kind: "v911-record", method: "GET", number: v911Number };
  const onTrunk = TRUNK_DID.exec(pathname);
  if (onTrunk !== null && pathname === trunkDidPath(onTrunk[1] ?? "", onTrunk[2] ?? "")) {
    return { kind: "trunk-did", method: "GET", pilot: onTrunk[1] ?? "", number: onTrunk[2] ?? "" };
  }
  const ticket = segment(pathname, TICKET_PREFIX, TICKET_SUFFIX);
  if (ticket !== null) {
    try {
      return { kind: "ticket-status", method: "GET", ticket: decodeURIComponent(ticket) };
    } catch {
      return null;
    }
  }
  return null;
}
