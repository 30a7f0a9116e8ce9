/**
 * Opens the input sheet (docs/contract.md §3): reads the header, detects the delimiter, matches the
 * columns, and streams the data rows. Rows are not validated here.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Readable, pipeline } from "node:stream";
import { InputError, UsageError } from "../errors.js";
import type { ColumnMap } from "./columns.js";
import { findHeader } from "./header-search.js";
import type { FoundHeader } from "./header-search.js";
import { DelimiterSniffer } from "./delimiter.js";
import { LimitExceeded, MAX_ROW_CHARS, MAX_SHEET_BYTES } from "./limits.js";
import { RawRows } from "./raw.js";
import { SheetRecords, readFailure } from "./records.js";
import type { RecordScanner } from "./records.js";
import { describeSystemError } from "../system-error.js";
import type { ReadSheet, Sheet, TextFormat } from "./reader.js";
import type { SheetLayout, SheetRow } from "./types.js";
import { firstInvalid, Utf8Check } from "./utf8.js";
import { guessEncoding } from "./encoding-guess.js";
import { decodeInput, UTF8 } from "./decode.js";
import { isWorkbookPath } from "../paths.js";
import { nonRegularKind } from "../file-kind.js";
import { withoutTotalsRows } from "./totals-row.js";
import * as sheetWords from "../messages/sheet.js";

export interface OpenSheetOptions {
  /** Where `-` reads from; process.stdin unless a test supplies another stream. */
  readonly stdin?: NodeJS.ReadableStream;
  /** MAX_SHEET_BYTES unless a test lowers it: reading 256 MiB to reach the real one takes 7 s. */
  readonly maxBytes?: number;
  /** MAX_ROWS unless a test lowers it: reading 2,000,000 rows to reach the real one takes 10 s. */
  readonly maxRows?: number;
  /** `--defaults` "columns": the customer's own header names (column-map.ts). */
  readonly columns?: ColumnMap;
  /** `--encoding`, checked (decode.ts); UTF-8 when absent. A byte order mark overrides it. */
  readonly encoding?: string;
  /** `--sheet`: the worksheet of an `.xlsx` workbook to read (workbook.ts); the first visible one when absent. */
  readonly sheet?: string | undefined;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export const STDIN_SOURCE = "<stdin>";

/**
 * Bytes read for the header line before the delimiter is decided on what was seen: a file
 * without a line break (or with a quote left open in its header) must not be held whole.
 * Four bytes a character (UTF-8's longest) of the longest row: a real header always ends before.
 */
const MAX_HEAD_BYTES = 4 * MAX_ROW_CHARS;

/** Chunks handed to the parser at most this long, so that the scanner's per-chunk field count bounds a row's fields (records.ts). */
const MAX_PARSER_CHUNK = 64 * 1024;

/** Reads chunks until the header line is complete, so the delimiter is known before parsing starts. */
async function readHead(source: string, chunks: AsyncIterator<Buffer>): Promise<{ head: Buffer[]; sniffer: DelimiterSniffer }> {
  const sniffer = new DelimiterSniffer();
  const head: Buffer[] = [];
  let bytes = 0;
  try {
    while (!sniffer.done && bytes < MAX_HEAD_BYTES) {
      const next = await chunks.next();
      if (next.done === true) break;
      const chunk = next.value;
      head.push(chunk);
      bytes += chunk.length;
      sniffer.feed(chunk);
    }
  } catch (error) {
    // Already one line naming the file and line (a sheet not in its encoding).
    if (error instanceof InputError) throw error;
    throw new InputError(sheetWords.cannotRead(source, describeSystemError(error)), { cause: error });
  }
  return { head, sniffer };
}

/**
 * docs/contract.md §3: the sheet is UTF-8; a chunk that is not stops the stream before the parser sees it.
 * `chunk` and `at`, when known, are the bytes and the offset that are not: the message then
 * names the encoding that reads them as letters, and shows the line as it would read
 * (encoding-guess.ts), so that following its hint does not garble the sheet.
 */
