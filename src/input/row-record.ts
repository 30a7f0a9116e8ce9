/**
 * One row's cells as one record of text: a number (the row's index or line), then the cells,
 * joined by the ASCII unit separator and ended by the record separator. XML forbids both
 * characters, so a workbook's cells never hold them, and joining and splitting cost a third of
 * JSON. A row whose cells do hold one (a CSV can) is written as JSON after a `J`, which escapes
 * them. The cell spool (spool.ts) keeps rows this way, and a workbook's rows cross from the
 * reading thread (workbook-reader.ts) this way.
 */
const UNIT = "\u001f";
const RECORD = "\u001e";
const RECORD_BYTE = 0x1e;
const UNIT_BYTE = 0x1f;
const ESCAPED_BYTE = 0x4a; // "J"

/** A row read back: its number, then its cells. */
export type RowRecord = readonly [number, readonly string[]];

function encodeRecord(head: number, cells: readonly string[]): string {
  for (const cell of cells) {
    if (cell.includes(UNIT) || cell.includes(RECORD)) return `J${JSON.stringify([head, ...cells])}${RECORD}`;
  }
  return `${head}${UNIT}${cells.join(UNIT)}${RECORD}`;
}

/** One record's text, without its record separator. */
function decodeRecord(text: string): RowRecord {
  if (text.startsWith("J")) {
    const [head, ...cells] = JSON.parse(text.slice(1)) as [number, ...string[]];
    return [head, cells];
  }
  const parts = text.split(UNIT);
  return [Number(parts[0]), parts.slice(1)];
}

/**
 * Records written as UTF-8 into one buffer. A batch of records gathered as one long string
 * lives long enough for the collector to copy it into its old generation, and a million rows'
 * worth of that garbage grows the heap; a buffer's bytes are outside the heap, and the buffer
 * is reused or handed on whole.
 */
export class RecordWriter {
  private bytes: Buffer;
  length = 0;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafeSlow(capacity);
  }

  append(head: number, cells: readonly string[]): void {
    const text = encodeRecord(head, cells);
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    const most = this.length + text.length * 3;
    if (most > this.bytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(most, this.bytes.length * 2));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
    this.length += this.bytes.write(text, this.length, "utf8");
  }

  /** The records written so far; valid until the next append or clear. */
  view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }

  /** The records written so far, in a buffer of their own, just as long (to transfer to another thread); the writer starts again. */
  take(): Buffer {
    const taken = Buffer.allocUnsafeSlow(this.length);
    this.bytes.copy(taken, 0, 0, this.length);
    this.length = 0;
    return taken;
  }
}

/** Each record of `bytes` in turn, from `start`, as [its record, where the next begins]; null when no whole record is left. */
export function nextRecord(bytes: Buffer, start: number): readonly [RowRecord, number] | null {
  const end = bytes.indexOf(RECORD_BYTE, start);
  return end < 0 ? null : [decodeRecord(bytes.toString("utf8", start, end)), end + 1];
}

/** Where one record lies in a buffer, its separator at `end`, and its number, read without decoding its cells. */
export interface RecordSpan {
  readonly head: number;
  readonly start: number;
  readonly end: number;
}

/** The record of `bytes` at `start`; null when no whole record is left. */
export function nextSpan(bytes: Buffer, start: number): RecordSpan | null {
  const end = bytes.indexOf(RECORD_BYTE, start);
  if (end < 0) return null;
  if (bytes[start] === ESCAPED_BYTE) return { head: decodeRecord(bytes.toString("utf8", start, end))[0], start, end };
  let head = 0;
  for (let at = start; at < end && bytes[at] !== UNIT_BYTE; at++) head = head * 10 + ((bytes[at] as number) - 0x30);
  return { head, start, end };
}

/** The cells of the record `span` of `bytes`. */
export function cellsAt(bytes: Buffer, span: RecordSpan): readonly string[] {
  return decodeRecord(bytes.toString("utf8", span.start, span.end))[1];
}

/**
 * The first cell of the record `span` of `bytes`, for a record of one cell: its UTF-8 bytes, a
 * view of `bytes` (no string made or encoded again), or its text when it had to be escaped.
 */
export function onlyCellAt(bytes: Buffer, span: RecordSpan): Uint8Array | string {
  if (bytes[span.start] === ESCAPED_BYTE) return cellsAt(bytes, span)[0] ?? "";
  return bytes.subarray(bytes.indexOf(UNIT_BYTE, span.start) + 1, span.end);
}
