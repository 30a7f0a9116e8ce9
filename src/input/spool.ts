/**
 * Rows' cells kept aside between reading the sheet and writing the results, for rows the
 * results cannot copy from the input as it stands (results/input-copy.ts): every row of a workbook
 * or of standard input, which cannot be read twice byte for byte. A 200,000-row workbook's
 * cells are ~300 MB as strings, so past a few megabytes they go to a temporary file, one record
 * a row (row-record.ts), and come back in row order. Memory stays bounded whatever the sheet's length.
 */
import { rmSync } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputError } from "../errors.js";
import { temporaryFileTrouble } from "../system-error.js";
import { cellsAt, nextSpan, onlyCellAt, RecordWriter } from "./row-record.js";
import type { RecordSpan } from "./row-record.js";

/**
 * What the cells held in memory may take, counting a string's and an array slot's overhead,
 * before the spool moves to a file: sheets of a few thousand rows never touch the disk.
 */
const MEMORY_BYTES = 4 * 1024 * 1024;
const CELL_OVERHEAD_BYTES = 40;
/** Text gathered before one write, and bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** Whether the spool is keeping rows (the sheet is being read) or reading them back (results are written). */
type Stage = "keeping" | "reading back";

/** findRead's answer when the record asked for is not read yet. */
const UNREAD = Symbol("unread");

export class CellSpool {
  private held: Map<number, readonly string[]> | null = new Map();
  private heldBytes = 0;
  private file: FileHandle | null = null;
  private dir: string | null = null;
  /** Records not yet written to the file. */
  private readonly pending = new RecordWriter(CHUNK_BYTES + 64 * 1024);
  private readonly removeOnExit = (): void => {
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  };
  // Reading back.
  private readPosition = 0;
  private store = Buffer.alloc(0);
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  /** A record read past the row asked for, in `buffer`, which is not refilled until it is taken. */
  private next: RecordSpan | null = null;
  private ended = false;

  /**
   * Keeps row `index`'s cells; rows are kept in increasing index order. Returns a promise only
   * when it writes to the file: await it then (most rows cost no turn of the event loop).
   */
  keep(index: number, cells: readonly string[]): Promise<void> | undefined {
    if (this.held !== null) {
      this.held.set(index, cells);
      for (const cell of cells) this.heldBytes += cell.length + CELL_OVERHEAD_BYTES;
      return this.heldBytes > MEMORY_BYTES ? this.spill() : undefined;
    }
    this.pending.append(index, cells);
    return this.pending.length >= CHUNK_BYTES ? this.flush() : undefined;
  }

  /**
   * Row `index`'s cells, or undefined when it was not kept. Rows are asked for in increasing
   * index order, once every row has been kept.
   */
  async get(index: number): Promise<readonly string[] | undefined> {
    if (this.held !== null) return this.held.get(index);
    const span = await this.find(index);
    return span === null ? undefined : cellsAt(this.buffer, span);
  }

  /**
   * Like get(), for a row kept as one cell (results/input-copy.ts keeps a row's results text
   * so): that cell, from the file as its UTF-8 bytes, valid until the next call, rather than
   * decoded into a string only to be encoded again. A promise only when the file must be read
   * first: a turn of the event loop a row was a tenth of writing a workbook's results.
   */
  getOnly(index: number): Uint8Array | string | undefined | Promise<Uint8Array | string | undefined> {
    if (this.held !== null) return this.held.get(index)?.[0];
    const span = this.pending.length > 0 ? UNREAD : this.findRead(index);
    if (span === UNREAD) return this.find(index).then((found) => (found === null ? undefined : onlyCellAt(this.buffer, found)));
    return span === null ? undefined : onlyCellAt(this.buffer, span);
  }

  /** find() among the records already read from the file; UNREAD when it needs more of the file. */
  private findRead(index: number): RecordSpan | null | typeof UNREAD {
    for (;;) {
      let span = this.next;
      if (span === null) {
        span = nextSpan(this.buffer, this.bufferStart);
        if (span === null) return UNREAD;
        this.bufferStart = span.end + 1;
      }
      if (span.head > index) {
        this.next = span;
        return null;
      }
      this.next = null;
      if (span.head === index) return span;
    }
  }

  /** Writes what is kept and not yet in the file: once the sheet is read, so that no write is left for after sending. */
  async written(): Promise<void> {
    if (this.pending.length > 0) await this.flush();
  }

  /** Row `index`'s record, reading on in the file as far as it takes; null when it was not kept. */
  private async find(index: number): Promise<RecordSpan | null> {
    // Empty once InputCopy.finish() has run (written()); kept so that no record is ever lost.
    if (this.pending.length > 0) await this.flush("reading back");
    for (;;) {
      const span = this.findRead(index);
      if (span !== UNREAD) return span;
      if (!(await this.readMore())) return null;
    }
  }

  /** Removes the temporary file. Idempotent. */
  async close(): Promise<void> {
    this.held = null;
    const { file, dir } = this;
    this.file = null;
    this.dir = null;
    process.off("exit", this.removeOnExit);
    await file?.close().catch(() => undefined);
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }

  private async spill(): Promise<void> {
    const held = this.held ?? new Map<number, readonly string[]>();
    try {
      this.dir = await mkdtemp(join(tmpdir(), "portin-cells-"));
      // A run ended by a signal's second press, or by an error, leaves nothing behind.
      process.once("exit", this.removeOnExit);
      this.file = await open(join(this.dir, "cells.jsonl"), "w+", PRIVATE_FILE_MODE);
      await this.file.chmod(PRIVATE_FILE_MODE);
    } catch (error) {
      throw this.failure(error, "keeping");
    }
    this.held = null;
    this.heldBytes = 0;
    for (const [index, cells] of held) {
      this.pending.append(index, cells);
      if (this.pending.length >= CHUNK_BYTES) await this.flush();
    }
  }

  private async flush(when: Stage = "keeping"): Promise<void> {
    try {
      await this.file?.write(this.pending.view());
    } catch (error) {
      throw this.failure(error, when);
    } finally {
      this.pending.clear();
    }
  }

  /** Reads on in the file after the records not yet taken; false at its end. */
  private async readMore(): Promise<boolean> {
    if (this.ended || this.file === null) return false;
    // One buffer for the whole file, grown only for a record longer than it: a buffer a read
    // would leave tens of megabytes for the collector while the results are written.
    const rest = this.buffer.length - this.bufferStart;
    if (this.store.length < Math.max(CHUNK_BYTES, rest * 2)) {
      const larger = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, rest * 2));
      this.buffer.copy(larger, 0, this.bufferStart);
      this.store = larger;
    } else {
      this.buffer.copy(this.store, 0, this.bufferStart);
    }
    const { bytesRead } = await this.file.read(this.store, rest, this.store.length - rest, this.readPosition);
    this.readPosition += bytesRead;
    if (bytesRead === 0) this.ended = true;
    this.buffer = this.store.subarray(0, rest + bytesRead);
    this.bufferStart = 0;
    return bytesRead > 0;
  }

  /**
   * Rows are kept while the sheet is read, before anything is sent (docs/contract.md §4), so a
   * failure then says so; reading back comes after sending, where the run's summary says what was sent.
   */
  private failure(error: unknown, when: Stage): OutputError {
    const trouble = temporaryFileTrouble("the sheet's cells", error);
    return new OutputError(when === "keeping" ? `${trouble}; nothing was sent` : trouble, { cause: error });
  }
}
