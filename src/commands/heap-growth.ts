/**
 * How far V8 lets a run's heap grow between full collections (docs/architecture.md, Memory).
 */
import { setFlagsFromString } from "node:v8";

/**
 * After each full collection V8 lets the old generation grow to 1.1-4x what survived it before
 * the next; portin's runs sat near 2.6x. A run that reads a sheet holds its rows to the end,
 * and `status` then asks the service once per order: got's objects for each of 10,000 requests
 * outlive a young-generation collection or two (~15 KB a request, where node:http's own leave
 * almost nothing), are promoted, and wait there for a full collection. At 1,000,000 rows that
 * garbage took `status` to twice `plan`'s peak though it holds little more. At 1.5x the heap
 * stays within half again of what the run holds, for a few more full collections
 * (bench/README.md). The flag is the process's: set by the CLI's launcher before the
 * bundle runs, for every command (launcher.ts); never by the library, whose host decides its
 * own heap.
 */
export function holdHeapNearLive(): void {
  setFlagsFromString(HEAP_FLAGS);
}

/** The V8 flags every run of the CLI sets before its code runs (launcher.ts). */
export const HEAP_FLAGS = "--heap-growing-percent=50";
