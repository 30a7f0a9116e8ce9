/**
 * Which route a path names. The port-in paths are the sandbox's own (contract.ts), so that
 * a client whose route table misspells one finds out here, not in production; the lookup
 * paths come from service/answers.ts. Matching is exact and case-sensitive.
 */
import { LOOKUPS, portInStatusPath } from "../service/answers.js";
import type { PortInOperation } from "./contract.js";
import { PORT_IN_OPERATIONS } from "./contract.js";

export type LookupName = keyof typeof LOOKUPS;

export type Route =
  | { readonly kind: "lookup"; readonly method: "GET"; readonly lookup: LookupName }
  | { readonly kind: "status"; readonly method: "GET"; readonly number: string }
  | { readonly kind: "operation"; readonly method: "POST"; readonly operation: PortInOperation }
  | { readonly kind: "requests"; readonly method: "GET" };

/** The sandbox's own inspection route; it needs no credentials. */
export const REQUESTS_PATH = "/_sandbox/requests";

const STATUS_MARK = "\u0000";
const [STATUS_PREFIX = "", STATUS_SUFFIX = ""] = portInStatusPath(STATUS_MARK).split(STATUS_MARK);

export function matchRoute(pathname: string): Route | null {
  if (pathname === REQUESTS_PATH) return { kind: "requests", method: "GET" };
  for (const lookup of Object.keys(LOOKUPS) as LookupName[]) {
    if (LOOKUPS[lookup].path === pathname) return { kind: "lookup", method: "GET", lookup };
  }
  const operation = PORT_IN_OPERATIONS.find((op) => op.path === pathname);
  if (operation) return { kind: "operation", method: "POST", operation };
  if (pathname.startsWith(STATUS_PREFIX) && pathname.endsWith(STATUS_SUFFIX)) {
    const number = pathname.slice(STATUS_PREFIX.length, pathname.length - STATUS_SUFFIX.length);
    if (number !== "" && !number.includes("/")) return { kind: "status", method: "GET", number };
  }
  return null;
}
