/**
 * Stage 4 of a run, write: one results row per input row, in input order, whatever happened
 * before, so a stopped run still accounts for every row.
 */
import type { CommandIO } from "../io.js";
import type { Sheet } from "../input/sheet.js";
import { numberColumnOf } from "../results/writer.js";
import type { ResultColumnsAt, ResultsOptions, ResultsWriter } from "../results/writer.js";
import type { PreparedRun } from "./prepare.js";
import { terminalSafe } from "../terminal-text.js";

/** A row left out of the results' own columns (its input changed during the run): padded with empty cells. */
const NO_CELLS: readonly string[] = [];

/**
 * How results (or `status`'s report) of `sheet` are written: in the sheet's own delimiter, byte
 * order mark and line end, its number column kept in view, `rows` rows. `option` names the flag
 * that chose the path, for messages.
 */
export function resultsOptionsFor(sheet: Sheet, rows: number, io: CommandIO, resultColumns: ResultColumnsAt | undefined, option?: string): ResultsOptions {
  return {
    delimiter: sheet.layout.delimiter,
    ...sheet.textFormat(),
    stdout: io.stdout,
    rows,
    resultColumns: resultColumns ?? "last",
    numberColumn: numberColumnOf(sheet.layout),
    ...(option === undefined ? {} : { option }),
  };
}

/** For `submit` and `plan` the outcome is a RowOutcome; for `status`, a row's order status. */
export async function writeResults<T>(prepared: PreparedRun, outcomeOf: (index: number) => T, results: ResultsWriter<T>, io: CommandIO): Promise<void> {
  const { sheet, rows, keptCells, sourceRow } = prepared;
  const input = await sheet.reread();
  if (sheet.rereadable && input === null) {
    io.stderr.write(`portin: ${terminalSafe(sheet.layout.source)} changed during the run: its cells are left out of the results\n`);
  }
  try {
    for (let i = 0; i < rows.length; i++) {
      const cells = await keptCells.get(i);
      const source = cells === undefined && input !== null ? sourceRow(i) : -1;
      const text = input !== null && source >= 0 ? (input.rowAt(source) ?? (await input.read(source))) : null;
      if (text !== null) await results.writeVerbatim(text, outcomeOf(i));
      else await results.write(cells ?? NO_CELLS, outcomeOf(i));
    }
  } finally {
    await input?.close();
    await keptCells.close();
  }
  await results.close();
}
