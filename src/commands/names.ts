/**
 * Each command's usage line and one-line description, apart from the command itself: the
 * top-level `--help` (and `--version`) lists them without loading any command's module, so
 * that start-up pays only for the command that runs (docs/contract.md §8).
 */
export const COMMAND_LINES = {
  submit: { command: "submit <input>", describe: "validate, look up, group, send, and write results" },
  plan: { command: "plan <input>", describe: "the dry run: everything submit does except the POSTs" },
  status: { command: "status <input>", describe: "the live status of every submitted number's port-in order" },
  report: { command: "report <input>", describe: "a self-contained HTML page of the migration, from the sheet and its journal" },
  journal: { command: "journal <action> <from> <to>", describe: "journal copy FROM TO: copy a run journal between a file and a PostgreSQL database" },
  loa: { command: "loa <input>", describe: "one pre-filled letter of authorization (PDF) per customer, to sign" },
  template: { command: "template", describe: "write an empty sheet with the columns of one operation, and an example row" },
  trunks: { command: "trunks", describe: "list the account's SIP trunks (--json for JSON)" },
  offerings: { command: "offerings", describe: "list the account's offerings (--json for JSON)" },
  providers: { command: "providers", describe: "list the losing-carrier providers (--json for JSON)" },
  sandbox: { command: "sandbox", describe: "serve the built-in simulator of the service over HTTP" },
} as const;

export type CommandName = keyof typeof COMMAND_LINES;

/**
 * The commands that read a sheet: those whose usage line takes one (`<input>`). cli.ts starts a
 * workbook's reading thread ahead for them (input/reader-start.ts).
 */
export const SHEET_COMMANDS: ReadonlySet<string> = new Set(
  Object.entries(COMMAND_LINES)
    .filter(([, line]) => line.command.includes("<input>"))
    .map(([name]) => name),
);
