/**
 * docs/contract.md §7: no input, however damaged or hostile, ends in a stack trace or an
 * "internal error". The engine is run in process as `plan` runs it, against a real sandbox,
 * over sheets long enough for the reader to pause while the run catches up, with oversized
 * cells in any row and control characters in headers and cells. Whatever the sheet, the run
 * either ends with a report or is refused with a PortinError (what cli.ts prints as one
 * `portin: …` line, exit 2); anything else is what cli.ts calls an internal error.
 */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { writeFile } from "node:fs/promises";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPortIn } from "../../src/engine/port-in.js";
import type { ServiceLink } from "../../src/engine/port-in.js";
import { InputError, PortinError } from "../../src/errors.js";
import { openSheet } from "../../src/input/sheet.js";
import type { CommandIO } from "../../src/io.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { createClient } from "../../src/service/client.js";
import { tempDir } from "../e2e/harness.js";
import { fuzzParams, testTimeout } from "./settings.js";
import { longHostileArb } from "./sheets.js";

/** Each run reads, validates and plans in process: tens of milliseconds, so the property stays within a few seconds. */
const RUNS = 40;
const RUN_TIMEOUT_MS = 10_000;

let sandbox: RunningSandbox;
let service: ServiceLink;
let dir = "";
let run = 0;
beforeAll(async () => {
  sandbox = await startSandbox();
  const client = createClient({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password, timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
  service = { client, identity: { service: { kind: "remote", baseUrl: sandbox.url }, user: sandbox.user, version: "test" } };
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox.close();
});

/** The run's stderr text, and the error that ended it if one did. */
async function planInProcess(path: string): Promise<{ stderr: string; error: unknown }> {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const io: CommandIO = { stdout: new PassThrough().resume(), stderr, stdin: new PassThrough(), signal: new AbortController().signal };
  let error: unknown = null;
  try {
    const sheet = await openSheet(path);
    try {
      const options = { command: "plan", sheet, results: join(dir, `results-${run}.csv`), defaults: null, state: null } as const;
      await runPortIn({ ...options, concurrency: 2, rate: null, maxPerRequest: 100, retryUnknown: false, retryRejected: false }, service, io);
    } finally {
      await sheet.close();
    }
  } catch (caught) {
    error = caught;
  }
  return { stderr: text, error };
}

it(
  "ends every plan of a hostile sheet in a report or a one-line refusal, never an internal error or a stack",
  async () => {
    await fc.assert(
      fc.asyncProperty(longHostileArb, async (sheet) => {
        const path = join(dir, `sheet-${++run}.csv`);
        await writeFile(path, sheet.bytes);
        const { stderr, error } = await planInProcess(path);
        expect(stderr).not.toMatch(/^\s+at |internal error/m);
        if (error === null) return;
        if (!(error instanceof PortinError)) throw new Error(`an internal error: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
        expect(error.exitCode).toBe(2);
        expect(error.message).not.toContain("\n");
        if (error instanceof InputError) expect(error.message).toContain(path);
      }),
      fuzzParams(RUNS, RUN_TIMEOUT_MS),
    );
  },
  testTimeout(RUNS, RUN_TIMEOUT_MS),
);
