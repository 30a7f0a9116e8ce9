/**
 * Stage 4 of a run, write: one results row per input row, in input order, whatever happened
 * before, so a stopped run still accounts for every row.
 */
import type { CommandIO } from "../io.js";
import type { Sheet } from "../input/reader.js";
import type { InputCopy } from "../results/input-copy.js";
import { numberColumnOf } from "../results/writer.js";
import type { ResultColumnsAt, ResultsOptions, ResultsWriter } from "../results/encoder.js";

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

/**
 * Every row's own cells (`copy`, told each row as the sheet was read) and its outcome: for `submit` and
 * `plan` a RowOutcome; for `status`, a row's order status.
 */
export async function writeResults<T>(copy: InputCopy, outcomeOf: (index: number) => T, results: ResultsWriter<T>, io: CommandIO): Promise<void> {
  await copy.writeTo(results, outcomeOf, io);
  await results.close();
}
