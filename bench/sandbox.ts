/**
 * The sandbox as a user runs it: `portin sandbox --port 0` in its own process, so that
 * its CPU is not the client's. Its per-request log goes to /dev/null.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

export const SANDBOX_USER = "sandbox";
export const SANDBOX_PASSWORD = "sandbox";

export interface BenchSandbox {
  readonly url: string;
  /** The connection flags for portin. */
  readonly flags: readonly string[];
  stop(): Promise<void>;
}

export async function startSandbox(cli: string, latencyMs: number): Promise<BenchSandbox> {
  const child: ChildProcess = spawn(process.execPath, [cli, "sandbox", "--port", "0", "--latency", String(latencyMs)], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      text += d;
      const line = text.split("\n")[0];
      if (text.includes("\n") && line !== undefined) resolve(line.trim());
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${String(code)}) before printing its URL`)));
  });
  return {
    url,
    flags: ["--base-url", url, "--user", SANDBOX_USER, "--password", SANDBOX_PASSWORD],
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
