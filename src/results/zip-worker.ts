/**
 * The zip container of a results workbook, run in a worker thread (xlsx-zip.ts starts it):
 * yazl's work on the 272 MB of XML a 200,000-row sheet makes runs on another core while the
 * main thread builds the next rows. Its CRC-32 is yazl's own, buffer-crc32's JavaScript (~0.6 s
 * of a 200,000-row workbook's results, on this thread; portin patches no dependency for speed),
 * and deflate runs on libuv's threads.
 *
 * The plan (the fixed parts and the streamed part's name) comes in the first message, since the
 * thread may start before the results are opened (xlsx-zip.ts startZipThreadAhead), then the
 * streamed part's bytes; the zip's bytes go back as messages for the main thread to write, so
 * the results file, its sync and its rename stay with sink.ts.
 */
import { PassThrough } from "node:stream";
import { parentPort } from "node:worker_threads";
import { ZipFile } from "yazl";
import type { FromWorker, ToWorker, ZipPlan } from "./xlsx-zip.js";

/** What of the streamed part may wait here for deflate, besides what the main thread holds back. */
const STREAM_BUFFER_BYTES = 1024 * 1024;

const port = parentPort;
if (port === null) throw new Error("the zip's script runs only as a worker thread");

const send = (message: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
const failed = (error: unknown): void => {
  const { message, code } = error as { message?: unknown; code?: unknown };
  send({ kind: "failed", message: String(message ?? error), code: typeof code === "string" ? code : undefined });
};

/**
 * The zip's bytes gathered before they go to the main thread: deflate hands them on 16 KB at
 * a time, and each message costs the main thread a turn (1,400 of them for a 22 MB results
 * workbook).
 */
const GATHER_BYTES = 256 * 1024;

/** Bytes written while the streamed part's stream is over its mark, owed to the main thread until it drains. */
let owed = 0;

/** The zip being made, and the stream its streamed part's bytes are written to. */
interface Zipping {
  readonly zip: ZipFile;
  readonly streamed: PassThrough;
}

function startZip(plan: ZipPlan): Zipping {
  const zip = new ZipFile();
  const streamed = new PassThrough({ highWaterMark: STREAM_BUFFER_BYTES });
  zip.on("error", failed);
  zip.outputStream.on("error", failed);
  let gathered = Buffer.allocUnsafeSlow(GATHER_BYTES);
  let gatheredLength = 0;
  const sendGathered = (): void => {
    if (gatheredLength === 0) return;
    // Memory of its own, so it is moved, not cloned.
    const bytes = new Uint8Array(gathered.buffer, 0, gatheredLength);
    send({ kind: "zip", bytes }, [gathered.buffer]);
    gathered = Buffer.allocUnsafeSlow(GATHER_BYTES);
    gatheredLength = 0;
  };
  zip.outputStream.on("data", (chunk: Buffer) => {
    if (gatheredLength + chunk.length > GATHER_BYTES) sendGathered();
    if (chunk.length > GATHER_BYTES) {
      // Deflate's chunks share their memory: a copy of its own is moved.
      const bytes = new Uint8Array(chunk);
      send({ kind: "zip", bytes }, [bytes.buffer]);
      return;
    }
    chunk.copy(gathered, gatheredLength);
    gatheredLength += chunk.length;
  });
  zip.outputStream.on("end", () => {
    sendGathered();
    send({ kind: "done" });
  });

  for (const part of plan.parts) zip.addBuffer(Buffer.from(part.text, "utf8"), part.name, { compressionLevel: plan.level });
  zip.addReadStream(streamed, plan.streamed, { compressionLevel: plan.level });
  // yazl finishes the archive once the streamed part ends.
  zip.end();

  // The main thread sends more only once what it sent is taken: that is the back-pressure of deflate.
  streamed.on("drain", () => {
    if (owed > 0) send({ kind: "taken", length: owed });
    owed = 0;
  });
  return { zip, streamed };
}

let zipping: Zipping | null = null;
port.on("message", (message: ToWorker) => {
  if (message.kind === "plan") {
    zipping = startZip(message.plan);
    return;
  }
  if (zipping === null) throw new Error("the zip's bytes came before its plan");
  switch (message.kind) {
    case "bytes": {
      const { length } = message.bytes;
      if (zipping.streamed.write(message.bytes) && owed === 0) send({ kind: "taken", length });
      else owed += length;
      break;
    }
    case "end":
      zipping.streamed.end();
      break;
    // The results file's back-pressure: the zip stops being read, so deflate stops taking.
    case "pause":
      zipping.zip.outputStream.pause();
      break;
    case "resume":
      zipping.zip.outputStream.resume();
      break;
  }
});
