/**
 * `--journal`: a run journal a team shares, in PostgreSQL (docs/shared-journal.md), on every
 * command that reads or writes a journal. Its default is PORTIN_JOURNAL, which `ps` does not
 * show, so a password in the URL stays out of the process list; help names the variable only.
 */
export const JOURNAL_OPTION = {
  type: "string",
  requiresArg: true,
  default: process.env["PORTIN_JOURNAL"] || undefined,
  defaultDescription: "$PORTIN_JOURNAL, else the file --state names",
  describe: "a journal shared by a team: postgres://user@host/database (prefer $PORTIN_JOURNAL or $PGPASSWORD for a password, which ps does not show)",
} as const;
