/**
 * csv-parse, configured for sheets (docs/contract.md §3), emitting each record as a SheetRow that knows
 * the line where it starts, and turning its errors into one-line InputErrors.
 */
import type { TransformCallback } from "node:stream";
import { CsvError, Parser } from "csv-parse";
import { InputError } from "../errors.js";
import type { Delimiter } from "./delimiter.js";
import { LimitExceeded, MAX_CELL_CHARS, MAX_FIELDS, MAX_ROW_CHARS, MAX_ROWS } from "./limits.js";
import type { SheetRow } from "./types.js";
import { describeSystemError } from "../system-error.js";

/**
 * csv-parse reports `info.lines` as the line a record *ends* on. A record starts on the line
 * after the previous record ends, plus any blank lines skipped in between, so the start is
 * derived from the live `info` at the moment each record is pushed (Parser pushes each record
 * synchronously from its parse loop; the line-number tests guard that on upgrades). This is done here rather
 * than with `on_record`/`info: true`, which build a context object by spreading `info` for
 * every record and doubled the parse time of a 1,000,000-row sheet.
 */
export class SheetRecordParser extends Parser {
  /** Where each record ends in the file, in bytes, for re-reading rows without parsing them (raw.ts). */
  readonly ends = new RecordEnds();
  private lastEndLine = 0;
  private lastEmptyLines = 0;
  /**
   * Lines csv-parse has over-counted so far: it counts a CRLF inside a quoted cell as two
   * line breaks (CR, then LF), while a CRLF between records counts once.
   */
  private overCounted = 0;
  /** The header is record -1, so data rows are numbered from 0. */
  private nextIndex = -1;

  /** MAX_ROWS unless a test lowers it (sheet.ts OpenSheetOptions.maxRows). */
  constructor(delimiter: Delimiter, private readonly maxRows = MAX_ROWS) {
    super({
      delimiter,
      bom: true,
      skip_empty_lines: true,
      // A ragged row is data for the validator (docs/contract.md §3: "invalid"), not a reason to stop.
      relax_column_count: true,
      // Bounds a row, and the buffer a quote left open fills, however long the file. csv-parse
      // counts a row's last character only once the next one arrives: one less admits exactly N.
      max_record_size: MAX_ROW_CHARS - 1,
    });
  }

  /**
   * Empty fields add nothing to a record's size, so a row of a million `,` would pass
   * max_record_size: its fields are counted after each chunk, while the record is still
   * being built (replay in sheet.ts hands over chunks of at most 64 KiB).
   */
  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      super._transform(chunk, encoding, (error?: Error | null) => {
        const building = (this as unknown as { state: { record: unknown[] } }).state.record;
        if (error == null && building.length > MAX_FIELDS) {
          callback(new LimitExceeded(`a row of more than ${MAX_FIELDS.toLocaleString("en-US")} fields, more than a spreadsheet has columns`));
          return;
        }
        callback(error);
      });
    } catch (error) {
      // push() refuses a record past a limit by throwing, from inside csv-parse's loop. Thrown
      // out of _transform it would escape the stream (uncaught, when a paused pipe resumes on a
      // later tick); handed to the callback it reaches the reader as a refusal of the file.
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      super._flush(callback);
    } catch (error) {
      callback(error as Error);
    }
  }

  /** The line where the record being parsed (or the next one) starts. */
  currentRecordLine(): number {
    return this.lastEndLine + 1 + this.info.empty_lines - this.lastEmptyLines;
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) return super.push(chunk, encoding);
    const cells = chunk as string[];
    const line = this.currentRecordLine();
    checkLimits(cells, line);
    // Only a record spanning lines can hold a quoted CRLF, so one-line records cost nothing here.
    if (this.info.lines - this.overCounted > line) this.overCounted += quotedCrlfs(cells);
    // Lines of only delimiters and spaces (`,,,`, which spreadsheet exports end with) carry
    // nothing to port and nothing to report: skipped like blank lines, not made invalid rows.
    const blank = this.nextIndex >= 0 && isBlank(cells);
    // csv-parse sets `bytes` to the end of this record, its record delimiter included.
    if (blank) this.ends.skipTo(this.info.bytes);
    else this.ends.push(this.info.bytes);
    this.lastEndLine = this.info.lines - this.overCounted;
    this.lastEmptyLines = this.info.empty_lines;
    if (blank) return true;
    if (this.nextIndex >= this.maxRows) {
      throw new LimitExceeded(`more than ${this.maxRows.toLocaleString("en-US")} data rows, the most portin reads in one sheet: split the sheet`, line);
    }
    return super.push({ index: this.nextIndex++, line, cells } satisfies SheetRow);
  }

  /**
   * The record delimiter csv-parse settled on ("\n", "\r\n" or "\r"), and whether the sheet
   * is UTF-8 (a UTF-16 BOM switches csv-parse's encoding): both known once parsing is done.
   */
  get rawLayout(): { readonly recordDelimiter: Buffer | undefined; readonly utf8: boolean } {
    const options = this.options as unknown as { record_delimiter?: Buffer[]; encoding?: string | null };
    const encoding = options.encoding ?? "utf8";
    return { recordDelimiter: options.record_delimiter?.[0], utf8: encoding === "utf8" || encoding === "utf-8" };
  }
}

