/**
 * Which service a run talks to (docs/contract.md §2): the real one at a base URL, or the
 * built-in sandbox, whose loopback port changes every run and which therefore is known by
 * its kind alone. Code asks `kind`, never a URL or a display text, whether it is the sandbox.
 */
import { serviceKey } from "./base-url.js";

export type Service = { readonly kind: "sandbox" } | { readonly kind: "remote"; readonly baseUrl: string };

export const SANDBOX_SERVICE: Service = { kind: "sandbox" };

export function remoteService(baseUrl: string): Service {
  return { kind: "remote", baseUrl };
}

/** How messages and summaries name it: the base URL, or "the built-in sandbox". */
export function serviceLabel(service: Service): string {
  return service.kind === "sandbox" ? "the built-in sandbox" : service.baseUrl;
}

/** One service, though a base URL may be spelled another way (base-url.ts serviceKey). */
export function sameService(a: Service, b: Service): boolean {
  if (a.kind === "sandbox" || b.kind === "sandbox") return a.kind === b.kind;
  return serviceKey(a.baseUrl) === serviceKey(b.baseUrl);
}
