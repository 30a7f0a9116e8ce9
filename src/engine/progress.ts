/**
 * What a run has done so far, for a progress display (commands/progress-display.ts) to read
 * when it redraws: plain counters, so the hot path pays an increment per row, not a call
 * into a terminal library.
 */
export type RunPhase = "lookups" | "reading" | "checking" | "sending" | "writing";

export class RunProgress {
  /** A run starts by looking up the account's trunks, offerings and providers, before any row is read. */
  phase: RunPhase = "lookups";
  /** Rows read and validated. */
  rows = 0;
  /** Requests the run is to send (planned, plus those resent after a rejection named some numbers). */
  requests = 0;
  /** Requests answered (or given up on). */
  sent = 0;
  inFlight = 0;
  /** Automatic retries (429, 503, refused connections), counted as they are made. */
  retried = 0;
  /** The sheet's bytes read so far and its size, when it is a file: for the reading phase's ETA. */
  bytesRead: () => number = () => 0;
  totalBytes: number | null = null;
}