function notUtf8(source: string, line: number, chunk?: Uint8Array): InputError {
  const guess = chunk === undefined ? null : guessEncoding(chunk, firstNonUtf8(chunk));
  if (guess === null) return new InputError(sheetWords.notUtf8(source, line));
  return new InputError(sheetWords.notUtf8ReadsAs(source, line, guess.encoding, guess.knownAs, guess.line));
}

/** The first byte of `chunk` that is not UTF-8; the first outside ASCII when the sequence began in the chunk before. */
function firstNonUtf8(chunk: Uint8Array): number {
  const at = firstInvalid(chunk);
  return at >= 0 ? at : Math.max(0, chunk.findIndex((byte) => byte >= 0x80));
}

/** The sheet's bytes for csv-parse, checked, and seen by `scanner` first (records.ts). */
async function* replay(source: string, head: readonly Buffer[], rest: AsyncIterator<Buffer>, maxBytes: number, scanner: RecordScanner): AsyncGenerator<Buffer> {
  const utf8 = new Utf8Check();
  let bytes = 0;
  function* checked(chunk: Buffer): Generator<Buffer> {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      throw new LimitExceeded(sheetWords.sheetTooLarge((maxBytes / 1024 / 1024).toLocaleString("en-US")));
    }
    const bad = utf8.feed(chunk);
    if (bad > 0) throw notUtf8(source, bad, chunk);
    for (let at = 0; at < chunk.length; at += MAX_PARSER_CHUNK) {
      const piece = chunk.subarray(at, at + MAX_PARSER_CHUNK);
      scanner.feed(piece);
      yield piece;
    }
  }
  try {
    for (const chunk of head) yield* checked(chunk);
    for (;;) {
      const next = await rest.next();
      if (next.done === true) break;
      yield* checked(next.value);
    }
    const cut = utf8.end();
    if (cut > 0) throw notUtf8(source, cut);
    scanner.end();
  } finally {
    // Closes the file when reading stops early (a refused header, a parse error).
    await rest.return?.();
  }
}

/**
 * `titleRows` records above the header were numbered as rows by the parser: data rows count from 0 below it.
 * An iterator rather than an async generator, as totals-row.ts withoutTotalsRows: the parser's
 * own promise for each row is passed on, not wrapped in a generator's promises.
 */
