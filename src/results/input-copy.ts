/**
 * The input's own cells of every results row (docs/contract.md §6), from reading the sheet to
 * writing the results: the one owner of how they get there. A row the results take as it
 * stands (cells.ts verbatimTest: the header's width, nothing to mask, defuse or pad) is read
 * again from the file as text when the results are written (input/raw.ts): a million rows'
 * cells would take ~1 GB held through the run, and stringifying them again costs as much as
 * parsing them. Every other row's cells are kept (input/spool.ts, on disk past a few
 * megabytes): a row to mask, defuse or pad, each row a range was written out as
 * (--expand-ranges), and every row when the input cannot be read twice byte for byte
 * (standard input, a workbook, a sheet not in UTF-8) or the results are not the input's text
 * followed by more (copiesRowText). With the result columns last, a kept row is kept as the
 * results' text of its cells, made as the row is read: CSV's (csv-writer.ts csvRowTexts), or,
 * past the first rows, which size a workbook's columns, the XML of its cells
 * (xlsx-rows.ts xlsxRowTexts). A workbook's reading leaves the main thread mostly idle, and the
 * results, written only once every row is planned, then copy bytes instead of making 200,000
 * rows' text while nothing else can run: 6.7 s against 7.0 s for a plan of the narrow
 * workbook with workbook results (bench/README.md, Workbooks).
 *
 * The run reads its sheet through `reading()`, which tells the copy each results row as the
 * row is read, whoever reads it (engine/prepare.ts validates, and knows nothing of this); the
 * write stage has it write each row's cells before the row's outcome.
 */
import type { CommandIO } from "../io.js";
import type { Sheet } from "../input/reader.js";
import { rowStream } from "../input/row-stream.js";
import type { SheetRow } from "../input/types.js";
import { CellSpool } from "../input/spool.js";
import { resultsFormat } from "../paths.js";
import { terminalSafe } from "../terminal-text.js";
import { verbatimTest } from "./cells.js";
import { csvRowTexts } from "./csv-writer.js";
import type { ResultColumnsAt, ResultsWriter, RowTexts } from "./encoder.js";
import { SIZED_ROWS, xlsxRowTexts } from "./xlsx-rows.js";
import * as outputWords from "../messages/output.js";

/** A row left out of the results' own columns (its input changed during the run): padded with empty cells. */
const NO_CELLS: readonly string[] = [];

/**
 * Whether results at `destination` are the input's text followed by more (CSV, writeVerbatim):
 * then a row the results take as it stands is copied from the file. A workbook's XML is made of
 * the row's cells instead: parsing each row's text again for them took 7.5 s against 2.0 s for
 * a 200,000-row sheet.
 */
function copiesRowText(destination: string, resultColumns: ResultColumnsAt): boolean {
  // Only a CSV with the result columns last is the input's text followed by more.
  return resultsFormat(destination) === "csv" && resultColumns === "last";
}

/** Rows made into text together (RowTexts). */
const TEXT_BATCH_ROWS = 256;

/**
 * How kept rows are made into the results' text of their own cells as the sheet is read, and
 * from which results row on; null to keep their cells. Only with the result columns last, where
 * a row's results are that text followed by more (encoder.ts RowTexts).
 */
function keptAsText(sheet: Sheet, destination: string, resultColumns: ResultColumnsAt): { readonly make: RowTexts; readonly from: number } | null {
  if (resultColumns !== "last") return null;
  const { header, delimiter } = sheet.layout;
  switch (resultsFormat(destination)) {
    case "csv":
      return { make: csvRowTexts(header, delimiter), from: 0 };
    // The rows that size a workbook's columns stay cells, for the writer to measure.
    case "xlsx":
      return { make: xlsxRowTexts(header), from: SIZED_ROWS };
    default:
      return null;
  }
}

export class InputCopy {
  private readonly kept = new CellSpool();
  private readonly copyable: (cells: readonly string[]) => boolean;
  /** How kept rows' results text is made, kept in place of their cells from results row `from` on; null to keep cells. */
  private readonly rowTexts: { readonly make: RowTexts; readonly from: number } | null;
  /** Rows to keep as text, waiting to be made into text together, and their indexes. */
  private waiting: (readonly string[])[] = [];
  private waitingIndexes: number[] = [];
  /** Results rows so far. */
  private rows = 0;
  /** Where results rows and the sheet's data rows part: one entry per range written out, not one per row. */
  private readonly expansions = new Expansions();

  /**
   * For results of `sheet`, as the run reads it (validate/ranges.ts withRangesExpanded for
   * `--expand-ranges`), written to `destination` with the result columns `resultColumns`.
   */
  constructor(
    private readonly sheet: Sheet,
    destination: string,
    resultColumns: ResultColumnsAt = "last",
  ) {
    this.copyable = sheet.rereadable && copiesRowText(destination, resultColumns) ? verbatimTest(sheet.layout.header) : () => false;
    this.rowTexts = keptAsText(sheet, destination, resultColumns);
  }

