/**
 * What stderr says about a sheet once its header is read, before anything connects
 * (docs/contract.md §3): the rows taken as a title above the header, and the columns that are
 * copied to the results but never sent, so a customer's header is never silently ignored.
 */
import type { CommandIO } from "../io.js";
import { unsentColumns } from "../input/likely-column.js";
import type { SheetLayout } from "../input/types.js";
import { printedPath, terminalSafe } from "../terminal-text.js";

export function noticeSheet(layout: SheetLayout, io: CommandIO): void {
  const headerLine = layout.headerLine ?? 1;
  if (headerLine > 1) {
    const above = headerLine === 2 ? "line 1" : `lines 1-${headerLine - 1}`;
    io.stderr.write(`portin: ${printedPath(layout.source)}: the header is on line ${headerLine}; ${above} above it, a title, are not read as rows\n`);
  }
  const unsent = unsentColumns(layout);
  if (unsent.length === 0) return;
  const listed = unsent.map((c) => (c.likely === undefined ? c.header : `${c.header} (${c.likely}?)`)).join(", ");
  io.stderr.write(`portin: copied to the results, never sent: ${terminalSafe(listed)}\n`);
  const likely = unsent.filter((c) => c.likely !== undefined);
  if (likely.length > 0) {
    const mapping = JSON.stringify(Object.fromEntries(likely.map((c) => [c.header, c.likely])));
    io.stderr.write(`portin: to send ${likely.length === 1 ? "it" : "them"}, map ${likely.length === 1 ? "it" : "them"} in the --defaults file: "columns": ${terminalSafe(mapping)}\n`);
  }
}
