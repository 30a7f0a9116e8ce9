import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { PACKAGE_ROOT } from "../../src/version.js";

/** The built CLI, exactly what `npx portin` runs (`npm test` builds first). */
export const CLI = join(PACKAGE_ROOT, "dist", "src", "cli.cjs");

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly stdin?: string | Buffer;
  readonly env?: Record<string, string | undefined>;
  /** Where the CLI runs; a new empty temporary folder when not given, never the checkout, whose fixtures/ a user's own runs write into. */
  readonly cwd?: string;
  /** Called once the process is spawned, e.g. to send it a signal later. */
  readonly onSpawn?: (child: ChildProcess) => void;
  /** Another copy of the built CLI than this package's (e.g. an install laid out in a temporary folder). */
  readonly cli?: string;
}

export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const cwd = options.cwd ?? (await tempDir());
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, PORTIN_BASE_URL: undefined, PORTIN_USER: undefined, PORTIN_PASSWORD: undefined, PORTIN_JOURNAL: undefined, ...options.env };
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
      cwd,
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    // A run that refuses its sheet part-way stops reading standard input: what is left of it is not the test's to deliver.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
    options.onSpawn?.(child);
  });
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "portin-e2e-"));
}

export async function writeSheet(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

export type ResultRow = Record<string, string>;

export function parseResults(text: string): ResultRow[] {
  return parse<ResultRow>(text, { columns: true, bom: true });
}

export async function readResults(path: string): Promise<ResultRow[]> {
  return parseResults(await readFile(path, "utf8"));
}

/** Connection flags for a sandbox started by the test. */
export function against(sandbox: { url: string; user: string; password: string }): string[] {
  return ["--base-url", sandbox.url, "--user", sandbox.user, "--password", sandbox.password];
}

/** A PortForm header and cells that satisfy every required member, for short inline sheets. */
export const FORM_HEADER =
  "portform.CustomerAccountNumber,portform.CustomerName,portform.CustomerStreetNumber,portform.CustomerStreetName,portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider";
export const FORM_CELLS = "ACME-1,Acme Plumbing,12,Front St,Toronto,ON,M5J 2N1,CA,it@acme.ca,Bell Canada";

/**
 * A trunk row's result_message when neither its sheet nor the defaults give it a 9-1-1 address
 * (docs/contract.md §2 "9-1-1 addresses"): the row's own words first, then the advice.
 */
export const withoutE911 = (message: string): string => `${message}; ${NO_E911_ADDRESS}`;

/** The same advice at the end of a message, for patterns (its words hold no pattern characters but "-"). */
export const WITHOUT_E911_END = `; ${NO_E911_ADDRESS}$`;

/** A 9-1-1 address the sandbox's database knows, as a --defaults file's "e911" object. */
export const E911_ADDRESS = { FirstName: "Front", LastName: "Desk", StreetNumber: "12", StreetName: "Front St", City: "Toronto", ProvinceState: "ON", PostalZip: "M5J 2N1" };

/**
 * Writes a --defaults file giving every trunk number E911_ADDRESS: submit registers each
 * number's record, so a number that completes is safe to use (docs/e911.md). Returns its path.
 */
export async function e911Defaults(dir: string): Promise<string> {
  const path = join(dir, "e911.defaults.json");
  await writeFile(path, JSON.stringify({ e911: E911_ADDRESS }));
  return path;
}
