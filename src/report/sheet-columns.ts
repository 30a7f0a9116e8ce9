/**
 * The report's sheet facts (SheetFacts) held column by column rather than as an
 * object a row: a 1,000,000-row sheet's facts are most of what `report` holds, and an object
 * a row costs ~100 bytes before its strings (docs/architecture.md, Memory). Customers,
 * windows, accounts, providers and port dates repeat down a sheet, so each is one entry of a
 * string table and a row holds its index; a row's line is a double and its trunk flag a byte.
 */

/** What the report needs of one sheet row. */
export interface SheetFacts {
  /** 1-based line of the file. */
  readonly line: number;
  /** The number cell as written. */
  readonly numberCell: string;
  /** PortForm CustomerName, else `group`, else the target (pilot number or offering). */
  readonly customer: string;
  /** PortForm RequestedPortTime as written, "" when none: the port's time window. */
  readonly window: string;
  /** Whether the row names a SIP trunk (pilot_number): a regular number there takes a 9-1-1 record. */
  readonly onTrunk?: boolean;
  /** PortForm CustomerAccountNumber as written, "" or absent when none: with the provider, who the customer is. */
  readonly account?: string;
  /** PortForm CurrentProvider as written. */
  readonly provider?: string;
  /** PortForm RequestedPortDate as written, "" or absent when none. */
  readonly requestedDate?: string;
}

/** Distinct texts looked up by value at most: past this, a new text is added without a lookup (a sheet whose column differs every row). */
const LOOKED_UP_AT_MOST = 100_000;
/** Text columns a row holds an index into the table for, in this order. */
const CUSTOMER = 0;
const WINDOW = 1;
const ACCOUNT = 2;
const PROVIDER = 3;
const REQUESTED_DATE = 4;
const TEXT_COLUMNS = 5;

export class SheetColumns {
  private lines = new Float64Array(1024);
  private texts = new Uint32Array(1024 * TEXT_COLUMNS);
  private trunk = new Uint8Array(1024);
  /** Each row's number cell as written; model.ts puts a row's 10 digits in its place once read, so one string a row is held. */
  readonly numberCells: string[] = [];
  private readonly table: string[] = [""];
  private readonly tableIndex = new Map<string, number>([["", 0]]);

  get length(): number {
    return this.numberCells.length;
  }

  push(facts: SheetFacts): void {
    const i = this.numberCells.length;
    if (i === this.trunk.length) this.grow();
    this.lines[i] = facts.line;
    this.trunk[i] = facts.onTrunk === true ? 1 : 0;
    const at = i * TEXT_COLUMNS;
    this.texts[at + CUSTOMER] = this.indexOf(facts.customer);
    this.texts[at + WINDOW] = this.indexOf(facts.window);
    this.texts[at + ACCOUNT] = this.indexOf(facts.account ?? "");
    this.texts[at + PROVIDER] = this.indexOf(facts.provider ?? "");
    this.texts[at + REQUESTED_DATE] = this.indexOf(facts.requestedDate ?? "");
    this.numberCells.push(facts.numberCell);
  }

  line(i: number): number {
    return this.lines[i] as number;
  }

  onTrunk(i: number): boolean {
    return this.trunk[i] === 1;
  }

  customer(i: number): string {
    return this.text(i, CUSTOMER);
  }

  window(i: number): string {
    return this.text(i, WINDOW);
  }

  account(i: number): string {
    return this.text(i, ACCOUNT);
  }

  provider(i: number): string {
    return this.text(i, PROVIDER);
  }

  requestedDate(i: number): string {
    return this.text(i, REQUESTED_DATE);
  }

  private text(i: number, column: number): string {
    return this.table[this.texts[i * TEXT_COLUMNS + column] as number] as string;
  }

  private indexOf(text: string): number {
    const known = this.tableIndex.get(text);
    if (known !== undefined) return known;
    const index = this.table.push(text) - 1;
    if (this.tableIndex.size < LOOKED_UP_AT_MOST) this.tableIndex.set(text, index);
    return index;
  }

  private grow(): void {
    const size = this.trunk.length * 2;
    const lines = new Float64Array(size);
    lines.set(this.lines);
    this.lines = lines;
    const texts = new Uint32Array(size * TEXT_COLUMNS);
    texts.set(this.texts);
    this.texts = texts;
    const trunk = new Uint8Array(size);
    trunk.set(this.trunk);
    this.trunk = trunk;
  }
}

/** Rows given as facts (buildReport's callers, the tests), held column-wise. */
export function sheetColumnsOf(rows: Iterable<SheetFacts>): SheetColumns {
  const columns = new SheetColumns();
  for (const facts of rows) columns.push(facts);
  return columns;
}
