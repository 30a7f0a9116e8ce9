/**
 * Stage 1 of a run, prepare: what the account has (lookups), the --defaults, and every row of
 * the sheet read and validated. All of it happens before anything is sent (docs/contract.md §4).
 */
import type { Sheet } from "../input/sheet.js";
import { verbatimTest } from "../results/cells.js";
import type { ServiceClient } from "../service/client.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { CheckedRow, Lookups } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";
import { fetchPortableList, refuseUnportable } from "./portability.js";

export interface PreparedRun {
  readonly sheet: Sheet;
  /** Every data row, in input order, checked. */
  readonly rows: readonly CheckedRow[];
  /**
   * The cells of the rows the results cannot copy from the input as they stand (a row to
   * mask, defuse or pad, or an input that cannot be read twice): a million rows' cells would
   * take ~1 GB, so the others are re-read from the file when the results are written.
   */
  readonly keptCells: ReadonlyMap<number, readonly string[]>;
}

/** `--check-portability`: refuse rows the service does not port in, asking at most `concurrency` Checks at once if it comes to that. */
export interface PortabilityOption {
  readonly concurrency: number;
}

export async function prepare(sheet: Sheet, client: ServiceClient, defaultsPath: string | null, portability: PortabilityOption | null = null): Promise<PreparedRun> {
  // Fetched beside the lookups, once per run; its failure only matters once the rows are read.
  const list = portability === null ? null : fetchPortableList(client);
  list?.catch(() => undefined);
  const lookups = await fetchLookups(client);
  const defaults = defaultsPath === null ? NO_DEFAULTS : await loadDefaults(defaultsPath, lookups.providers);
  const validator = createValidator({ layout: sheet.layout, lookups, defaults });
  const rows: CheckedRow[] = [];
  const copyable = verbatimTest(sheet.layout.header);
  const keptCells = new Map<number, readonly string[]>();
  for await (const row of sheet.rows) {
    if (!sheet.rereadable || !copyable(row.cells)) keptCells.set(rows.length, row.cells);
    rows.push(await validator.check(row));
  }
  if (list !== null && portability !== null) await refuseUnportable(rows, await list, client, portability.concurrency);
  return { sheet, rows, keptCells };
}

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}
