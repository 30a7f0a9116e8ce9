/**
 * Stage 1 of a run, prepare: what the account has (lookups), the --defaults, and every row of
 * the sheet read and validated. All of it happens before anything is sent (docs/contract.md §4).
 */
import type { Sheet } from "../input/reader.js";
import type { InputCopy } from "../results/input-copy.js";
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
import { LETTER_MEMBER, staleLetterRows } from "../letters/stale.js";
import type { SheetLayout } from "../input/types.js";

export interface PreparedRun {
  readonly sheet: Sheet;
  /** Every data row, in input order, checked. */
  readonly rows: readonly CheckedRow[];
  /** What the account has, as the rows were checked against it. */
  readonly lookups: Lookups;
}

export interface PrepareOptions {
  /**
   * Where each row's own cells go for the results (results/input-copy.ts), told every row as
   * it is read; closed here when prepare fails. Absent: the rows are only checked.
   */
  readonly copy?: InputCopy | null;
  /** `--expand-ranges`: a range row becomes one row per number (validate/ranges.ts). */
  readonly expandRanges?: boolean;
  readonly progress?: RunProgress | null;
  /** `--check-portability`: refuse rows the service does not port in, asking at most `concurrency` Checks at once if it comes to that. */
  readonly portability?: PortabilityOption | null;
  /**
   * Letters of authorization (docs/contract.md §2): "check" makes the rows of a group whose
   * attached letter of portin's is not the group's invalid (`plan`, `submit`); "make" reads
   * no `FileLetterOfAuthorization`, the letter being what the run makes (`portin loa`): a
   * sheet that names the letters to come, or stale ones, must still give them.
   */
  readonly letters?: "check" | "make" | null;
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
  // Today in Eastern time by the service's clock (its answers' Date header; the machine's when
  // none came), and the service's holidays once a row (or --defaults) gives a port date
  // (docs/contract.md §3): a sandbox rehearsing another day, or a machine whose clock is
  // wrong, judges dates in the past by the service's calendar.
  const calendar = calendarAsking(easternToday(client.serviceDate() ?? new Date()), () => client.holidays().then((list) => new Map(list.map((h) => [h.date, h.name]))));
  const making = options.letters === "make";
  const defaults = defaultsFile === null ? NO_DEFAULTS : await loadDefaults(making ? withoutLetterDefault(defaultsFile) : defaultsFile, lookups.providers, calendar);
  const validator = createValidator({ layout: making ? withoutLetterColumns(sheet.layout) : sheet.layout, lookups, defaults, calendar });
  const rows: CheckedRow[] = [];
  const copy = options.copy ?? null;
  const numberAt = sheet.layout.columns.find((column) => column.role.kind === "number")?.index ?? -1;
  const progress = options.progress ?? null;
  if (progress !== null) Object.assign(progress, { totalBytes: sheet.size, bytesRead: () => sheet.bytesRead() });
  try {
    for await (const row of sheet.rows) {
      if (progress !== null) progress.rows++;
      const range = options.expandRanges ? expandable(row.cells[numberAt]) : null;
      if (range !== null) {
        // Each number gets its own row and results row: the range row's cells, with the number
        // cell naming that number, so the results read as a sheet that listed them one by one.
        const expanded = range.map((number) => row.cells.map((cell, at) => (at === numberAt ? number : cell)));
        await copy?.expanded(expanded);
        for (const cells of expanded) {
          const checked = validator.check({ index: rows.length, line: row.line, cells });
          rows.push(checked instanceof Promise ? await checked : checked);
        }
        continue;
      }
      const kept = copy?.row(row.cells);
      if (kept !== undefined) await kept;
      // Awaited only when it must wait (a file read): an await per row is a microtask per row.
      const checked = validator.check(row.index === rows.length ? row : { ...row, index: rows.length });
      rows.push(checked instanceof Promise ? await checked : checked);
    }
    // The last rows waiting to be made into text are kept now, while the sheet is read: the
    // spool's temporary file is made before anything is sent, or not at all (docs/contract.md §4).
    await copy?.finish();
    // docs/contract.md §3: two rows that disagree about one number are both invalid.
    for (const [index, reason] of validator.overruled()) {
      const row = rows[index];
      if (row?.valid === true) rows[index] = { valid: false, index, line: row.line, number: row.number, numberKind: row.numberKind, operation: row.operation, reason };
    }
    if (options.letters === "check") {
      for (const [index, reason] of await staleLetterRows(rows, lookups.providers)) {
        const row = rows[index];
        if (row?.valid === true) rows[index] = { valid: false, index, line: row.line, number: row.number, numberKind: row.numberKind, operation: row.operation, reason };
      }
    }
    if (list !== null && portability !== null) await refuseUnportable(rows, await list, client, portability.concurrency);
  } catch (error) {
    await copy?.close();
    throw error;
  }
  return { sheet, rows, lookups };
}

const isLetterMember = (name: string): boolean => name.toLowerCase() === LETTER_MEMBER.toLowerCase();

/** The sheet's layout with its letter column read as a column never sent. */
function withoutLetterColumns(layout: SheetLayout): SheetLayout {
  const columns = layout.columns.map((column) =>
    column.role.kind === "member" && column.role.member.scope === "portform" && isLetterMember(column.role.member.name) ? { ...column, role: { kind: "passthrough" as const } } : column,
  );
  return { ...layout, columns };
}

/** The --defaults file without a letter for every row. */
function withoutLetterDefault(file: DefaultsFile): DefaultsFile {
  const json = Object.fromEntries(
    Object.entries(file.json).map(([section, members]) =>
      section.toLowerCase() === "portform" && typeof members === "object" && members !== null && !Array.isArray(members)
        ? [section, Object.fromEntries(Object.entries(members).filter(([name]) => !isLetterMember(name)))]
        : [section, members],
    ),
  );
  return { ...file, json };
}

/** The numbers of a number cell written as a range, or null: only a cell that is not one number is looked at. */
function expandable(cell: string | undefined): readonly string[] | null {
  if (cell === undefined || parseNanp(cell).ok) return null;
  const range = readRange(cell.trim());
  return range?.kind === "range" ? range.numbers : null;
}

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}
