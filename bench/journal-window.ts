/**
 * Reads a run journal (docs/contract.md §5) for the dispatch figures: how many requests were sent, and
 * the window from the first intent to the last outcome, which leaves out start-up, reading
 * and results writing.
 */
import { readFile } from "node:fs/promises";

export interface JournalWindow {
  readonly requests: number;
  readonly ms: number;
}

export async function journalWindow(path: string): Promise<JournalWindow> {
  let first = Infinity;
  let last = -Infinity;
  let requests = 0;
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    if (line === "") continue;
    const record = JSON.parse(line) as { type?: string; at?: string };
    if (record.type !== "intent" && record.type !== "outcome") continue;
    const at = Date.parse(record.at ?? "");
    if (record.type === "intent") {
      requests++;
      first = Math.min(first, at);
    } else {
      last = Math.max(last, at);
    }
  }
  return { requests, ms: last - first };
}
