import type { Argv } from "yargs";
import type { CommandIO } from "../io.js";
import type { CommandResult } from "../exit-codes.js";

/**
 * One thin file per command: it declares its flags, builds one typed options object and
 * calls one engine function. `run` resolves to what happened (exit-codes.ts) or throws a
 * PortinError; cli.ts is the only place either becomes the process's exit code.
 */
export interface PortinCommand<A> {
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<A>;
  readonly run: (args: A, io: CommandIO) => Promise<CommandResult>;
}
