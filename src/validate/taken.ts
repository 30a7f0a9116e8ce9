/**
 * The numbers valid rows have taken, for "duplicate of row N" (docs/contract.md §3). A million-row sheet
 * holds a million numbers: kept as 10-digit doubles in an open-addressing table of typed
 * arrays (~24 bytes a number at most), not as a Map of strings, which costs twice that and
 * gives the garbage collector a million entries to trace.
 */
const EMPTY = 0;

export class TakenNumbers {
  private keys = new Float64Array(1 << 12);
  private lines = new Int32Array(1 << 12);
  private size = 0;

  /**
   * Takes `digits` (10 digits) for the row on `line`; returns the line of the row that took it
   * first, or null when it was free.
   */
  take(digits: string, line: number): number | null {
    const key = Number(digits);
    const mask = this.keys.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const found = this.keys[slot];
      if (found === key) return this.lines[slot] ?? null;
      if (found === EMPTY) {
        this.keys[slot] = key;
        this.lines[slot] = line;
        if (++this.size * 2 > this.keys.length) this.grow();
        return null;
      }
    }
  }

  private grow(): void {
    const { keys, lines } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.lines = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] ?? EMPTY;
      if (key === EMPTY) continue;
      let slot = hash(key) & mask;
      while (this.keys[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.lines[slot] = lines[i] ?? 0;
    }
  }
}

/** Mixes both halves of a 10-digit number (it exceeds 32 bits) into a 32-bit hash. */
function hash(key: number): number {
  const low = key % 0x1_0000_0000;
  const high = (key - low) / 0x1_0000_0000;
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 16);
}
