/**
 * A sink written in chunks, as the CSV and JSON Lines encoders write theirs: each chunk handed
 * to the stream at once, a writer held back only while the stream is full (back-pressure,
 * never buffering), the first failure kept so that every later row and close() reject with
 * it, and at close() what is left sent before the file is made final (sink.ts finishSink).
 */
import type { OutputError } from "../errors.js";
import { finishSink, outputError } from "./sink.js";
import type { Sink } from "./sink.js";

export const READY: Promise<void> = Promise.resolve();

export class ChunkedSink {
  private lastWrite: Promise<void> = READY;
  private failure: OutputError | null = null;
  private closing: Promise<void> | null = null;

  constructor(private readonly sink: Sink) {
    sink.stream.on("error", (error) => this.fail(error));
  }

  /** Why a new row cannot be taken (the output has failed), or null; a row after close() is a bug, thrown. */
  refusal(): OutputError | null {
    if (this.failure !== null) return this.failure;
    if (this.closing !== null) throw new Error("results written after close()");
    return null;
  }

  /**
   * Hands one chunk to the stream. Resolves at once when the stream takes it, else once it
   * has written it (drained); `written` runs once it is written, when the chunk's buffer may
   * be used again.
   */
  send(chunk: string | Uint8Array, written?: () => void): Promise<void> {
    let accepted = true;
    // The write callback runs even when the stream fails or is destroyed, so no waiter hangs.
    const done = new Promise<void>((resolve) => {
      accepted = this.sink.stream.write(chunk, (error) => {
        if (error) this.fail(error);
        else written?.();
        resolve();
      });
    });
    this.lastWrite = done;
    if (accepted) return READY;
    return done.then(() => (this.failure === null ? undefined : Promise.reject(this.failure)));
  }

  /** Sends what `rest` has left (unless the output has failed), then ends and commits the file. Idempotent. */
  close(rest: () => Promise<void>): Promise<void> {
    this.closing ??= this.finish(rest);
    return this.closing;
  }

  private async finish(rest: () => Promise<void>): Promise<void> {
    if (this.failure === null) {
      // A failure here is recorded in `failure`, which finishSink checks.
      await rest().catch(() => undefined);
      await this.lastWrite;
    }
    await finishSink(this.sink, () => this.failure);
  }

  private fail(error: unknown): void {
    this.failure ??= outputError(this.sink.label, error, this.sink.option);
  }
}
