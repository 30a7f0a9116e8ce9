/**
 * The data rows' text as it stands in the file, re-read after parsing from the byte offsets
 * csv-parse reported (records.ts). The results copy a row's cells from here instead of
 * holding every row's cells in memory through the run (results/input-copy.ts): a 1,000,000-row
 * sheet's cells are ~1 GB as strings, and stringifying them again costs as much as parsing them.
 */
import type { FileHandle } from "node:fs/promises";
import type { RecordEnds } from "./records.js";

/** Bytes read at a time. */
const CHUNK_BYTES = 1 << 20;

export class RawRows {
  private buffer: Buffer = Buffer.alloc(0);
  private chunk: Buffer = Buffer.alloc(0);
  /** File offset of chunk[0]. */
  private chunkStart = 0;

  constructor(
    private readonly file: FileHandle,
    private readonly ends: RecordEnds,
    /** csv-parse's record delimiter; blank lines are runs of it. */
    private readonly delimiter: Buffer,
  ) {}

  /** Data row `index`'s text without its record delimiter, when it is in the chunk read last; else undefined. */
  rowAt(index: number): Buffer | undefined {
    const start = this.ends.startOf(index);
    const end = this.ends.at(index + 1);
    if (start < this.chunkStart || end > this.chunkStart + this.chunk.length) return undefined;
    return this.trim(start - this.chunkStart, end - this.chunkStart);
  }

  /**
   * Reads on from data row `index` (rows are asked for in order) and returns its text, or
   * null when the file ends before it (it was cut short during the run). A row's bytes are
   * overwritten by the next read: copy them before asking for a row again.
   */
  async read(index: number): Promise<Buffer | null> {
    const start = this.ends.startOf(index);
    const size = Math.max(CHUNK_BYTES, this.ends.at(index + 1) - start);
    // One buffer for the whole pass: a new megabyte per read is garbage the GC frees late.
    if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(size);
    const chunk = this.buffer;
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await this.file.read(chunk, filled, size - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    this.chunk = chunk.subarray(0, filled);
    this.chunkStart = start;
    return this.rowAt(index) ?? null;
  }

  close(): Promise<void> {
    return this.file.close();
  }

  /**
   * The chunk's bytes from `from` to `to`, less the blank lines csv-parse skipped before the
   * record and its record delimiter. Compared byte by byte, and cut once: two Buffer.compare
   * calls into C++ and a second subarray a row cost more than copying a narrow row
   * (the narrow sheet of `npm run bench`).
   */
  private trim(from: number, to: number): Buffer {
    const chunk = this.chunk;
    const size = this.delimiter.length;
    while (to - from >= size && this.delimiterAt(chunk, from)) from += size;
    if (to - from >= size && this.delimiterAt(chunk, to - size)) to -= size;
    return chunk.subarray(from, to);
  }

  private delimiterAt(bytes: Buffer, at: number): boolean {
    const d = this.delimiter;
    for (let i = 0; i < d.length; i++) if (bytes[at + i] !== d[i]) return false;
    return true;
  }
}
