/**
 * The numbers valid rows have taken, for "duplicate of row N" (docs/contract.md §3). A million-row
 * sheet holds a million numbers: kept in number-index.ts's table of doubles, not as a Map of
 * strings. Beside each number: the row that took it, and hashes of that row's target and
 * PortForm, so that a later row with the same number can be told to agree or disagree with it
 * without keeping the row.
 */
import { NumberIndex } from "../number-index.js";

/** The row that took a number first. */
export interface Taker {
  readonly line: number;
  readonly index: number;
  readonly targetHash: number;
  readonly formHash: number;
}

export class TakenNumbers {
  private readonly numbers = new NumberIndex();
  /** By the number's entry: line, index, target hash, PortForm hash. */
  private takers = new Int32Array(4 << 10);

  /**
   * Takes `digits` (10 digits) for `taker`; returns the row that took it first, or null when
   * it was free.
   */
  take(digits: string, taker: Taker): Taker | null {
    const before = this.numbers.entries;
    const at = this.numbers.add(Number(digits)) * 4;
    const t = this.takers;
    if (at < before * 4) return { line: t[at] ?? 0, index: t[at + 1] ?? 0, targetHash: t[at + 2] ?? 0, formHash: t[at + 3] ?? 0 };
    if (at === t.length) this.grow();
    // Element by element: no array allocated per number taken.
    const to = this.takers;
    to[at] = taker.line;
    to[at + 1] = taker.index;
    to[at + 2] = taker.targetHash;
    to[at + 3] = taker.formHash;
    return null;
  }

  private grow(): void {
    const takers = new Int32Array(this.takers.length * 2);
    takers.set(this.takers);
    this.takers = takers;
  }
}

/** A 32-bit FNV-1a hash of text: two rows' targets or PortForms compared without keeping them. */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}
