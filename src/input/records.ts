/**
 * csv-parse, configured for sheets (docs/contract.md §3) and used through its public API, each
 * record it gives made a SheetRow that knows the line where it starts, and its errors one-line
 * InputErrors.
 */
import { CsvError, parse } from "csv-parse";
import type { Parser } from "csv-parse";
import { InputError } from "../errors.js";
import type { Delimiter } from "./delimiter.js";
import { LimitExceeded, MAX_CELL_CHARS, MAX_FIELDS, MAX_ROW_CHARS, MAX_ROWS } from "./limits.js";
import type { SheetRow } from "./types.js";
import { describeSystemError } from "../system-error.js";
import * as sheetWords from "../messages/sheet.js";

/** csv-parse's options for a sheet (docs/contract.md §3). */
function sheetParser(delimiter: Delimiter): Parser {
  return parse({
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
 * A sheet's records: csv-parse (through its public API) splits the cells; RecordScanner, which
 * sees the same bytes just before csv-parse does, says where each record starts and ends.
 * csv-parse can tell a record's line only through its `on_record` or `info` options, which build
 * a context object for every record and doubled the parse time of a narrow sheet; the scanner
 * walks the bytes once, and bounds a row's fields while it is still being read.
 */
export class SheetRecords {
  /** csv-parse's stream: the sheet's bytes are piped in, cell arrays come out. */
  readonly parser: Parser;
  /** Fed every chunk before the parser (sheet.ts replay). */
  readonly scanner = new RecordScanner();
  /** Where each record ends in the file, in bytes, for re-reading rows without parsing them (raw.ts). */
  readonly ends = new RecordEnds();
  /** Records taken so far, blank ones too: the scanner's number of the next. */
  private taken = 0;
  /** The header is record -1, so data rows are numbered from 0. */
  private nextIndex = -1;

  /** MAX_ROWS unless a test lowers it (sheet.ts OpenSheetOptions.maxRows). */
  constructor(
    delimiter: Delimiter,
    private readonly maxRows = MAX_ROWS,
  ) {
    this.parser = sheetParser(delimiter);
    this.scanner.setDelimiter(delimiter);
  }

  /** Whether the scanner found the records csv-parse gave: then its byte offsets are those of the rows read. */
  readAlike(): boolean {
    return this.scanner.records() === this.parser.info.records;
  }

  /**
   * The row for the next record csv-parse gave, or undefined for a record to skip: lines of
   * only delimiters and spaces (`,,,`, which spreadsheet exports end with) carry nothing to
   * port and nothing to report, and are skipped like blank lines rather than made invalid rows.
   */
  take(cells: string[]): SheetRow | undefined {
    const record = this.taken++;
    const line = this.scanner.lineOf(record);
    const end = this.scanner.endOf(record);
    checkLimits(cells, line);
    const blank = this.nextIndex >= 0 && isBlank(cells);
    if (blank) {
      this.ends.skipTo(end);
      return undefined;
    }
    this.ends.push(end);
    if (this.nextIndex >= this.maxRows) {
      throw new LimitExceeded(sheetWords.tooManyRows(this.maxRows.toLocaleString("en-US")), line);
    }
    this.scanner.forget(record);
    return { index: this.nextIndex++, line, cells };
  }

  /** The line where the record csv-parse is reading (or the next one) starts. */
  currentRecordLine(): number {
    return this.scanner.lineOf(this.parser.info.records);
  }

  /**
   * The record delimiter of the sheet ("\n", "\r\n" or "\r", as csv-parse settles on it), and
   * whether the bytes csv-parse read are UTF-8 (its encoding option): known once parsing is done.
   */
  get rawLayout(): { readonly recordDelimiter: Buffer | undefined; readonly utf8: boolean } {
    const encoding = this.parser.options.encoding ?? "utf8";
    return { recordDelimiter: this.scanner.recordDelimiter(), utf8: encoding === "utf8" || encoding === "utf-8" };
  }
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** The record delimiter once seen: csv-parse takes the first line break outside quotes, CRLF before a lone CR. */
const enum Breaker {
  Undecided,
  Lf,
  CrLf,
  Cr,
}

/**
 * Where each record of a CSV starts (its line) and ends (the byte after its record delimiter),
 * read from the bytes as csv-parse reads them (docs/contract.md §3): a quote opens and closes a
 * quoted cell (`""` inside one is a quote, opening and closing at once); the first line break
 * outside quotes is the record delimiter; a record with no bytes at all is a blank line, which
 * csv-parse skips (skip_empty_lines). Where the two could part (a quote in the middle of a cell,
 * text after a closing quote), csv-parse refuses the file, and only the line of the record it
 * stopped in is asked for. Lines are counted as an editor shows them: each LF, and each CR not
 * followed by an LF, ends one, inside a quoted cell as well.
 *
 * While a record is open at the end of a chunk, its fields are counted so far: a row of a
 * million empty fields adds nothing to csv-parse's `max_record_size`, and is stopped here after
 * the chunk that passes MAX_FIELDS (sheet.ts hands chunks of at most 64 KiB).
 */
export class RecordScanner {
  private delimiterByte = 0x2c;
  private breaker = Breaker.Undecided;
  private inQuotes = false;
  /** The last byte seen was a CR outside quotes, whose meaning for records waits for the next byte. */
  private crPending = false;
  /** The last byte seen was a CR, a line of its own unless an LF follows. */
  private afterCr = false;
  /** The line the next byte is on. */
  private line = 1;
  /** Bytes seen so far. */
  private offset = 0;
  /** A record has started (has a byte) and not ended. */
  private open = false;
  /** The record's fields so far: its delimiters outside quotes, plus one. */
  private fields = 0;
  /** At the file's start: the bytes of a UTF-8 BOM matched so far (csv-parse's `bom` drops it). */
  private bomAt = 0;
  /** Start lines and end offsets of records `first` on (those not yet taken), `count` of them. */
  private starts = new Float64Array(1024);
  private stops = new Float64Array(1024);
  private first = 0;
  private count = 0;
  /** Of the records held, those ended: the last may still be open. */
  private ended = 0;

  /** The sheet's delimiter (delimiter.ts), known before the first chunk. */
  setDelimiter(delimiter: Delimiter): void {
    this.delimiterByte = delimiter.charCodeAt(0);
  }

  /** Reads the next chunk; throws LimitExceeded when the record still open at its end has more than MAX_FIELDS fields. */
  feed(chunk: Uint8Array): void {
    const delimiter = this.delimiterByte;
    const base = this.offset;
    // The state in locals for the loop, written back after it.
    let inQuotes = this.inQuotes;
    let fields = this.fields;
    let open = this.open;
    let line = this.line;
    let crPending = this.crPending;
    let afterCr = this.afterCr;
    let breaker = this.breaker;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      // Most bytes: a character of a record already open, after no CR.
      if (open && !afterCr && byte !== QUOTE && byte !== delimiter && byte !== LF && byte !== CR) continue;
      // The last byte was a CR: a line of its own unless an LF follows, which counts the line.
      if (afterCr) {
        afterCr = false;
        if (byte !== LF) line++;
      }
      // A CR outside quotes, before the delimiter is known or where it is CRLF: what follows tells.
      let paired = false;
      if (crPending) {
        crPending = false;
        if (byte === LF) {
          if (breaker === Breaker.Undecided) breaker = Breaker.CrLf;
          paired = breaker === Breaker.CrLf;
        } else if (breaker === Breaker.Undecided) {
          breaker = Breaker.Cr;
          if (open) this.endRecord(base + i);
          open = false;
          fields = 0;
        } else if (!open) {
          // A lone CR in a CRLF sheet is a character of a cell.
          this.startRecord(line - 1);
          open = true;
          fields = 1;
        }
      }
      if (byte === CR) {
        afterCr = true;
        if (breaker === Breaker.Cr) {
          if (!inQuotes) {
            if (open) this.endRecord(base + i + 1);
            open = false;
            fields = 0;
          }
          continue;
        }
        if (!inQuotes && breaker !== Breaker.Lf) {
          crPending = true;
          continue;
        }
      } else if (byte === LF) {
        line++;
        if (!inQuotes && breaker !== Breaker.Cr) {
          if (breaker === Breaker.Undecided) breaker = Breaker.Lf;
          if (breaker === Breaker.Lf || paired) {
            if (open) this.endRecord(base + i + 1);
            open = false;
            fields = 0;
            continue;
          }
        }
        // An LF inside quotes, or one that is a character of a cell (a CR or CRLF sheet), on the line it ends.
        if (!open) {
          this.startRecord(line - 1);
          open = true;
          fields = 1;
        }
      } else if (this.bomAt < UTF8_BOM.length) {
        // Only the file's first bytes can be its BOM, which starts no record.
        if (base + i === this.bomAt && byte === UTF8_BOM[this.bomAt]) {
          this.bomAt++;
          continue;
        }
        this.bomAt = UTF8_BOM.length;
      }
      if (!open) {
        this.startRecord(line);
        open = true;
        fields = 1;
      }
      if (byte === QUOTE) inQuotes = !inQuotes;
      else if (byte === delimiter && !inQuotes) fields++;
    }
    this.offset += chunk.length;
    this.inQuotes = inQuotes;
    this.fields = fields;
    this.open = open;
    this.line = line;
    this.crPending = crPending;
    this.afterCr = afterCr;
    this.breaker = breaker;
    if (open && fields > MAX_FIELDS) {
      throw new LimitExceeded(sheetWords.tooManyFields(MAX_FIELDS.toLocaleString("en-US")), this.starts[this.count - 1]);
    }
  }

  /** At the end of the input: a CR left waiting, and the last record, which ends with the file. */
  end(): void {
    if (this.afterCr) {
      this.afterCr = false;
      this.line++;
    }
    if (this.crPending) {
      this.crPending = false;
      if (this.breaker === Breaker.Undecided) {
        this.breaker = Breaker.Cr;
      } else if (!this.open) {
        this.startRecord(this.line - 1);
        this.open = true;
      }
    }
    if (this.open) this.endRecord(this.offset);
    this.open = false;
  }

  /** How many records the bytes held: csv-parse's count, when both read the sheet alike. */
  records(): number {
    return this.first + this.ended;
  }

  /** The record delimiter, once a line break outside quotes was seen. */
  recordDelimiter(): Buffer | undefined {
    switch (this.breaker) {
      case Breaker.Lf:
        return Buffer.from("\n");
      case Breaker.CrLf:
        return Buffer.from("\r\n");
      case Breaker.Cr:
        return Buffer.from("\r");
      default:
        return undefined;
    }
  }

  /** The line where record `record` (0 for the first non-blank line) starts; past the last, the line the next would start on. */
  lineOf(record: number): number {
    const at = record - this.first;
    return at >= 0 && at < this.count ? (this.starts[at] as number) : this.line;
  }

  /** The byte after record `record`'s delimiter (the file's end for its last record). */
  endOf(record: number): number {
    const at = record - this.first;
    return at >= 0 && at < this.ended ? (this.stops[at] as number) : this.offset;
  }

  /** Records before `record` are not asked about again: their entries are dropped, now and then in one go. */
  forget(record: number): void {
    const drop = record - this.first;
    if (drop < 4096 || drop * 2 < this.count) return;
    this.starts.copyWithin(0, drop, this.count);
    this.stops.copyWithin(0, drop, this.ended);
    this.count -= drop;
    this.ended -= drop;
    this.first = record;
  }

  private startRecord(line: number): void {
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const stops = new Float64Array(this.stops.length * 2);
      stops.set(this.stops);
      this.stops = stops;
    }
    this.starts[this.count++] = line;
  }

  private endRecord(end: number): void {
    this.stops[this.ended++] = end;
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

/** A record's own limits, once it is read whole: its fields and its cells. */
function checkLimits(cells: readonly string[], line: number): void {
  if (cells.length > MAX_FIELDS) throw new LimitExceeded(sheetWords.fieldsPastColumns(cells.length.toLocaleString("en-US"), MAX_FIELDS.toLocaleString("en-US")), line);
  for (let column = 0; column < cells.length; column++) {
    const length = (cells[column] as string).length;
    if (length > MAX_CELL_CHARS) {
      throw new LimitExceeded(sheetWords.cellTooLong(column + 1, length.toLocaleString("en-US"), MAX_CELL_CHARS.toLocaleString("en-US")), line);
    }
  }
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.trim() !== "") return false;
  return true;
}

/** A csv-parse failure (or a read failure mid-stream) as the one-line error docs/contract.md §3 asks for. */
export function readFailure(source: string, parser: SheetRecords, error: unknown): InputError {
  // Already one line naming the file and line (a sheet that is not UTF-8).
  if (error instanceof InputError) return error;
  if (error instanceof LimitExceeded) {
    return new InputError(sheetWords.limitOnLine(source, error.line ?? parser.currentRecordLine(), error.what), { cause: error });
  }
  if (!(error instanceof CsvError)) {
    return new InputError(sheetWords.cannotRead(source, describeSystemError(error)), { cause: error });
  }
  const where = `${source}: line ${parser.currentRecordLine()}`;
  const column = typeof error["column"] === "number" ? ` (column ${error["column"] + 1})` : "";
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new InputError(sheetWords.unclosedQuote(where), { cause: error });
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return new InputError(sheetWords.textAfterClosingQuote(where, column), { cause: error });
    case "INVALID_OPENING_QUOTE":
      return new InputError(sheetWords.quoteInUnquotedCell(where, column), { cause: error });
    case "CSV_MAX_RECORD_SIZE":
      return new InputError(sheetWords.rowTooLong(where, MAX_ROW_CHARS.toLocaleString("en-US")), { cause: error });
    default:
      return new InputError(sheetWords.notCsv(where, error.message), { cause: error });

  }
}

