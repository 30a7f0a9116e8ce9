/**
 * Stage 1 of a run, prepare: what the account has (lookups), the --defaults, and every row of
 * the sheet read and validated. All of it happens before anything is sent (docs/contract.md §4).
 */
import type { Sheet } from "../input/sheet.js";
import { CellSpool } from "../input/spool.js";
import { verbatimTest } from "../results/cells.js";
import type { ServiceClient } from "../service/client.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { CheckedRow, Lookups } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";
import { parseNanp } from "../validate/nanp.js";
import { readRange } from "../validate/ranges.js";
import { calendarAsking, easternToday } from "../validate/port-date.js";
import type { RunProgress } from "./progress.js";
import { fetchPortableList, refuseUnportable } from "./portability.js";

export interface PreparedRun {
  readonly sheet: Sheet;
  /** Every data row, in input order, checked. */
  readonly rows: readonly CheckedRow[];
  /**
   * The cells of the rows the results cannot copy from the input as they stand (a row to
   * mask, defuse or pad, or every row of an input that cannot be read twice: standard input,
   * a workbook): a million rows' cells would take ~1 GB, so the others are re-read from the
   * file when the results are written, and these are spooled to disk past a few megabytes.
   */
  readonly keptCells: CellSpool;
  /** The sheet's data row that results row `index` comes from: they differ once a range row has been expanded. */
  readonly sourceRow: (index: number) => number;
}

export interface PrepareOptions {
  /**
   * Whether the results may copy a row's own text from the input (results/writer.ts
   * copiesRowText): false keeps every row's cells, as a workbook's results need them.
   */
  readonly copyRowText?: boolean;
  /** `--expand-ranges`: a range row becomes one row per number (validate/ranges.ts). */
  readonly expandRanges?: boolean;
  readonly progress?: RunProgress | null;
  /** `--check-portability`: refuse rows the service does not port in, asking at most `concurrency` Checks at once if it comes to that. */
  readonly portability?: PortabilityOption | null;
}

export interface PortabilityOption {
  readonly concurrency: number;
}

export async function prepare(sheet: Sheet, client: ServiceClient, defaultsFile: DefaultsFile | null, options: PrepareOptions = {}): Promise<PreparedRun> {
  const portability = options.portability ?? null;
  // Fetched beside the lookups, once per run; its failure only matters once the rows are read.
  const list = portability === null ? null : fetchPortableList(client);
  list?.catch(() => undefined);
  const lookups = await fetchLookups(client);
  if (options.progress) options.progress.phase = "reading";
  // Today in Eastern time, and the service's holidays once a row (or --defaults) gives a port date (docs/contract.md §3).
  const calendar = calendarAsking(easternToday(), () => client.holidays().then((list) => new Map(list.map((h) => [h.date, h.name]))));
  const defaults = defaultsFile === null ? NO_DEFAULTS : await loadDefaults(defaultsFile, lookups.providers, calendar);
  const validator = createValidator({ layout: sheet.layout, lookups, defaults, calendar });
  const rows: CheckedRow[] = [];
  const copyable = options.copyRowText === false ? (): boolean => false : verbatimTest(sheet.layout.header);
  const keptCells = new CellSpool();
  const keep = async (index: number, cells: readonly string[]): Promise<void> => {
    const written = keptCells.keep(index, cells);
    if (written !== undefined) await written;
  };
  const numberAt = sheet.layout.columns.find((column) => column.role.kind === "number")?.index ?? -1;
  const expansions = new Expansions();
  const progress = options.progress ?? null;
  if (progress !== null) Object.assign(progress, { totalBytes: sheet.size, bytesRead: () => sheet.bytesRead() });
  try {
    for await (const row of sheet.rows) {
      if (progress !== null) progress.rows++;
      const range = options.expandRanges ? expandable(row.cells[numberAt]) : null;
      if (range !== null) {
        // Each number gets its own row and results row: the range row's cells, with the number
        // cell naming that number, so the results read as a sheet that listed them one by one.
        for (const number of range) {
          const cells = row.cells.map((cell, at) => (at === numberAt ? number : cell));
          await keep(rows.length, cells);
          const checked = validator.check({ index: rows.length, line: row.line, cells });
          rows.push(checked instanceof Promise ? await checked : checked);
        }
        expansions.add(rows.length, range.length - 1);
        continue;
      }
      if (!sheet.rereadable || !copyable(row.cells)) await keep(rows.length, row.cells);
      // Awaited only when it must wait (a file read): an await per row is a microtask per row.
      const checked = validator.check(expansions.extra === 0 ? row : { ...row, index: rows.length });
      rows.push(checked instanceof Promise ? await checked : checked);
    }
  } catch (error) {
    await keptCells.close();
    throw error;
  }
  // docs/contract.md §3: two rows that disagree about one number are both invalid.
  for (const [index, reason] of validator.overruled()) {
    const row = rows[index];
    if (row?.valid === true) rows[index] = { valid: false, index, line: row.line, number: row.number, numberKind: row.numberKind, operation: row.operation, reason };
  }
  if (list !== null && portability !== null) await refuseUnportable(rows, await list, client, portability.concurrency);
  return { sheet, rows, keptCells, sourceRow: (index) => expansions.sourceOf(index) };
}

/** The numbers of a number cell written as a range, or null: only a cell that is not one number is looked at. */
function expandable(cell: string | undefined): readonly string[] | null {
  if (cell === undefined || parseNanp(cell).ok) return null;
  const range = readRange(cell.trim());
  return range?.kind === "range" ? range.numbers : null;
}

/** Where results rows and the sheet's data rows part, after each expanded range: a few entries, not one per row. */
class Expansions {
  /** Results rows from `from` on come `extra` rows after the sheet's. */
  private readonly marks: { readonly from: number; readonly extra: number }[] = [];
  extra = 0;

  add(from: number, rows: number): void {
    this.extra += rows;
    this.marks.push({ from, extra: this.extra });
  }

  sourceOf(index: number): number {
    let lo = 0;
    let hi = this.marks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.marks[mid]?.from ?? 0) <= index) lo = mid + 1;
      else hi = mid;
    }
    return index - (lo === 0 ? 0 : (this.marks[lo - 1]?.extra ?? 0));
  }
}

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}
