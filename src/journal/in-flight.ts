/**
 * What a `submit` that holds the journal has in flight (docs/contract.md §5): the numbers of its
 * requests with an intent and no outcome yet. Pure, no I/O.
 */
import type { JournalRecord } from "./records.js";

export interface InFlight {
  /** Whether the journal holds a `run` record of the process `pid`: it is a `submit` (a `status` writes none). */
  readonly submit: boolean;
  /** The numbers of that run's requests that have an intent and no outcome yet. */
  readonly numbers: ReadonlySet<string>;
}

/** Reads the records from the last `run` record of process `pid` on: one run writes at a time (lock.ts). */
export function inFlight(records: Iterable<JournalRecord>, pid: number): InFlight {
  let submit = false;
  let open = new Map<string, readonly string[]>();
  for (const record of records) {
    if (record.type === "run") {
      submit = record.pid === pid;
      open = new Map();
    } else if (submit && record.type === "intent") {
      open.set(record.requestId, record.numbers);
    } else if (submit && record.type === "outcome") {
      open.delete(record.requestId);
    }
  }
  return { submit, numbers: new Set([...open.values()].flat()) };
}
