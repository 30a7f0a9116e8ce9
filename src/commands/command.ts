import type { Argv } from "yargs";

/**
 * One thin file per command: it declares its flags, builds one typed options object and
 * calls one engine function. `run` resolves to the exit code (SPEC §7) or throws a
 * PortinError; cli.ts is the only place either becomes the process's exit code.
 */
export interface PortinCommand<A> {
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<A>;
  readonly run: (args: A, io: CommandIO) => Promise<number>;
}

/** Where a command writes: injected so that it never reaches for process.stdout itself. */
export interface CommandIO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  /** Aborted on the first SIGINT/SIGTERM; `reason` is the signal name. */
  readonly signal: AbortSignal;
}