  /**
   * The sheet read through this copy: each row it hands on is told to the copy first, as the
   * next results row, and once the last is read the copy is finished (finish()), before anything
   * is sent.
   */
  reading(): Sheet {
    const { sheet } = this;
    const pass = (read: IteratorResult<SheetRow>): IteratorResult<SheetRow> | Promise<IteratorResult<SheetRow>> => {
      if (read.done === true) return this.finish().then(() => read);
      // Waited for only when it must be (cells to disk, a batch made into text); a then() a row, not an async function's turns.
      const kept = this.row(read.value);
      return kept === undefined ? read : kept.then(() => read);
    };
    const rows = rowStream(sheet.rows, (inner) => () => inner.next().then(pass));
    return { ...sheet, rows };
  }

  /**
   * The next results row: the sheet's next data row as read, or one of the rows a range row was
   * written out as (their cells are not the file's, so they are kept). Returns a promise only
   * when its cells go to disk, or a batch is made into text: await it then (most rows cost no
   * turn of the event loop).
   */
  row(row: SheetRow): Promise<void> | undefined {
    const index = this.rows++;
    if (row.ofRange !== undefined) {
      if (row.ofRange === "more") this.expansions.add(index);
      return this.keep(index, row.cells);
    }
    return this.copyable(row.cells) ? undefined : this.keep(index, row.cells);
  }

  private keep(index: number, cells: readonly string[]): Promise<void> | undefined {
    if (this.rowTexts === null || index < this.rowTexts.from) return this.kept.keep(index, cells);
    this.waiting.push(cells);
    this.waitingIndexes.push(index);
    return this.waiting.length < TEXT_BATCH_ROWS ? undefined : this.keepWaiting();
  }

  /**
   * Keeps the rows still waiting to be made into text and writes what the spool holds for its
   * file: once the sheet is read (reading()), so that the spool's temporary file, if it needs one,
   * is made and written before anything is sent (docs/contract.md §4).
   */
  async finish(): Promise<void> {
    await this.keepWaiting();
    await this.kept.written();
  }

  private async keepWaiting(): Promise<void> {
    if (this.waiting.length === 0 || this.rowTexts === null) return;
    const indexes = this.waitingIndexes;
    const texts = this.rowTexts.make(this.waiting, indexes);
    this.waiting = [];
    this.waitingIndexes = [];
    for (const [at, text] of texts.entries()) {
      const written = this.kept.keep(indexes[at] ?? 0, [text]);
      if (written !== undefined) await written;
    }
  }

  /**
   * Writes every results row: its input cells (copied from the file as text where the row
   * allows it), then `outcomeOf(index)`. Says on stderr when the file changed during the run,
   * whose rows then go without their cells rather than with someone else's.
   */
  async writeTo<T>(results: ResultsWriter<T>, outcomeOf: (index: number) => T, io: CommandIO): Promise<void> {
    await this.finish();
    const input = await this.sheet.reread();
    if (this.sheet.rereadable && input === null) {
      io.stderr.write(outputWords.sheetChangedDuringRun(terminalSafe(this.sheet.layout.source)));

    }
    const textFrom = this.rowTexts?.from ?? Infinity;
    try {
      for (let i = 0; i < this.rows; i++) {
        const asText = i >= textFrom;
        if (asText) {
          const read = this.kept.getOnly(i);
          const kept = read instanceof Promise ? await read : read;
          if (kept !== undefined) {
            await results.writeVerbatim(kept, outcomeOf(i));
            continue;
          }
        }
        const cells = asText ? undefined : await this.kept.get(i);
        const source = cells === undefined && input !== null ? this.expansions.sourceOf(i) : -1;
        const text = input !== null && source >= 0 ? (input.rowAt(source) ?? (await input.read(source))) : null;
        if (text !== null) await results.writeVerbatim(text, outcomeOf(i));
        else await results.write(cells ?? NO_CELLS, outcomeOf(i));
      }
    } finally {
      await input?.close();
      await this.close();
    }
  }

  /** Removes the kept cells' temporary file. Idempotent. */
  close(): Promise<void> {
    return this.kept.close();
  }
}

/** Where results rows and the sheet's data rows part, after each expanded range: a few entries, not one per row. */
class Expansions {
  /** Results rows from `from` on come `extra` rows after the sheet's. */
  private readonly marks: { from: number; extra: number }[] = [];
  private extra = 0;

  /** Results row `index` is one more row of a range written out: the rows after it come one further past the sheet's. */
  add(index: number): void {
    this.extra++;
    const last = this.marks.at(-1);
    // A range's rows follow one another: one entry for the whole range.
    if (last !== undefined && last.from === index) {
      last.from = index + 1;
      last.extra = this.extra;
    } else {
      this.marks.push({ from: index + 1, extra: this.extra });
    }
  }

  /** The sheet's data row that results row `index` comes from. */
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
