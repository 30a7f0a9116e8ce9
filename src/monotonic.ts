/**
 * Milliseconds since the process started, from the monotonic clock performance.now() reads,
 * without it: node's `performance` global loads perf_hooks and nine modules of its own at its
 * first use, ~4 ms of every run's start-up (docs/contract.md §8, "Start-up").
 */
export function monotonicMs(): number {
  return process.uptime() * 1000;
}
