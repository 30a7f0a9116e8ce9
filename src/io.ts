/** Where a command and the engine write: injected so that nothing below cli.ts reaches for process.stdout itself. */
export interface CommandIO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  /** Aborted on the first SIGINT/SIGTERM; `reason` is the signal name. */
  readonly signal: AbortSignal;
}
