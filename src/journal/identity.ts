/**
 * Whom a journal's numbers were submitted to (docs/contract.md §5): its header names the
 * service and user, and a run for another service or user is refused.
 */
import { remoteService, SANDBOX_SERVICE } from "../service/service.js";
import type { Service } from "../service/service.js";

/** Deliberately has no room for a password. */
export interface JournalIdentity {
  readonly service: Service;
  readonly user: string;
  /** portin's own version, recorded as `tool: portin/<version>`. */
  readonly version: string;
}

/**
 * What a header's `baseUrl` holds for the in-process sandbox, whose port changes every run.
 * The file format's text, read and written only here: every journal portin has written says
 * this for the sandbox, so it must go on being recognised.
 */
const SANDBOX_IN_HEADER = "the built-in sandbox";

/** The header's `baseUrl` for `service`. */
export function headerBaseUrl(service: Service): string {
  return service.kind === "sandbox" ? SANDBOX_IN_HEADER : service.baseUrl;
}

/** The service a header's `baseUrl` names. */
export function serviceOfHeader(baseUrl: string): Service {
  return baseUrl === SANDBOX_IN_HEADER ? SANDBOX_SERVICE : remoteService(baseUrl);
}

