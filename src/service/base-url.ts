/**
 * Checks a base URL before any credential is attached to it (docs/contract.md §2: plain http only to
 * loopback unless --allow-insecure-http).
 */
import { isIPv4 } from "node:net";
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";

/** The parts of a base URL that messages may show: never a userinfo part. */
export interface BaseUrl {
  /** What got takes as `prefixUrl`. */
  readonly href: string;
  /** "api.thinktel.ca:443", for "connection refused by …". */
  readonly hostPort: string;
}

/** Parses and vets a base URL; throws UsageError (exit 2) for one portin will not send credentials to. */
export function checkBaseUrl(raw: string, allowInsecureHttp: boolean): BaseUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(commandLine.baseUrlNotAUrl(raw));
  }
  // Echoing the URL back would echo a password written into it, so this message names neither.
  if (url.username !== "" || url.password !== "") {
    throw new UsageError(commandLine.baseUrlWithCredentials());
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(commandLine.baseUrlNotHttp(shown));
  }
  if (url.search !== "" || url.hash !== "") {
    throw new UsageError(commandLine.baseUrlWithQuery(raw));
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new UsageError(commandLine.baseUrlPlainHttp(shown, url.hostname));

  }
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return { href: shown, hostPort: `${url.hostname}:${port}` };
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host === "::1") return true;
  return isIPv4(host) && host.startsWith("127.");
}

/** The names loopback traffic answers to; other 127.x addresses may be other servers. */
const LOOPBACK_ALIASES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/**
 * What makes two base URLs one service (docs/contract.md §5): they differ only in spelling —
 * case (the service is IIS, whose paths ignore case), an explicit default port, a trailing
 * slash, or a loopback name (`localhost` for `127.0.0.1`). A journal is refused only for
 * another service, since the advice that follows a refusal can cost a duplicate port-in.
 */
export function serviceKey(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // A header an older portin wrote, or one edited by hand: compared as text.
    return raw.trim().replace(/\/+$/, "").toLowerCase();
  }
  const host = LOOPBACK_ALIASES.has(url.hostname.toLowerCase()) ? "loopback" : url.hostname;
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "";
  return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, "")}`.toLowerCase();
}
