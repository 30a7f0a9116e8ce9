import { appendFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { readJournalFile } from "../../src/journal/read.js";
import { serializeRecord } from "../../src/journal/records.js";
import type { JournalRecord } from "../../src/journal/records.js";

/** Intents and outcomes enough to pass the reader's 1 MiB slices several times, lines of odd lengths. */
function records(requests: number): JournalRecord[] {
  const out: JournalRecord[] = [{ type: "header", version: 1, tool: "portin/0.1.0", baseUrl: "https://service.example/", user: "u", createdAt: "t" }];
  for (let r = 0; r < requests; r++) {
    const numbers = Array.from({ length: 1 + (r % 97) }, (_, i) => String(2_000_000_000 + r * 1000 + i));
    out.push({ type: "intent", requestId: `R${r}`, operation: "dids", numbers, fingerprints: numbers.map((n) => `${n}é${"x".repeat(r % 13)}`), at: "t" });
    out.push({ type: "outcome", requestId: `R${r}`, status: "submitted", ticket: `PI-${r}`, httpStatus: 201, message: null, at: "t" });
  }
  return out;
}

async function journalOf(lines: readonly JournalRecord[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "portin-read-")), "state.jsonl");
  await writeFile(path, lines.map(serializeRecord).join(""));
  return path;
}

describe("a journal larger than the slices it is read in (journal/read.ts)", () => {
  it("reads every record once, in order, whatever slice boundary cuts a line", async () => {
    const written = records(1500);
    const path = await journalOf(written);
    const read = await readJournalFile(path);
    expect(read.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(read.soundLength).toBe(read.length);
    expect(read.records).toEqual(written.slice(1));
  });

  it("reads a line longer than several slices whole, between short ones", async () => {
    const numbers = Array.from({ length: 250_000 }, (_, i) => String(2_000_000_000 + i * 3));
    const long: JournalRecord = { type: "status", ticket: "PI-1", status: "SUBMITTED", portDate: null, reason: "", summary: "", details: "", numbers, at: "t" };
    const written = [...records(3), long, ...records(3).slice(1)];
    const path = await journalOf(written);
    const read = await readJournalFile(path);
    expect(serializeRecord(long).length).toBeGreaterThan(3 * 1024 * 1024);
    expect(read.soundLength).toBe(read.length);
    expect(read.records).toEqual(written.slice(1));
  });

  it("cuts away only a torn last line, and refuses a bad line with lines after it by its number", async () => {
    const written = records(1500);
    const path = await journalOf(written);
    const whole = (await readJournalFile(path)).length;
    await appendFile(path, '{"type":"outcome","requestId":"R9');
    const torn = await readJournalFile(path);
    expect([torn.records.length, torn.soundLength]).toEqual([written.length - 1, whole]);

    await appendFile(path, '\n{"type":"run","pid":1,"startedAt":"t"}\n');
    const refused = await readJournalFile(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateError);
    expect((refused as StateError).message).toContain(`line ${written.length + 1} is not a journal record`);
  });
});
