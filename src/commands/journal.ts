/**
 * `portin journal copy FROM TO` (docs/shared-journal.md): moves a run journal between a file and
 * a PostgreSQL database, each side a path or a postgres:// URL. It asks no service.
 */
import type { CommandResult } from "../exit-codes.js";
import type { CommandIO } from "../io.js";
import { copyJournal } from "../journal/copy.js";
import { isPostgresUrl, journalLabel, postgresPlace } from "../journal/place.js";
import type { JournalPlace } from "../journal/place.js";
import * as journalWords from "../messages/journal.js";
import { terminalSafe } from "../terminal-text.js";
import { VERSION } from "../version.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { nonEmptyPath } from "./values.js";

interface JournalArgs {
  action: "copy";
  from: string;
  to: string;
}

function placeOf(text: string, name: string): JournalPlace {
  return isPostgresUrl(text) ? postgresPlace(text, name) : text;
}

export const journalCommand: PortinCommand<JournalArgs> = {
  ...COMMAND_LINES.journal,
  builder: (yargs) =>
    yargs
      .positional("action", { choices: ["copy"] as const, demandOption: true, describe: "copy: FROM's records, verbatim, into TO, which must hold none" })
      .positional("from", { type: "string", demandOption: true, coerce: nonEmptyPath("from"), describe: "a journal file, or postgres://user@host/database" })
      .positional("to", { type: "string", demandOption: true, coerce: nonEmptyPath("to"), describe: "a new or empty file, or postgres://user@host/database" })
      .example("$0 journal copy numbers.state.jsonl postgres://ops@db.example/migration", "moves a file journal into the database a team shares")
      .example("$0 journal copy postgres://ops@db.example/migration backup.state.jsonl", "and back, e.g. as a backup"),
  run: async (args: JournalArgs, io: CommandIO): Promise<CommandResult> => {
    const from = placeOf(args.from, "FROM");
    const to = placeOf(args.to, "TO");
    const copied = await copyJournal(from, to, VERSION);
    io.stderr.write(
      terminalSafe(journalWords.copied(copied.records.toLocaleString("en-US"), copied.key.user, copied.key.baseUrl, journalLabel(from), journalLabel(to))) + "\n",
    );
    return { kind: "done" };
  },
};
