/**
 * The PostgreSQL journal in-process (journal/postgres.ts), on the suite's real server: the lock,
 * the claims an intent takes and an outcome lets go, and first runs racing to make the schema.
 */
import { describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { postgresPlace } from "../../src/journal/place.js";
import type { PostgresPlace } from "../../src/journal/place.js";
import { openPostgresJournal, postgresHolder, readPostgresJournal } from "../../src/journal/postgres.js";
import { remoteService } from "../../src/service/service.js";
import { freshDatabase, query } from "../support/postgres.js";

const IDENTITY = { service: remoteService("https://api.example.test/rest.svc/"), user: "ops", version: "test" };
const [A, B, C] = ["4165552001", "4165552002", "4165552003"] as const;

async function place(): Promise<{ place: PostgresPlace; url: string }> {
  const url = await freshDatabase();
  return { place: postgresPlace(url, "--journal"), url };
}

async function claims(url: string): Promise<{ number: string; request_id: string; replaces: string }[]> {
  return query(url, "SELECT number, request_id, replaces FROM portin_claims ORDER BY number");
}

describe("the PostgreSQL journal", () => {
  it("claims a request's numbers with its intent; a failed outcome, and a rejection for the numbers it did not name, let go of them", async () => {
    const { place: at, url } = await place();
    const journal = await openPostgresJournal(at, IDENTITY);
    await journal.intent("r1", "dids", [A, B]);
    await journal.intent("r2", "dids", [C]);
    expect(await claims(url)).toEqual([
      { number: A, request_id: "r1", replaces: "" },
      { number: B, request_id: "r1", replaces: "" },
      { number: C, request_id: "r2", replaces: "" },
    ]);
    await journal.outcome("r1", { status: "rejected", rejected: [{ number: A, message: "no", fingerprint: "f" }] });
    await journal.outcome("r2", { status: "failed", message: "withdrawn" });
    // B was sent again in a new request by the dispatcher, C is left to the next run: both free.
    expect(await claims(url)).toEqual([{ number: A, request_id: "r1", replaces: "" }]);
    await journal.close();
  });

  it("lets a later run take over a claim its journal names (an unsure number sent again), never one it does not know of", async () => {
    const { place: at, url } = await place();
    const first = await openPostgresJournal(at, IDENTITY);
    await first.intent("r1", "dids", [A, B]);
    await first.outcome("r1", { status: "unknown", message: "500" });
    await first.close();
    // A claim some other writer left, which this journal's records know nothing of.
    await query(url, "INSERT INTO portin_claims (journal, number, request_id) SELECT id, $1, 'elsewhere' FROM portin_journals", [C]);

    const second = await openPostgresJournal(at, IDENTITY);
    expect(second.prior.states.get(A)).toMatchObject({ kind: "unknown", requestId: "r1" });
    await second.intent("r2", "dids", [A]);
    const refused = second.intent("r3", "dids", [B, C]);
    await expect(refused).rejects.toThrow(StateError);
    await expect(refused).rejects.toThrow(`number ${C} was claimed in journal postgres://portin:***@`);
    // Written in the same turn as the refused one, and committed all the same.
    await second.confirmed(B, "PI-1", "SUBMITTED");
    await second.close();

    expect(await claims(url)).toEqual([
      { number: A, request_id: "r2", replaces: "r1" },
      { number: B, request_id: "r1", replaces: "" },
      { number: C, request_id: "elsewhere", replaces: "" },
    ]);
    const lines = (await query<{ line: string }>(url, "SELECT line FROM portin_records ORDER BY seq")).map((row) => JSON.parse(row.line) as { type: string; requestId?: string });
    expect(lines.filter((record) => record.type === "intent").map((record) => record.requestId)).toEqual(["r1", "r2"]);
    expect((await readPostgresJournal(at, IDENTITY)).states.get(B)).toMatchObject({ kind: "submitted", ticket: "PI-1" });
  });

  it("of first runs started together on an empty database, one makes the schema and holds the lock; the others are refused, and none fails", async () => {
    const { place: at, url } = await place();
    const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openPostgresJournal(at, IDENTITY)));
    const held = opened.filter((result) => result.status === "fulfilled");
    expect(held).toHaveLength(1);
    for (const result of opened) {
      if (result.status === "rejected") expect(result.reason).toBeInstanceOf(StateError);
      if (result.status === "rejected") expect(String(result.reason)).toMatch(new RegExp(`another portin run \\(pid ${process.pid}, started [^)]+\\) holds journal`));
    }
    await held[0]?.value.close();
    expect(await query(url, "SELECT version FROM portin_schema")).toEqual([{ version: 1 }]);
    expect((await query<{ line: string }>(url, "SELECT line FROM portin_records")).filter((row) => row.line.startsWith('{"type":"header"'))).toHaveLength(1);
    // Let go as the run closed: the next run takes it.
    await (await openPostgresJournal(at, IDENTITY)).close();
  });

  it("sees only its own database's holder: another database's journal of the same id, held, is not this one held", async () => {
    const [one, two] = await Promise.all([place(), place()]);
    await (await openPostgresJournal(two.place, IDENTITY)).close();
    const held = await openPostgresJournal(one.place, IDENTITY);
    try {
      expect(await postgresHolder(one.place, IDENTITY)).toMatchObject({ owner: { pid: process.pid } });
      expect(await postgresHolder(two.place, IDENTITY)).toBeNull();
    } finally {
      await held.close();
    }
    expect(await postgresHolder(one.place, IDENTITY)).toBeNull();
  });
});
