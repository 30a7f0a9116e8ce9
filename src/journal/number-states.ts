/**
 * Each number's state as earlier runs left it (prior.ts), held compactly: a journal of a
 * million numbers must not cost a re-run or a `status` more than the sheet itself does
 * (docs/architecture.md, Memory). A Map of a million number strings to a million state
 * objects cost ~150 bytes a number; here a number is a double, its state a reference to one
 * object its whole request shares, and its fingerprint 22 bytes: ~50 bytes a number.
 * A state read back is a new object of one shape per kind; nothing holds it.
 */

import { FINGERPRINT_LENGTH } from "../group/fingerprint.js";
import { NumberIndex } from "../number-index.js";

/**
 * How a state parts into what a request's numbers share and the number's own fingerprint, and
 * back (prior.ts). `join` builds each kind in one shape: a spread with more members after it
 * gives every object a hidden class of its own (results/row-outcome.ts rowOutcome).
 */
export interface StateParts<State, Shared> {
  readonly split: (state: State) => { readonly shared: Shared; readonly fingerprint: string | undefined };
  readonly join: (shared: Shared, fingerprint: string | undefined) => State;
}

/** A fingerprint as group/fingerprint.ts writes it, base64url, is packed; any other text is kept as it is, apart. */
const PACKABLE = new RegExp(`^[A-Za-z0-9_-]{${FINGERPRINT_LENGTH}}$`);
const NO_ENTRY = -1;
const INITIAL_ENTRIES = 1024;

export class NumberStates<State, Shared extends object> implements ReadonlyMap<string, State> {
  /** Each number's entry (number-index.ts); an entry stays once deleted, for setting the number again to revive. */
  readonly #numbers = new NumberIndex();
  /** By entry: its shared state's index, NO_ENTRY until set and once deleted; its fingerprint. */
  #stateOf = new Int32Array(INITIAL_ENTRIES).fill(NO_ENTRY);
  /** Made at the first fingerprint set: a store of statuses (prior.ts `lastStatus`) holds none. */
  #fingerprints: Buffer | null = null;
  /** 0 none, 1 packed in #fingerprints, 2 in #otherFingerprints. */
  #fingerprintKind = new Uint8Array(INITIAL_ENTRIES);
  #otherFingerprints = new Map<number, string>();
  #size = 0;
  /** By index; undefined once no number refers to it, the index then free for another. */
  #shared: (Shared | undefined)[] = [];
  /** How many numbers refer to each shared state, its JSON text, and the indexes free again. */
  #refs: number[] = [];
  #sharedText: string[] = [];
  #freeShared: number[] = [];
  /** Shared states by their text, so that a request's numbers share one. */
  #sharedIndex = new Map<string, number>();
  /**
   * The shared state set last, and its index: a journal sets a request's numbers one after
   * another, so this answers nearly every set without the JSON text (a million strings).
   */
  #lastShared: Shared | null = null;
  #lastIndex = NO_ENTRY;

  readonly #parts: StateParts<State, Shared>;

  constructor(parts: StateParts<State, Shared>) {
    this.#parts = parts;
  }

  get size(): number {
    return this.#size;
  }

  /** How many distinct shared states it holds: what it holds beside its numbers, bounded by what they refer to. */
  get sharedStates(): number {
    return this.#sharedIndex.size;
  }

  get(number: string): State | undefined {
    const entry = this.#find(number);
    return entry === NO_ENTRY ? undefined : this.#stateAt(entry);
  }

  has(number: string): boolean {
    return this.#find(number) !== NO_ENTRY;
  }

