/**
 * Who a row's customer is (docs/contract.md §2 `report`): its account at the losing carrier,
 * `CustomerAccountNumber` with `CurrentProvider`, not the name on the row, so a name corrected
 * after a reject ("Credit Valley Accounting LLP" / "L.L.P.") stays one customer, shown with
 * every name it went by. A row without an account number is known by its name alone. Pure.
 */

/** What the sheet says of a row's customer. */
export interface CustomerCells {
  readonly name: string;
  /** CustomerAccountNumber as written, "" when none. */
  readonly account: string;
  /** CurrentProvider as written, "" when none. */
  readonly provider: string;
}

export interface Customer {
  /** How the page and the calendar name it: its most written name (and its account, when two share that name). */
  readonly label: string;
  readonly account: string;
  readonly provider: string;
  /** Every name its rows went by, the most written first. */
  readonly names: readonly string[];
}

/** Account numbers are compared without case, spaces and dashes: `7741-220-118` is `7741 220 118`. */
function keyOf(cells: CustomerCells): string {
  if (cells.account === "") return `name:${cells.name}`;
  return `account:${cells.account.toUpperCase().replace(/[\s-]/g, "")}@${cells.provider.trim().toLowerCase()}`;
}

/** Gathers rows' customers; `customerOf` then names each row's. */
export class CustomerBook {
  private readonly names = new Map<string, Map<string, number>>();
  private readonly first = new Map<string, CustomerCells>();
  private labels: Map<string, Customer> | null = null;

  add(cells: CustomerCells): void {
    const key = keyOf(cells);
    const names = this.names.get(key) ?? new Map<string, number>();
    names.set(cells.name, (names.get(cells.name) ?? 0) + 1);
    this.names.set(key, names);
    if (!this.first.has(key)) this.first.set(key, cells);
    this.labels = null;
  }

  customerOf(cells: CustomerCells): Customer {
    const labels = this.labels ?? this.label();
    return labels.get(keyOf(cells)) as Customer;
  }

  customers(): Customer[] {
    return [...(this.labels ?? this.label()).values()];
  }

  private label(): Map<string, Customer> {
    const byKey = new Map<string, { account: string; provider: string; names: string[] }>();
    const used = new Map<string, number>();
    for (const [key, counts] of this.names) {
      const names = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
      const cells = this.first.get(key) as CustomerCells;
      byKey.set(key, { account: cells.account, provider: cells.provider, names });
      used.set(names[0] as string, (used.get(names[0] as string) ?? 0) + 1);
    }
    const labels = new Map<string, Customer>();
    for (const [key, c] of byKey) {
      const name = c.names[0] as string;
      // Two accounts written with the same name stay two customers, told apart by account.
      const label = (used.get(name) ?? 0) > 1 && c.account !== "" ? `${name} (account ${c.account})` : name;
      labels.set(key, { label, account: c.account, provider: c.provider, names: c.names });
    }
    this.labels = labels;
    return labels;
  }
}