function dataRows(source: string, parser: SheetRecords, records: AsyncIterator<string[]>, titleRows: number): AsyncIterableIterator<SheetRow> {
  const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    parser.parser.destroy();
  };
  const fail = (error: unknown): never => {
    const failure = readFailure(source, parser, error);
    finish();
    throw failure;
  };
  const step = (next: IteratorResult<string[]>): IteratorResult<SheetRow> | Promise<IteratorResult<SheetRow>> => {
    if (next.done === true) {
      finish();
      return DONE;
    }
    let row: SheetRow | undefined;
    try {
      row = parser.take(next.value);
    } catch (error) {
      return fail(error);
    }
    // A record of only delimiters and spaces: the next one is read instead.
    if (row === undefined) return records.next().then(step, fail);
    return { done: false, value: titleRows === 0 ? row : { ...row, index: row.index - titleRows } };
  };
  const iterator: AsyncIterableIterator<SheetRow> = {
    next() {
      return finished ? Promise.resolve(DONE) : records.next().then(step, fail);
    },
    // Reading stopped early (a refused file, an interrupted run): the file is closed.
    return() {
      finish();
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export async function openSheet(path: string, options: OpenSheetOptions = {}): Promise<Sheet> {
  const sheet = await openRows(path, options);
  const numberAt = sheet.layout.columns.find((column) => column.role.kind === "number")?.index ?? 0;
  const leftOut: SheetRow[] = [];
  return { ...sheet, rows: withoutTotalsRows(sheet.rows, numberAt, leftOut), leftOut: () => leftOut };
}

/**
 * docs/contract.md §3: a sheet named by path is a regular file. A FIFO would hold the open (and
 * with it the run, past any signal) until something writes to it, and a device such as
 * /dev/zero is no sheet; standard input, `-`, is the way to pipe a sheet in.
 */
async function refuseNonRegularSheet(path: string): Promise<void> {
  const stats = await stat(path).catch(() => null);
  const kind = stats === null ? null : nonRegularKind(stats);
  // A directory is refused as it is opened, with the reader's own message.
  if (kind !== null && kind !== "a directory") throw new InputError(sheetWords.notARegularSheet(path, kind));
}

async function openRows(path: string, options: OpenSheetOptions): Promise<ReadSheet> {
  if (path !== "-") await refuseNonRegularSheet(path);
  if (isWorkbookPath(path)) {
    // Loaded only for a workbook: a CSV run need not load its reading thread.
    const { openWorkbook } = await import("./workbook.js");
    return openWorkbook(path, options.sheet, options.columns);
  }
  if (options.sheet !== undefined) throw new UsageError(sheetWords.sheetOptionForCsv(path === "-" ? "standard input" : path));
  const fromStdin = path === "-";
  const source = fromStdin ? STDIN_SOURCE : path;
  const baseDir = fromStdin ? process.cwd() : dirname(resolve(path));
  // What the file was when it was read; a second read must find it unchanged.
  const before = fromStdin ? null : await stat(path).catch(() => null);
  const input = fromStdin ? (options.stdin ?? process.stdin) : createReadStream(path);
  const decoded = decodeInput(source, (input as AsyncIterable<unknown>)[Symbol.asyncIterator](), options.encoding ?? UTF8);
  const chunks = decoded.chunks;

  const { head, sniffer } = await readHead(source, chunks);
  const parser = new SheetRecords(sniffer.delimiter, options.maxRows);
  // Errors reach the consumer through the parser's iterator; this callback only has to exist.
  pipeline(Readable.from(replay(source, head, chunks, options.maxBytes ?? MAX_SHEET_BYTES, parser.scanner)), parser.parser, () => undefined);
  const records = parser.parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;

  let found: FoundHeader<SheetRow> | null;
  try {
    found = await findHeader(source, async () => {
      for (;;) {
        const next = await records.next();
        if (next.done === true) return undefined;
        const row = parser.take(next.value);
        if (row !== undefined) return row;
      }
    }, options.columns);
  } catch (error) {
    parser.parser.destroy();
    throw readFailure(source, parser, error);
  }
  if (found === null) {
    parser.parser.destroy();
    throw new InputError(sheetWords.emptyCsv(source));

  }
  const { header, columns, above } = found;
  const layout: SheetLayout = { source, baseDir, delimiter: sniffer.delimiter, header: header.cells, columns, headerLine: header.line };
  parser.ends.dropFirst(above);
  // The BOM, if any, has been read with the header: the encoding is settled.
  // Only a regular file can be read twice: standard input cannot seek, so its cells stay in memory.
  // A decoded sheet's byte offsets are of its UTF-8 form, not of the file: it is not copied byte for byte.
  const transcoded = decoded.encoding() !== UTF8;
  const rereadable = before !== null && before.isFile() && parser.rawLayout.utf8 && !transcoded;
  const reread = async (): Promise<RawRows | null> => {
    const { recordDelimiter } = parser.rawLayout;
    // Where the scanner and csv-parse read the records differently, the offsets are not trusted.
    if (before === null || !rereadable || recordDelimiter === undefined || !parser.readAlike()) return null;
    const file = await open(path, "r").catch(() => null);
    if (file === null) return null;
    const now = await file.stat().catch(() => null);
    if (now === null || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
      await file.close();
      return null;
    }
    return new RawRows(file, parser.ends, recordDelimiter);
  };
  // Results of a decoded sheet are UTF-8 with a BOM, which is how Excel knows to read them as UTF-8.
  const bom = transcoded || Buffer.concat(head.slice(0, 3)).subarray(0, 3).equals(UTF8_BOM);
  const textFormat = (): TextFormat => ({ bom, lineEnd: parser.rawLayout.recordDelimiter?.toString("latin1") ?? "\n" });
  const size = before !== null && before.isFile() && !transcoded ? before.size : null;
  const close = (): Promise<void> => {
    parser.parser.destroy();
    return Promise.resolve();
  };
  return { layout, rows: dataRows(source, parser, records, above), rereadable, reread, textFormat, size, bytesRead: () => parser.parser.info.bytes, close };
}


