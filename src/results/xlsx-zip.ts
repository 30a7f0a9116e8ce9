/**
 * The main thread's side of zip-worker.ts: hands it the worksheet's XML and writes the zip it
 * sends back to the results file's stream, keeping memory bounded both ways (what waits for
 * deflate, and what waits for the disk).
 */
import { Worker } from "node:worker_threads";
import { builtScript } from "../version.js";

/** A workbook's zip: fixed parts first (streaming readers want them before the worksheet), then one streamed part. */
export interface ZipPlan {
  readonly parts: readonly { readonly name: string; readonly text: string }[];
  readonly streamed: string;
  readonly level: number;
}

/** The plan comes first: the thread may have been started before the workbook's parts were known (startZipThreadAhead). */
export type ToWorker = { kind: "plan"; plan: ZipPlan } | { kind: "bytes"; bytes: Uint8Array } | { kind: "end" } | { kind: "pause" } | { kind: "resume" };
export type FromWorker = { kind: "taken"; length: number } | { kind: "zip"; bytes: Uint8Array } | { kind: "done" } | { kind: "failed"; message: string; code: string | undefined };

/** Bytes of XML sent and not yet taken by the worker before write() waits: the bound on what a slow disk or deflate piles up here. */
const IN_FLIGHT_BYTES = 1024 * 1024;

/** zip-worker.ts bundled with yazl by the build (scripts/bundle.ts). */
const WORKER_SCRIPT = builtScript("results/zip-worker.cjs");

/** A thread started ahead and not yet given a workbook. */
let ahead: Worker | null = null;

/**
 * Starts the zip's thread now, for the next WorkerZip to take (results/writer.ts
 * withResultsAhead), and returns it; null when one already waits, or none can start: that
 * failure is the WorkerZip's to report, as it starts its own.
 */
export function startZipThreadAhead(): Worker | null {
  if (ahead !== null) return null;
  let worker: Worker;
  try {
    worker = startZipThread();
  } catch {
    return null;
  }
  ahead = worker;
  const gone = (): void => {
    if (ahead === worker) ahead = null;
  };
  worker.on("error", gone);
  worker.once("exit", gone);
  return worker;
}

/** Ends the thread started ahead, if no WorkerZip took it. */
export function stopZipThreadAhead(): void {
  const worker = ahead;
  ahead = null;
  if (worker !== null) void worker.terminate();
}

/** The thread started ahead while it can still be given a workbook, else a new one. */
function takeZipThread(): Worker {
  const worker = ahead;
  ahead = null;
  // A thread that has ended has threadId -1: its 'exit' may not have been told yet.
  return worker !== null && worker.threadId !== -1 ? worker : startZipThread();
}

function startZipThread(): Worker {
  // execArgv: none of node's options of the main thread (`--input-type`, a loader) concern the zip.
  const worker = new Worker(WORKER_SCRIPT, { execArgv: [] });
  // Referenced only while something waits on it: a run that stops before close() must not hang on an idle worker.
  worker.unref();
  return worker;
}

export class WorkerZip {
  private readonly worker: Worker;
  private inFlight = 0;
  private paused = false;
  private done = false;
  private stopped = false;
  /** Wakes whatever waits on the worker: room to send, or the zip's end. */
  private wake: (() => void) | null = null;

  constructor(
    plan: ZipPlan,
    private readonly output: NodeJS.WritableStream,
    private readonly onFailure: (error: unknown) => void,
  ) {
    this.worker = takeZipThread();
    this.worker.postMessage({ kind: "plan", plan } satisfies ToWorker);
    this.worker.on("message", (message: FromWorker) => this.receive(message));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", () => {
      if (!this.done) this.fail(new Error("the worker writing the workbook's zip stopped"));
    });
  }

  /**
   * Sends XML as UTF-8 to the worker; false once much is in flight: then wait for room() before
   * sending more. The bytes' memory moves to the worker rather than being copied: the caller
   * allocated it for them alone (Buffer.allocUnsafeSlow, never Node's shared pool) and does not
   * touch it again.
   */
  write(bytes: Uint8Array): boolean {
    if (this.stopped || bytes.length === 0) return true;
    this.inFlight += bytes.length;
    this.worker.postMessage({ kind: "bytes", bytes } satisfies ToWorker, [bytes.buffer as ArrayBuffer]);
    return this.inFlight < IN_FLIGHT_BYTES;
  }

  /** Resolves once the worker has taken enough to send more, or on a failure. */
  room(): Promise<void> {
    return this.until(() => this.inFlight < IN_FLIGHT_BYTES);
  }

  /** Sends the last XML; resolves once the zip's last byte is in the output stream (which is left open), or on a failure. */
  end(bytes: Uint8Array): Promise<void> {
    this.write(bytes);
    this.worker.postMessage({ kind: "end" } satisfies ToWorker);
    return this.until(() => this.done);
  }

  /** After a failure elsewhere (the file's stream): nothing more is sent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    void this.worker.terminate();
    this.wake?.();
  }

  private receive(message: FromWorker): void {
    switch (message.kind) {
      case "taken":
        this.inFlight -= message.length;
        break;
      case "zip":
        this.toOutput(message.bytes);
        return;
      case "done":
        this.done = true;
        void this.worker.terminate();
        break;
      case "failed":
        this.fail(Object.assign(new Error(message.message), message.code === undefined ? {} : { code: message.code }));
        return;
    }
    this.wake?.();
  }

  private toOutput(bytes: Uint8Array): void {
    if (this.output.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) || this.paused) return;
    this.paused = true;
    this.worker.postMessage({ kind: "pause" } satisfies ToWorker);
    this.output.once("drain", () => {
      this.paused = false;
      if (!this.stopped) this.worker.postMessage({ kind: "resume" } satisfies ToWorker);
    });
  }

  private fail(error: unknown): void {
    if (this.stopped) return;
    this.onFailure(error);
    this.stop();
  }

  private until(ready: () => boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      this.worker.ref();
      this.wake = () => {
        if (!ready() && !this.stopped) return;
        this.wake = null;
        this.worker.unref();
        resolve();
      };
      this.wake();
    });
  }
}
