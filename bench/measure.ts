/**
 * Runs one command as a child process and measures what a user would see: wall time, CPU
 * (user + sys) and peak RSS. Peak RSS and CPU come from `/usr/bin/time -v` when present,
 * else from a preloaded module that reports `process.resourceUsage()` as the child exits.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const GNU_TIME = "/usr/bin/time";
const REPORT_USAGE = fileURLToPath(new URL("./report-usage.js", import.meta.url));

export interface Measured {
  readonly code: number | null;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How peak RSS was measured, for the table's notes. */
export const RSS_SOURCE = existsSync(GNU_TIME) ? "/usr/bin/time -v" : "process.resourceUsage().maxRSS at exit";

let counter = 0;

/** Runs `node <args>`; the wall time is measured here, from spawn to exit. */
export async function measureNode(args: readonly string[]): Promise<Measured> {
  const usageFile = join(tmpdir(), `portin-bench-${process.pid}-${counter++}.usage`);
  const useTime = existsSync(GNU_TIME);
  const [command, argv] = useTime
    ? [GNU_TIME, ["-v", "-o", usageFile, process.execPath, ...args]]
    : [process.execPath, ["--import", REPORT_USAGE, ...args]];
  const env = { ...process.env, PORTIN_BENCH_USAGE: usageFile };
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  const wallMs = performance.now() - started;
  const text = await readFile(usageFile, "utf8").catch(() => "");
  await rm(usageFile, { force: true });
  const usage = useTime ? fromGnuTime(text) : fromReport(text);
  return { code, wallMs, stdout, stderr, ...usage };
}

function fromGnuTime(text: string): { cpuMs: number; maxRssMb: number } {
  const field = (label: string): number => {
    const match = new RegExp(`${label}: ([\\d.]+)`).exec(text);
    return match?.[1] === undefined ? NaN : Number(match[1]);
  };
  const cpuMs = (field("User time \\(seconds\\)") + field("System time \\(seconds\\)")) * 1000;
  return { cpuMs, maxRssMb: field("Maximum resident set size \\(kbytes\\)") / 1024 };
}

function fromReport(text: string): { cpuMs: number; maxRssMb: number } {
  try {
    const usage = JSON.parse(text) as { userCPUTime: number; systemCPUTime: number; maxRSS: number };
    return { cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssMb: usage.maxRSS / 1024 };
  } catch {
    return { cpuMs: NaN, maxRssMb: NaN };
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}
