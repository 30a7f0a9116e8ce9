/**
 * Where a run journal lives (docs/contract.md §5): a file (`--state`), or a PostgreSQL database
 * a team shares (`--journal postgres://…` or PORTIN_JOURNAL; docs/shared-journal.md). Pure, no I/O.
 */
import { UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";

/** A journal in a PostgreSQL database. */
export interface PostgresPlace {
  readonly kind: "postgres";
  /** As given, password included: handed to the client only, never printed. */
  readonly url: string;
  /** The URL with its password masked: what every message names. */
  readonly label: string;
}

/** A file path (the default), or a database. */
export type JournalPlace = string | PostgresPlace;

const POSTGRES_SCHEMES = new Set(["postgres:", "postgresql:"]);

/** Whether `text` names a PostgreSQL database rather than a file. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/**
 * The journal at `url`, or UsageError (exit 2) naming `option` for one that is not a
 * postgres:// URL. The error names the URL with its password masked.
 */
export function postgresPlace(url: string, option: string): PostgresPlace {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(commandLine.notAPostgresUrl(option, maskPassword(url)));
  }
  if (!POSTGRES_SCHEMES.has(parsed.protocol.toLowerCase()) || parsed.pathname.length <= 1) {
    throw new UsageError(commandLine.notAPostgresDatabase(option, maskPassword(url)));
  }
  return { kind: "postgres", url, label: maskPassword(url) };
}

/** A URL's password as `***` (docs/contract.md §7: credentials never appear in output); text that is no URL loses everything between `//` and `@`. */
export function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === "") return url;
    parsed.password = "***";
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}

/** How messages name the journal. */
export function journalLabel(place: JournalPlace): string {
  return typeof place === "string" ? place : place.label;
}
