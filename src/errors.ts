/**
 * Every failure a user can see is a PortinError: a stable `code`, the exit code docs/contract.md §7
 * assigns to it, and a one-line message that names the offending value and the next step.
 * exit-codes.ts decides every exit code, asked by cli.ts (a command's report, or one of these)
 * and by api.ts (a command's report: the library throws these to its caller, with `exitCode`
 * set); only cli.ts calls process.exit.
 */
export class PortinError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options.exitCode ?? 2;
  }
}

/** Bad command-line arguments or option values. */
export class UsageError extends PortinError {
  constructor(message: string) {
    super("E_USAGE", message);
  }
}

/** The input sheet (or a file it names) cannot be trusted as a whole: nothing is sent. */
export class InputError extends PortinError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("E_INPUT", message, options);
  }
}

/** A lookup (trunks, offerings, providers) failed, so nothing can be validated. */
export class LookupError extends PortinError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("E_LOOKUP", message, options);
  }
}

/** The service refused our credentials (401/403). */
export class AuthError extends PortinError {
  constructor(message: string) {
    super("E_AUTH", message);
  }
}

/** The run journal cannot be used: another run holds it, it belongs elsewhere, or it is corrupt. */
export class StateError extends PortinError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("E_STATE", message, options);
  }
}

/** Writing results or state failed (disk full, permission denied). */
export class OutputError extends PortinError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("E_OUTPUT", message, options);
  }
}

/** A part of portin's own installation is missing or cannot load here (a native binary for another platform). */
export class InstallError extends PortinError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("E_INSTALL", message, options);
  }
}
