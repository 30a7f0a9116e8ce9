/**
 * Whom a journal's numbers were submitted to (docs/contract.md §5): its header names the
 * service and user, and a run for another service or user is refused.
 */

/** Deliberately has no room for a password. */
export interface JournalIdentity {
  readonly baseUrl: string;
  readonly user: string;
  /** portin's own version, recorded as `tool: portin/<version>`. */
  readonly version: string;
}

/** What a journal records for the in-process sandbox: its port changes every run. */
export const BUILT_IN_SANDBOX = "the built-in sandbox";

/**
 * Said wherever a message could lead a user to a new journal: without the old one, a re-run
 * cannot know what was submitted, and a duplicate port-in costs a real customer.
 */
export const FRESH_JOURNAL_SENDS_AGAIN = "a new --state path would start a fresh journal and send every number again";
