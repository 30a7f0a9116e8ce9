/**
 * A host of the library (src/api.ts) runs many commands in one long-lived process: a run whose
 * results are a workbook starts their zip thread as it starts reading (results/writer.ts
 * withResultsAhead), and a run that ends without taking it must not leave it behind.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, submit } from "../../src/api.js";
import { PortinError } from "../../src/errors.js";
import { startZipThreadAhead, stopZipThreadAhead } from "../../src/results/xlsx-zip.js";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { fixture } from "./fixtures.js";
import { tempDir } from "./harness.js";

let sandbox: RunningSandbox;

beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

describe("a library host", () => {
  it("keeps no zip thread from a run with workbook results that stopped before writing them", async () => {
    const dir = await tempDir();
    const sheet = join(dir, "sample.csv");
    await copyFile(fixture("sample.csv"), sheet);
    const stderr = new PassThrough().resume();
    const client = await connect({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password }, { stderr });
    stopZipThreadAhead(); // one left by another test of this worker
    try {
      // The journal cannot be made: the run stops after reading the sheet, before its results.
      const run = submit({ input: sheet, results: join(dir, "results.xlsx"), state: join(dir, "missing", "run.state.jsonl") }, client, { stderr });
      await expect(run).rejects.toBeInstanceOf(PortinError);
    } finally {
      await client.close();
    }
    // The run's stop is told once its module has loaded: a turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    // Null while a thread started ahead still waits to be taken.
    const next = startZipThreadAhead();
    expect(next).not.toBeNull();
    stopZipThreadAhead();
  });
});
