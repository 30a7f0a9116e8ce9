/**
 * Opens the input sheet (docs/contract.md §3): reads the header, detects the delimiter, matches the
 * columns, and streams the data rows. Rows are not validated here.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Readable, pipeline } from "node:stream";
import { InputError, UsageError } from "../errors.js";
import { matchColumns } from "./columns.js";
import { DelimiterSniffer } from "./delimiter.js";
import { RawRows } from "./raw.js";
import { SheetRecordParser, readFailure } from "./records.js";
import { describeSystemError } from "../system-error.js";
import type { SheetLayout, SheetRow } from "./types.js";
import { Utf8Check } from "./utf8.js";
import { isWorkbookPath } from "../paths.js";

export interface OpenSheetOptions {
  /** Where `-` reads from; process.stdin unless a test supplies another stream. */
  readonly stdin?: NodeJS.ReadableStream;
  /** `--sheet`: the worksheet of an `.xlsx` workbook to read (workbook.ts); the first visible one when absent. */
  readonly sheet?: string | undefined;
}

export interface Sheet {
  readonly layout: SheetLayout;
  /** Data rows in input order. Throws InputError while iterating if the file stops being CSV. */
  readonly rows: AsyncIterable<SheetRow>;
  /** False for standard input, which cannot be read twice, and for a sheet that is not UTF-8. */
  readonly rereadable: boolean;
  /**
   * Once every row has been read: the rows' text as it stands in the file (raw.ts), or null
   * when the sheet is not rereadable or the file has changed since it was read.
   */
  reread(): Promise<RawRows | null>;
  /** Once every row has been read: how the file is written, for results that open the same way (docs/contract.md §6). */
  textFormat(): TextFormat;
}

export interface TextFormat {
  /** The file began with a UTF-8 byte order mark: Excel reads a CSV as UTF-8 only with one. */
  readonly bom: boolean;
  /** The line end between records: "\n", "\r\n" or "\r". */
  readonly lineEnd: string;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export const STDIN_SOURCE = "<stdin>";

function toBuffer(chunk: unknown): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
}

/** Reads chunks until the header line is complete, so the delimiter is known before parsing starts. */
async function readHead(source: string, chunks: AsyncIterator<unknown>): Promise<{ head: Buffer[]; sniffer: DelimiterSniffer }> {
  const sniffer = new DelimiterSniffer();
  const head: Buffer[] = [];
  try {
    while (!sniffer.done) {
      const next = await chunks.next();
      if (next.done === true) break;
      const chunk = toBuffer(next.value);
      head.push(chunk);
      sniffer.feed(chunk);
    }
  } catch (error) {
    throw new InputError(`cannot read ${source}: ${describeSystemError(error)}`, { cause: error });
  }
  return { head, sniffer };
}

/** docs/contract.md §3: the sheet is UTF-8; a chunk that is not stops the stream before the parser sees it. */
function notUtf8(source: string, line: number): InputError {
  return new InputError(`${source}: line ${line}: not UTF-8 text (save the sheet as "CSV UTF-8"); nothing was sent`);
}

async function* replay(source: string, head: readonly Buffer[], rest: AsyncIterator<unknown>): AsyncGenerator<Buffer> {
  const utf8 = new Utf8Check();
  const checked = (chunk: Buffer): Buffer => {
    const bad = utf8.feed(chunk);
    if (bad > 0) throw notUtf8(source, bad);
    return chunk;
  };
  try {
    for (const chunk of head) yield checked(chunk);
    for (;;) {
      const next = await rest.next();
      if (next.done === true) break;
      yield checked(toBuffer(next.value));
    }
    const cut = utf8.end();
    if (cut > 0) throw notUtf8(source, cut);
  } finally {
    // Closes the file when reading stops early (a refused header, a parse error).
    await rest.return?.();
  }
}

async function* dataRows(source: string, parser: SheetRecordParser, records: AsyncIterator<SheetRow>): AsyncGenerator<SheetRow> {
  try {
    for (;;) {
      const next = await records.next();
      if (next.done === true) return;
      yield next.value;
    }
  } catch (error) {
    throw readFailure(source, parser, error);
  } finally {
    parser.destroy();
  }
}

export async function openSheet(path: string, options: OpenSheetOptions = {}): Promise<Sheet> {
  if (isWorkbookPath(path)) {
    // Loaded only for a workbook: exceljs takes ~0.4 s and 30 MB to load, which a CSV run need not pay.
    const { openWorkbook } = await import("./workbook.js");
    return openWorkbook(path, options.sheet);
  }
  if (options.sheet !== undefined) throw new UsageError(`--sheet names a worksheet of an .xlsx workbook, and ${path === "-" ? "standard input" : path} is read as CSV`);
  const fromStdin = path === "-";
  const source = fromStdin ? STDIN_SOURCE : path;
  const baseDir = fromStdin ? process.cwd() : dirname(resolve(path));
  // What the file was when it was read; a second read must find it unchanged.
  const before = fromStdin ? null : await stat(path).catch(() => null);
  const input = fromStdin ? (options.stdin ?? process.stdin) : createReadStream(path);
  const chunks = (input as AsyncIterable<unknown>)[Symbol.asyncIterator]();

  const { head, sniffer } = await readHead(source, chunks);
  const parser = new SheetRecordParser(sniffer.delimiter);
  // Errors reach the consumer through the parser's iterator; this callback only has to exist.
  pipeline(Readable.from(replay(source, head, chunks)), parser, () => undefined);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<SheetRow>;

  let header: SheetRow | undefined;
  try {
    const first = await records.next();
    header = first.done === true ? undefined : first.value;
  } catch (error) {
    parser.destroy();
    throw readFailure(source, parser, error);
  }
  if (header === undefined) {
    parser.destroy();
    throw new InputError(`${source}: the file is empty; it needs a header row with a number column`);
  }
  let layout: SheetLayout;
  try {
    layout = { source, baseDir, delimiter: sniffer.delimiter, header: header.cells, columns: matchColumns(source, header.cells) };
  } catch (error) {
    parser.destroy();
    throw error;
  }
  // The BOM, if any, has been read with the header: the encoding is settled.
  // Only a regular file can be read twice: a pipe or FIFO named as a path (/dev/stdin, <(…))
  // stats fine but cannot seek, so its cells stay in memory as standard input's do.
  const rereadable = before !== null && before.isFile() && parser.rawLayout.utf8;
  const reread = async (): Promise<RawRows | null> => {
    const { recordDelimiter } = parser.rawLayout;
    if (before === null || !rereadable || recordDelimiter === undefined) return null;
    const file = await open(path, "r").catch(() => null);
    if (file === null) return null;
    const now = await file.stat().catch(() => null);
    if (now === null || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
      await file.close();
      return null;
    }
    return new RawRows(file, parser.ends, recordDelimiter);
  };
  const bom = Buffer.concat(head.slice(0, 3)).subarray(0, 3).equals(UTF8_BOM);
  const textFormat = (): TextFormat => ({ bom, lineEnd: parser.rawLayout.recordDelimiter?.toString("latin1") ?? "\n" });
  return { layout, rows: dataRows(source, parser, records), rereadable, reread, textFormat };
}
