/**
 * `--rate N`: at most N request starts per second, spaced evenly rather than in bursts so
 * that a throttling service sees a steady stream. p-queue bounds concurrency here, not rate.
 */
import { monotonicMs } from "../monotonic.js";

export class StartRate {
  private readonly intervalMs: number;
  private nextStart = 0;

  constructor(perSecond: number | null) {
    this.intervalMs = perSecond ? 1000 / perSecond : 0;
  }

  /** Resolves when the next start is allowed, or at once when the signal aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = monotonicMs();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + this.intervalMs;
    const delay = at - now;
    if (delay <= 0 || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, delay);
      signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}
