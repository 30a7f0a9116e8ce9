/**
 * Telephone numbers as entries 0, 1, 2, … in the order they were first added: the one hash
 * table of numbers that validate/taken.ts (the numbers a sheet's rows took) and
 * journal/number-states.ts (each number's state from earlier runs) keep what they hold beside,
 * in arrays of their own by entry. A million-row sheet or journal holds a million numbers: a
 * Map of a million strings costs more and gives the garbage collector a million entries to
 * trace, where this holds each number as a double (a 10-digit number is an exact one) in
 * typed arrays, ~16 bytes a number at most.
 */
const NO_ENTRY = -1;
const INITIAL_ENTRIES = 1024;

export class NumberIndex {
  /** Open addressing: entry + 1 by hash of the number, 0 for a free slot. Never more than half full. */
  #slots = new Int32Array(INITIAL_ENTRIES * 2);
  /** By entry: the number. */
  #keys = new Float64Array(INITIAL_ENTRIES);
  #entries = 0;

  /** Numbers added so far: entries 0 to `entries - 1`. */
  get entries(): number {
    return this.#entries;
  }

  /** `key`'s entry, or -1 when it was never added. */
  find(key: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot] as number;
      if (held === 0) return NO_ENTRY;
      if (this.#keys[held - 1] === key) return held - 1;
    }
  }

  /** `key`'s entry: the one it was given when first added, or the next one (`entries` before the call). */
  add(key: number): number {
    const found = this.find(key);
    if (found !== NO_ENTRY) return found;
    if (this.#entries === this.#keys.length) {
      const keys = new Float64Array(this.#keys.length * 2);
      keys.set(this.#keys);
      this.#keys = keys;
    }
    if ((this.#entries + 1) * 2 > this.#slots.length) this.#growSlots();
    const entry = this.#entries++;
    this.#keys[entry] = key;
    this.#place(key, entry);
    return entry;
  }

  /** The number of `entry`. */
  keyAt(entry: number): number {
    return this.#keys[entry] as number;
  }

  #place(key: number, entry: number): void {
    const mask = this.#slots.length - 1;
    let slot = hash(key) & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = entry + 1;
  }

  #growSlots(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    for (let entry = 0; entry < this.#entries; entry++) this.#place(this.#keys[entry] as number, entry);
  }
}

/** Mixes both halves of a 10-digit number (it exceeds 32 bits), so that the numbers of one NPA-NXX spread over the slots. */
function hash(key: number): number {
  const low = key % 0x1_0000_0000;
  const high = (key - low) / 0x1_0000_0000;
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 16);
}