/** A growable list of byte offsets: 8 bytes a record, not an object. */
export class RecordEnds {
  private offsets = new Float64Array(1024);
  /** Where a row starts when skipped records lie between it and the row before: rare, so a map. */
  private readonly starts = new Map<number, number>();
  /** Records above the header (a title row): row indexes count from the header's record. */
  private base = 0;
  length = 0;

  /** The first `records` records were title rows above the header, not the header. */
  dropFirst(records: number): void {
    this.base = records;
  }

  push(offset: number): void {
    if (this.length === this.offsets.length) {
      const grown = new Float64Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.length++] = offset;
  }

  /** Starts the next row at `offset`, past a record that is skipped. */
  skipTo(offset: number): void {
    this.starts.set(this.length - 1, offset);
  }

  /** The end of record `index - 1` (the header is record 0): where data row `index - 1` ends. */
  at(index: number): number {
    return this.offsets[index + this.base] ?? NaN;
  }

  /** Where data row `index` starts: after the record before it and any records skipped since. */
  startOf(index: number): number {
    // Nearly every sheet skips nothing: no map lookup a row for those.
    return (this.starts.size === 0 ? undefined : this.starts.get(index + this.base)) ?? this.at(index);
  }
}

/** A record's own limits: its fields (the last chunk's record escapes _transform's count) and its cells. */
function checkLimits(cells: readonly string[], line: number): void {
  if (cells.length > MAX_FIELDS) throw new LimitExceeded(`a row of ${cells.length.toLocaleString("en-US")} fields, more than the ${MAX_FIELDS.toLocaleString("en-US")} a spreadsheet has columns`, line);
  for (let column = 0; column < cells.length; column++) {
    const length = (cells[column] as string).length;
    if (length > MAX_CELL_CHARS) {
      throw new LimitExceeded(`the cell in column ${column + 1} has ${length.toLocaleString("en-US")} characters, more than the ${MAX_CELL_CHARS.toLocaleString("en-US")} portin reads in a cell`, line);
    }
  }
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.trim() !== "") return false;
  return true;
}

function quotedCrlfs(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf("\r\n"); at >= 0; at = cell.indexOf("\r\n", at + 2)) count++;
  }
  return count;
}

/** A csv-parse failure (or a read failure mid-stream) as the one-line error docs/contract.md §3 asks for. */
export function readFailure(source: string, parser: SheetRecordParser, error: unknown): InputError {
  // Already one line naming the file and line (a sheet that is not UTF-8).
  if (error instanceof InputError) return error;
  if (error instanceof LimitExceeded) {
    return new InputError(`${source}: line ${error.line ?? parser.currentRecordLine()}: ${error.what}; nothing was sent`, { cause: error });
  }
  if (!(error instanceof CsvError)) {
    return new InputError(`cannot read ${source}: ${describeSystemError(error)}`, { cause: error });
  }
  const where = `${source}: line ${parser.currentRecordLine()}`;
  const column = typeof error["column"] === "number" ? ` (column ${error["column"] + 1})` : "";
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new InputError(
        `${where}: unclosed quote in the record starting here; close the quoted cell (a quote inside a cell is written "") and run again; nothing was sent`,
        { cause: error },
      );
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return new InputError(
        `${where}: a quoted cell goes on after its closing quote${column}; quote the whole cell and write inner quotes as "", then run again; nothing was sent`,
        { cause: error },
      );
    case "INVALID_OPENING_QUOTE":
      return new InputError(
        `${where}: a quote in the middle of an unquoted cell${column}; quote the whole cell and write inner quotes as "", then run again; nothing was sent`,
        { cause: error },
      );
    case "CSV_MAX_RECORD_SIZE":
      return new InputError(
        `${where}: a row of more than ${MAX_ROW_CHARS.toLocaleString("en-US")} characters, the most portin reads in a row (a quote left open makes one); nothing was sent`,
        { cause: error },
      );
    default:
      return new InputError(`${where}: not readable as CSV (${error.message}); nothing was sent`, { cause: error });
  }
}

