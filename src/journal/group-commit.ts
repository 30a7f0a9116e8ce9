/**
 * Group commit: records appended in the same turn of the event loop share one write and one
 * fsync, and each append resolves only once the fsync covering its record has returned. The
 * intents of every request started together thus cost one fsync, not one each.
 */
import { OutputError } from "../errors.js";
import { describe } from "./read.js";
import * as journalWords from "../messages/journal.js";

/** The file operations the journal needs; a seam so tests can count fsyncs or fill the disk. */
export interface AppendTarget {
  /** Appends all of `data` (a short write is an error, not a partial success). */
  write(data: string): Promise<void>;
  /** Makes everything written so far durable (fsync or fdatasync). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommitWriter {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private failure: OutputError | null = null;
  private closed = false;

  constructor(
    private readonly target: AppendTarget,
    private readonly path: string,
  ) {}

  /** Resolves once `line` is on disk; rejects with OutputError if it cannot be made so. */
  append(line: string): Promise<void> {
    if (this.failure !== null) {
      return Promise.reject(
        new OutputError(journalWords.failedEarlier(journalWords.stateFile(this.path), this.failure.message), {
          cause: this.failure,
        }),
      );
    }
    if (this.closed) return Promise.reject(new Error(`journal ${this.path} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Waits for every queued record, then closes the file. Never throws: each record's own promise reports its failure. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.target.close().catch(() => undefined);
  }

  private async flushLoop(): Promise<void> {
    // Yield past the current turn (microtasks included) so that every record appended in it joins this group.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      try {
        await this.target.write(group.map((pending) => pending.line).join(""));
        await this.target.sync();
      } catch (cause) {
        this.failure = new OutputError(journalWords.cannotWriteStateFile(this.path, describe(cause)), { cause });

        for (const pending of [...group, ...this.queue]) pending.reject(this.failure);
        this.queue = [];
        break;
      }
      for (const pending of group) pending.resolve();
    }
    this.flushing = null;
  }
}
