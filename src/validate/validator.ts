/**
 * Row validation (docs/contract.md §3 "Values" and the `invalid` rules): a SheetRow becomes a
 * ValidRow ready for planning, or an InvalidRow with one line saying why. A bad row is data,
 * never an exception. This module composes the parts: the tables built once per sheet
 * (sheet-columns.ts, target.ts, record-cache.ts), the fast path that judges a row
 * (first-problem.ts), the path that words an invalid row's every problem (every-problem.ts),
 * and duplicates, decided in call order (duplicates.ts).
 */
import type { SheetLayout, SheetRow } from "../input/types.js";
import { STDIN_SOURCE } from "../input/sheet.js";
import type { ConvertEnv } from "./convert.js";
import type { AttachmentFolder, ReadFile } from "./files.js";
import { createFileAttacher } from "./files.js";
import type { CheckedRow, Defaults, InvalidRow, Lookups } from "./types.js";
import type { PortCalendar } from "./port-date.js";
import { easternToday, NO_HOLIDAYS } from "./port-date.js";
import { sheetColumns } from "./sheet-columns.js";
import { createTargetResolver } from "./target.js";
import { createRecordCache } from "./record-cache.js";
import type { RowVerdict } from "./row-context.js";
import { invalidRow } from "./row-context.js";
import type { FirstProblem } from "./first-problem.js";
import { createFirstProblem } from "./first-problem.js";
import type { EveryProblem } from "./every-problem.js";
import { createEveryProblem } from "./every-problem.js";
import { createDuplicates } from "./duplicates.js";
import * as rows from "../messages/rows.js";

export interface ValidatorContext {
  readonly layout: SheetLayout;
  readonly lookups: Lookups;
  readonly defaults: Defaults;
  /** Reads `portform.File…` attachments (default: node:fs); a seam for tests to count reads. */
  readonly readFile?: ReadFile;
  /**
   * Today and the service's holidays, for `RequestedPortDate` (docs/contract.md §3); default:
   * today in Eastern time and no holidays known (a run passes the service's, engine/prepare.ts).
   */
  readonly calendar?: PortCalendar;
}

export interface Validator {
  /**
   * Rows may be checked concurrently; duplicates are still decided in the order of the calls.
   * A Promise only while a row naming files, or a row queued behind one, waits: a sheet's
   * other rows are judged without a microtask each (a million rows, a million awaits saved).
   */
  check(row: SheetRow): CheckedRow | Promise<CheckedRow>;
  /**
   * Rows `check` found valid that a later row with the same number but another target or
   * PortForm contradicts: index -> the reason they are invalid after all. Complete once every
   * row has been checked.
   */
  overruled(): ReadonlyMap<number, string>;
}

/** The validator's two paths over one sheet, apart: test/validate/paths-agree.test.ts holds them to one verdict. */
export interface ValidatorPaths {
  readonly firstProblem: FirstProblem;
  readonly everyProblem: EveryProblem;
}

/**
 * Where a sheet's `File…` paths must lie: the sheet's folder. Standard input has no folder,
 * so its sheet may attach files inside the current directory only (docs/security.md, Attachments).
 */
function attachmentFolder(layout: SheetLayout): AttachmentFolder {
  if (layout.source === STDIN_SOURCE) {
    return { dir: layout.baseDir, name: "the current directory", why: rows.STDIN_HAS_NO_FOLDER };

  }
  return { dir: layout.baseDir, name: "the sheet's folder" };
}

export function createValidatorPaths(context: ValidatorContext): ValidatorPaths {
  const { layout, lookups, defaults } = context;
  const env: ConvertEnv = { providers: lookups.providers, files: createFileAttacher(attachmentFolder(layout), context.readFile) };
  const rules = {
    columns: sheetColumns(layout, env),
    targets: createTargetResolver(lookups),
    operations: createRecordCache(defaults),
    calendar: context.calendar ?? { today: easternToday(), holidays: () => NO_HOLIDAYS },
  };
  return { firstProblem: createFirstProblem(rules, defaults), everyProblem: createEveryProblem(rules) };
}

export function createValidator(context: ValidatorContext): Validator {
  const { firstProblem, everyProblem } = createValidatorPaths(context);

  /** The fast path's invalid row, its message naming every problem of the row. */
  function reworded(row: SheetRow, first: InvalidRow): InvalidRow | Promise<InvalidRow> {
    const listed = everyProblem(row);
    const toRow = (list: Awaited<ReturnType<EveryProblem>>): InvalidRow => {
      // Only the fast path judges a request's attachment total (first-problem.ts checkAttachmentTotal); for such a row, and
      // for any other problem this list does not name, its own reason stands rather than none (paths-agree.test.ts checks the rest).
      if (list === null || list.problems.length === 0) return first;
      return invalidRow(row, list.problems.join("; "), list.number, list.numberKind, list.operation ?? first.operation);
    };
    return listed instanceof Promise ? listed.then(toRow) : toRow(listed);
  }

  function evaluate(row: SheetRow): RowVerdict | Promise<RowVerdict> {
    const outcome = firstProblem(row);
    if (outcome instanceof Promise) return outcome.then((settled) => (settled.valid ? settled : reworded(row, settled)));
    return outcome.valid ? outcome : reworded(row, outcome);
  }

  const duplicates = createDuplicates();
  // Rows naming files wait for their reads; later rows queue behind them so that "the
  // earlier valid row" of a duplicate is always the earlier call.
  let tail: Promise<unknown> | null = null;
  return {
    overruled: () => duplicates.overruled,
    check(row) {
      const outcome = evaluate(row);
      if (tail === null && !(outcome instanceof Promise)) return duplicates.judge(outcome);
      const previous: Promise<unknown> = tail ?? Promise.resolve();
      const result = previous.then(() => outcome).then((settled) => duplicates.judge(settled));
      tail = result;
      void result.finally(() => {
        if (tail === result) tail = null;
      });
      return result;
    },
  };
}
