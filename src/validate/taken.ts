/**
 * The numbers valid rows have taken, for "duplicate of row N" (docs/contract.md §3). A million-row sheet
 * holds a million numbers: kept as 10-digit doubles in an open-addressing table of typed
 * arrays (~40 bytes a number at most), not as a Map of strings, which costs more and
 * gives the garbage collector a million entries to trace. Beside each number: the row that
 * took it, and hashes of that row's target and PortForm, so that a later row with the same
 * number can be told to agree or disagree with it without keeping the row.
 */
const EMPTY = 0;

/** The row that took a number first. */
export interface Taker {
  readonly line: number;
  readonly index: number;
  readonly targetHash: number;
  readonly formHash: number;
}

export class TakenNumbers {
  private keys = new Float64Array(1 << 12);
  /** Per slot: line, index, target hash, PortForm hash. */
  private takers = new Int32Array(4 << 12);
  private size = 0;

  /**
   * Takes `digits` (10 digits) for `taker`; returns the row that took it first, or null when
   * it was free.
   */
  take(digits: string, taker: Taker): Taker | null {
    const key = Number(digits);
    const mask = this.keys.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const found = this.keys[slot];
      if (found === key) {
        const t = this.takers;
        const at = slot * 4;
        return { line: t[at] ?? 0, index: t[at + 1] ?? 0, targetHash: t[at + 2] ?? 0, formHash: t[at + 3] ?? 0 };
      }
      if (found === EMPTY) {
        this.keys[slot] = key;
        // Element by element: no array allocated per number taken.
        const t = this.takers;
        const at = slot * 4;
        t[at] = taker.line;
        t[at + 1] = taker.index;
        t[at + 2] = taker.targetHash;
        t[at + 3] = taker.formHash;
        if (++this.size * 2 > this.keys.length) this.grow();
        return null;
      }
    }
  }

  private grow(): void {
    const { keys, takers } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.takers = new Int32Array(takers.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] ?? EMPTY;
      if (key === EMPTY) continue;
      let slot = hash(key) & mask;
      while (this.keys[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      // Element by element, as in take: a subarray per number would be garbage per number.
      const to = this.takers;
      for (let k = 0; k < 4; k++) to[slot * 4 + k] = takers[i * 4 + k] ?? 0;
    }
  }
}

/** A 32-bit FNV-1a hash of text: two rows' targets or PortForms compared without keeping them. */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Mixes both halves of a 10-digit number (it exceeds 32 bits) into a 32-bit hash. */
function hash(key: number): number {
  const low = key % 0x1_0000_0000;
  const high = (key - low) / 0x1_0000_0000;
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 16);
}
