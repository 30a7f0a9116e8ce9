/**
 * The tables a shared journal keeps in PostgreSQL (docs/shared-journal.md), made and migrated
 * by portin at first use: each migration once, in order, recorded in `portin_schema`, inside
 * one transaction under an advisory lock, so two first runs starting together do not race.
 */
import type { ClientBase } from "pg";
import { StateError } from "../errors.js";
import * as journalWords from "../messages/journal.js";

/**
 * The first key of every advisory lock portin takes (two-key form): 'port' in ASCII. The second
 * key is a journal's id (its identity's row), or 0 for the schema itself.
 */
export const LOCK_SPACE = 0x706f7274;
const SCHEMA_LOCK = 0;

/**
 * In order; a migration is never edited once shipped, only followed by another. The records are
 * the file journal's lines, verbatim (records.ts), one row each in `seq` order: every record kind,
 * a new one included, reads back exactly as it was written.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE portin_journals (
     id bigserial PRIMARY KEY,
     service_key text NOT NULL,
     username text NOT NULL,
     base_url text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (service_key, username)
   );
   CREATE TABLE portin_records (
     seq bigserial PRIMARY KEY,
     journal bigint NOT NULL REFERENCES portin_journals (id),
     line text NOT NULL
   );
   CREATE INDEX portin_records_by_journal ON portin_records (journal, seq);
   CREATE TABLE portin_claims (
     journal bigint NOT NULL REFERENCES portin_journals (id),
     number text NOT NULL,
     request_id text NOT NULL,
     replaces text NOT NULL DEFAULT '',
     claimed_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (journal, number)
   );
   CREATE TABLE portin_holders (
     journal bigint PRIMARY KEY REFERENCES portin_journals (id),
     pid integer NOT NULL,
     hostname text NOT NULL,
     started_at text NOT NULL,
     backend_pid integer NOT NULL
   );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Makes or migrates the schema; StateError (exit 2) when a newer portin has migrated it further. */
export async function ensureSchema(client: ClientBase, label: string, version: string): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_SPACE, SCHEMA_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS portin_schema (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())");
    const current = await schemaVersion(client);
    if (current > SCHEMA_VERSION) throw newerSchema(label, current, version);
    for (let next = current + 1; next <= SCHEMA_VERSION; next++) {
      await client.query(MIGRATIONS[next - 1] as string);
      await client.query("INSERT INTO portin_schema (version) VALUES ($1)", [next]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * The schema's version for a reader that must write nothing (`plan`, `report`, `journal copy`'s
 * source): 0 when portin never wrote to this database. StateError when a newer portin did.
 */
export async function readableSchema(client: ClientBase, label: string, version: string): Promise<number> {
  const exists = await client.query<{ found: string | null }>("SELECT to_regclass('portin_schema')::text AS found");
  if (exists.rows[0]?.found == null) return 0;
  const current = await schemaVersion(client);
  if (current > SCHEMA_VERSION) throw newerSchema(label, current, version);
  return current;
}

async function schemaVersion(client: ClientBase): Promise<number> {
  const result = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM portin_schema");
  return result.rows[0]?.version ?? 0;
}

function newerSchema(label: string, found: number, version: string): StateError {
  return new StateError(journalWords.newerDatabaseSchema(label, found, version, SCHEMA_VERSION));
}
