/**
 * Stage 1 of a run, prepare: what the account has (lookups), the --defaults, and every row of
 * the sheet read and validated. All of it happens before anything is sent (docs/contract.md §4).
 */
import type { Sheet } from "../input/reader.js";
import type { ServiceClient } from "../service/client.js";
import { loadDefaults, NO_DEFAULTS } from "../validate/defaults.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { CheckedRow, Lookups } from "../validate/types.js";
import { createValidator } from "../validate/validator.js";
import { calendarAsking, easternToday } from "../validate/port-date.js";
import type { RunProgress } from "./progress.js";
import { fetchPortableList, refuseUnportable } from "./portability.js";
import { LETTER_MEMBER, staleLetterRows } from "../letters/stale.js";
import type { SheetLayout } from "../input/types.js";
import { createE911Reader, readRowE911 } from "../validate/e911.js";
import type { E911Rows } from "../validate/e911.js";

export interface PreparedRun {
  readonly sheet: Sheet;
  /** Every data row, in input order, checked; a row whose 9-1-1 address the service refuses is made invalid in place before settling (e911-verify.ts). */
  readonly rows: CheckedRow[];
  /** What the account has, as the rows were checked against it. */
  readonly lookups: Lookups;
  /** The rows' 9-1-1 addresses (docs/contract.md §2, "9-1-1 addresses"). */
  readonly e911: E911Rows;
}

export interface PrepareOptions {
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
  const e911Reader = createE911Reader(sheet.layout, defaults.e911);
  const e911: E911Rows = { given: e911Reader.given, addresses: new Map(), invalid: new Set() };
  const progress = options.progress ?? null;
  if (progress !== null) Object.assign(progress, { totalBytes: sheet.size, bytesRead: () => sheet.bytesRead() });
  for await (const row of sheet.rows) {
    if (progress !== null) progress.rows++;
    // Awaited only when it must wait (a file read): an await per row is a microtask per row.
    const checked = validator.check(row.index === rows.length ? row : { ...row, index: rows.length });
    rows.push(readRowE911(e911Reader, checked instanceof Promise ? await checked : checked, row.cells, e911));
  }
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
  // A row made invalid since its address was read (a duplicate, a stale letter, not portable) registers nothing.
  for (const index of e911.addresses.keys()) if (rows[index]?.valid !== true) e911.addresses.delete(index);
  return { sheet, rows, lookups, e911 };
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

async function fetchLookups(client: ServiceClient): Promise<Lookups> {
  const [trunks, offerings, providers] = await Promise.all([client.trunks(), client.offerings(), client.providers()]);
  return { trunks, offerings, providers };
}
