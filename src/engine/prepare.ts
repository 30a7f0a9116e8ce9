/**
 * Stage 1 of a run, prepare: what the account has (lookups), the --defaults, and every row of
 * the sheet read and validated. All of it happens before anything is sent (docs/contract.md §4).
 */
import type { Sheet } from "../input/sheet.js";
import { CellSpool } from "../input/spool.js";
import { verbatimTest } from "../results/cells.js";
import type { ServiceClient } from "../service/client.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { CheckedRow, Lookups } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";

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
}

export async function prepare(sheet: Sheet, client: ServiceClient, defaultsPath: string | null): Promise<PreparedRun> {
  const lookups = await fetchLookups(client);
  const defaults = defaultsPath === null ? NO_DEFAULTS : await loadDefaults(defaultsPath, lookups.providers);
  const validator = createValidator({ layout: sheet.layout, lookups, defaults });
  const rows: CheckedRow[] = [];
  const copyable = verbatimTest(sheet.layout.header);
  const keptCells = new CellSpool();
  try {
    for await (const row of sheet.rows) {
      if (!sheet.rereadable || !copyable(row.cells)) {
        const written = keptCells.keep(rows.length, row.cells);
        if (written !== undefined) await written;
      }
      rows.push(await validator.check(row));
    }
  } catch (error) {
    await keptCells.close();
    throw error;
  }
  return { sheet, rows, keptCells };
}

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}
