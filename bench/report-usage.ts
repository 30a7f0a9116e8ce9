/**
 * Preloaded with `node --import` where /usr/bin/time is missing: writes the process's
 * resource usage (peak RSS, CPU) to $PORTIN_BENCH_USAGE as it exits.
 */
import { writeFileSync } from "node:fs";

const target = process.env["PORTIN_BENCH_USAGE"];
if (target !== undefined && target !== "") {
  process.on("exit", () => writeFileSync(target, JSON.stringify(process.resourceUsage())));
}