  set(number: string, state: State): this {
    if (!/^\d{10}$/.test(number)) throw new TypeError(`a number's state needs 10 digits, got '${number}'`);
    const entry = this.#numbers.add(keyOf(number));
    if (entry === this.#stateOf.length) this.#growEntries();
    // The shared state a live entry referred to; a new or revived entry refers to none.
    const before = this.#stateOf[entry] as number;
    if (before === NO_ENTRY) this.#size++;
    const { shared, fingerprint } = this.#parts.split(state);
    this.#stateOf[entry] = this.#share(shared);
    // Released after the new one is taken: a number set to the state it had keeps its index.
    if (before !== NO_ENTRY) this.#release(before);
    this.#setFingerprint(entry, fingerprint);
    return this;
  }

  delete(number: string): boolean {
    const entry = this.#find(number);
    if (entry === NO_ENTRY) return false;
    // The slot stays, pointing at a deleted entry: setting the number again revives it.
    this.#release(this.#stateOf[entry] as number);
    this.#stateOf[entry] = NO_ENTRY;
    this.#otherFingerprints.delete(entry);
    this.#size--;
    return true;
  }

  *entries(): MapIterator<[string, State]> {
    for (let entry = 0; entry < this.#numbers.entries; entry++) {
      if (this.#stateOf[entry] !== NO_ENTRY) yield [textOf(this.#numbers.keyAt(entry)), this.#stateAt(entry)];
    }
  }

  *keys(): MapIterator<string> {
    for (const [number] of this.entries()) yield number;
  }

  *values(): MapIterator<State> {
    for (const [, state] of this.entries()) yield state;
  }

  [Symbol.iterator](): MapIterator<[string, State]> {
    return this.entries();
  }

  /**
   * The live numbers grouped by `groupOf` of their shared state, asked once per shared state,
   * not per number: an order's numbers without a state object and a fingerprint read back for
   * each of a million numbers. Numbers whose group is undefined are left out.
   */
  groupNumbers<Group>(groupOf: (shared: Shared) => Group | undefined): Map<Group, string[]> {
    const groupAt = this.#shared.map((shared) => (shared === undefined ? undefined : groupOf(shared)));
    const groups = new Map<Group, string[]>();
    for (let entry = 0; entry < this.#numbers.entries; entry++) {
      const index = this.#stateOf[entry] as number;
      const group = index === NO_ENTRY ? undefined : groupAt[index];
      if (group === undefined) continue;
      const numbers = groups.get(group);
      const number = textOf(this.#numbers.keyAt(entry));
      if (numbers) numbers.push(number);
      else groups.set(group, [number]);
    }
    return groups;
  }

  forEach(callback: (state: State, number: string, map: ReadonlyMap<string, State>) => void): void {
    for (const [number, state] of this.entries()) callback(state, number, this);
  }

  #find(number: string): number {
    // A first run has no journal: each row's three lookups then cost nothing.
    if (this.#size === 0) return NO_ENTRY;
    return /^\d{10}$/.test(number) ? this.#findKey(keyOf(number)) : NO_ENTRY;
  }

  /** The live entry of `key`, or NO_ENTRY: a deleted one is absent until set() revives it. */
  #findKey(key: number): number {
    const entry = this.#numbers.find(key);
    return entry !== NO_ENTRY && this.#stateOf[entry] !== NO_ENTRY ? entry : NO_ENTRY;
  }

  #growEntries(): void {
    const capacity = this.#stateOf.length * 2;
    this.#stateOf = grown(this.#stateOf, new Int32Array(capacity).fill(NO_ENTRY));
    if (this.#fingerprints !== null) this.#fingerprints = grown(this.#fingerprints, Buffer.alloc(capacity * FINGERPRINT_LENGTH));
    this.#fingerprintKind = grown(this.#fingerprintKind, new Uint8Array(capacity));
  }

  #share(shared: Shared): number {
    if (this.#lastShared !== null && sameMembers(shared, this.#lastShared)) {
      (this.#refs[this.#lastIndex] as number)++;
      return this.#lastIndex;
    }
    const text = JSON.stringify(shared);
    let index = this.#sharedIndex.get(text);
    if (index === undefined) {
      index = this.#freeShared.pop() ?? this.#shared.length;
      this.#shared[index] = shared;
      this.#sharedText[index] = text;
      this.#refs[index] = 0;
      this.#sharedIndex.set(text, index);
    }
    (this.#refs[index] as number)++;
    this.#lastShared = shared;
    this.#lastIndex = index;
    return index;
  }

  /**
   * A state no number refers to any more is let go: each night's `status` gives every order a
   * new reading (prior.ts `lastStatus`), and a journal of many nights must not hold them all.
   */
  #release(index: number): void {
    const refs = (this.#refs[index] as number) - 1;
    this.#refs[index] = refs;
    if (refs > 0) return;
    this.#sharedIndex.delete(this.#sharedText[index] as string);
    this.#shared[index] = undefined;
    this.#sharedText[index] = "";
    this.#freeShared.push(index);
    if (this.#lastIndex === index) {
      this.#lastShared = null;
      this.#lastIndex = NO_ENTRY;
    }
  }

  #setFingerprint(entry: number, fingerprint: string | undefined): void {
    this.#otherFingerprints.delete(entry);
    if (fingerprint === undefined) {
      this.#fingerprintKind[entry] = 0;
    } else if (PACKABLE.test(fingerprint)) {
      this.#fingerprintKind[entry] = 1;
      this.#fingerprints ??= Buffer.alloc(this.#stateOf.length * FINGERPRINT_LENGTH);
      this.#fingerprints.write(fingerprint, entry * FINGERPRINT_LENGTH, "latin1");
    } else {
      this.#fingerprintKind[entry] = 2;
      this.#otherFingerprints.set(entry, fingerprint);
    }
  }

  #fingerprintAt(entry: number): string | undefined {
    switch (this.#fingerprintKind[entry]) {
      case 1:
        return this.#fingerprints?.toString("latin1", entry * FINGERPRINT_LENGTH, (entry + 1) * FINGERPRINT_LENGTH);
      case 2:
        return this.#otherFingerprints.get(entry);
      default:
        return undefined;
    }
  }

  #stateAt(entry: number): State {
    return this.#parts.join(this.#shared[this.#stateOf[entry] as number] as Shared, this.#fingerprintAt(entry));
  }
}

/** A 10-digit number as a double: exact, as every integer below 2^53 is. */
function keyOf(number: string): number {
  return Number(number);
}

/** A number held as a double, as its 10 digits again. */
export function textOf(key: number): string {
  return String(key).padStart(10, "0");
}

/** Member by member, each the same value: two states that say the same, whatever object built them. */
function sameMembers(a: object, b: object): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  return true;
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
