/**
 * What stderr says about a sheet once its header is read, before anything connects
 * (docs/contract.md §3): the rows taken as a title above the header, and the columns that are
 * copied to the results but never sent, so a customer's header is never silently ignored.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CommandIO } from "../io.js";
import * as notices from "../messages/notices.js";
import { unsentColumns } from "../input/likely-column.js";
import type { SheetLayout } from "../input/types.js";
import { printedPath, terminalSafe } from "../terminal-text.js";

export function noticeSheet(layout: SheetLayout, io: CommandIO): void {
  const headerLine = layout.headerLine ?? 1;
  if (headerLine > 1) io.stderr.write(notices.headerBelowTitle(printedPath(layout.source), headerLine));
  const unsent = unsentColumns(layout);
  if (unsent.length === 0) return;
  const listed = unsent.map((c) => (c.likely === undefined ? c.header : `${c.header} (${c.likely}?)`)).join(", ");
  io.stderr.write(notices.columnsNeverSent(terminalSafe(listed)));
  const likely = unsent.filter((c) => c.likely !== undefined);
  if (likely.length > 0) {
    const mapping = JSON.stringify(Object.fromEntries(likely.map((c) => [c.header, c.likely])));
    io.stderr.write(notices.mapLikelyColumns(likely.length, terminalSafe(mapping)));

  }
}

/**
 * The lock files a spreadsheet program leaves beside a sheet it has open: Excel's owner file
 * `~$<name>` (the name's first two characters dropped when it is long, as Word and Excel on
 * some versions do), LibreOffice's `.~lock.<name>#`.
 */
function lockFilesOf(name: string): readonly { readonly file: string; readonly program: string }[] {
  return [
    { file: `~$${name}`, program: "Excel" },
    { file: `~$${name.slice(2)}`, program: "Excel" },
    { file: `.~lock.${name}#`, program: "LibreOffice" },
  ];
}

/**
 * docs/contract.md §3: a sheet open in Excel or LibreOffice may hold edits not yet saved;
 * portin reads the file as last saved, and says so, so that a lead who just typed a fix does
 * not plan the sheet without it.
 */
export function noticeOpenSheet(input: string, io: CommandIO): void {
  if (input === "-") return;
  const folder = dirname(input);
  const open = lockFilesOf(basename(input)).find((lock) => existsSync(join(folder, lock.file)));
  if (open === undefined) return;
  io.stderr.write(notices.sheetLooksOpen(printedPath(input), open.program, printedPath(open.file)));
}
