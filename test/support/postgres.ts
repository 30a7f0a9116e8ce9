/**
 * A database of its own for a test file, on the suite's one PostgreSQL (test/setup/postgres.ts):
 * a journal URL as a team would give it to `--journal`.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** Makes a new, empty database and returns its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = new URL(inject("postgresAdminUrl"));
  const name = `portin_${randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  admin.pathname = `/${name}`;
  return admin.href;
}

/** Runs one query on the database at `url`. */
export async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
