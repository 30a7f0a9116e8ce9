import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { JournalIdentity } from "../../src/journal/journal.js";

export const BASE_URL = "https://api.thinktel.ca/rest.svc";
export const IDENTITY: JournalIdentity = { service: { kind: "remote", baseUrl: BASE_URL }, user: "migrations", version: "9.9.9" };

/** IDENTITY, for the service at `baseUrl`. */
export const identityAt = (baseUrl: string): JournalIdentity => ({ ...IDENTITY, service: { kind: "remote", baseUrl } });

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder and a state path inside it, removed after the test. */
export async function statePath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "portin-journal-"));
  made.push(dir);
  return join(dir, "numbers.state.jsonl");
}

/** Every line of the file, parsed; fails the test if any line is not JSON or the file does not end with a newline. */
export async function journalLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, "utf8");
  if (text !== "" && !text.endsWith("\n")) throw new Error(`${path} does not end with a newline: ${JSON.stringify(text.slice(-40))}`);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
