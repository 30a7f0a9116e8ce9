/**
 * How slow this machine is right now, as a factor of a quiet 2-core machine: the time Node
 * takes to start here (the median of three), against the 100 ms it takes there. Measured
 * once when the suite starts, so that timeouts scale with the machine, not with a guess:
 * beside a CPU hog every spawn of the CLI takes longer, and so may every test.
 */
import { spawnSync } from "node:child_process";

const QUIET_START_MS = 100;

export function measureSlowness(): number {
  const times = [0, 1, 2]
    .map(() => {
      const started = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      return performance.now() - started;
    })
    .sort((a, b) => a - b);
  return Math.max(1, (times[1] ?? QUIET_START_MS) / QUIET_START_MS);
}
