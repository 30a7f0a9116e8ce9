/**
 * Which NPA-NXX prefixes the sandbox ports in (docs/contract.md §1.4): what its two
 * portability endpoints answer, and what it refuses at submission.
 */
import type { SandboxAccount } from "./account.js";
import { DEFAULT_AREA_CODES } from "./account.js";

/** Exchanges a NANP area code can hold: 200-999 (a leading 0 or 1 is not an exchange). */
const FIRST_EXCHANGE = 200;
const LAST_EXCHANGE = 999;

export class Portability {
  #list: readonly number[] | null = null;
  #portable: ReadonlySet<number> | null = null;

  /** The prefixes are listed at the first question, not as the sandbox starts: most runs ask none (docs/contract.md §8, "Start-up"). */
  constructor(private readonly account: SandboxAccount) {}

  /** Sorted, as the service's list. */
  get list(): readonly number[] {
    this.#list ??= portableList(this.account);
    return this.#list;
  }

  /** `digits` holds at least an NPA-NXX: 6 to 10 digits. */
  isPortable(digits: string): boolean {
    this.#portable ??= new Set(this.list);
    return this.#portable.has(Number(digits.slice(0, 6)));
  }
}

function portableList(account: SandboxAccount): number[] {
  const excluded = new Set(account.portability.notPortable);
  const list: number[] = [];
  for (const area of [...new Set(account.portability.areaCodes ?? DEFAULT_AREA_CODES)].sort((a, b) => a - b)) {
    for (let exchange = FIRST_EXCHANGE; exchange <= LAST_EXCHANGE; exchange++) {
      const prefix = area * 1000 + exchange;
      if (!excluded.has(prefix)) list.push(prefix);
    }
  }
  return list;
}

/** "613-555", as messages write an NPA-NXX. */
export function npaNxxText(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}`;
}
