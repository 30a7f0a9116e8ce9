import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, withoutE911, writeSheet } from "./harness.js";

let sandbox: RunningSandbox | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  sandbox = proxy = undefined;
});

async function sandboxed(options: SandboxOptions = {}): Promise<RunningSandbox> {
  sandbox = await startSandbox(options);
  return sandbox;
}

/** A sheet of `count` trunk rows, 416-555-2000 onwards. */
async function trunkSheet(count: number, name = "sheet.csv"): Promise<{ dir: string; path: string }> {
  const dir = await tempDir();
  const lines = Array.from({ length: count }, (_, i) => `416-555-${2000 + i},4165550100,${FORM_CELLS}`);
  return { dir, path: await writeSheet(dir, name, `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`) };
}

describe("exit codes", () => {
  it("exits 0 when every row is submitted", async () => {
    const s = await sandboxed();
    const { path } = await trunkSheet(3);
    const run = await runCli(["submit", path, ...against(s)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("3 rows: 3 submitted");
  });

  it("exits 2 and sends nothing for a column naming an unknown member, suggesting the right one", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const path = await writeSheet(dir, "typo.csv", `number,pilot_number,portform.CustomerNme\n416-555-2000,4165550100,Acme\n`);
    const run = await runCli(["submit", path, ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("typo.csv");
    expect(run.stderr).toContain("portform.CustomerName");
    expect(s.received()).toEqual([]);
    expect(existsSync(join(dir, "typo.results.csv"))).toBe(false);
  });

  it("exits 2 for an unclosed quote, naming the line where the quote opens", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const rows = [`number,pilot_number,${FORM_HEADER}`, `416-555-2000,4165550100,${FORM_CELLS}`, `"416-555-2001,4165550100,${FORM_CELLS}`];
    for (let i = 2; i < 10; i++) rows.push(`416-555-20${10 + i},4165550100,${FORM_CELLS}`);
    const path = await writeSheet(dir, "quote.csv", rows.join("\n") + "\n");
    const run = await runCli(["submit", path, ...against(s)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/quote\.csv: line 3\b/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace without --debug
    expect(s.received()).toEqual([]);
  });

  it("exits 2 for bad arguments, naming the value", async () => {
    const { path } = await trunkSheet(1);
    const run = await runCli(["submit", path, "--concurrency", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--concurrency takes a whole number from 1 to 256, not "0"');
  });

  it("exits 2 when the service refuses the credentials at lookup, without echoing the password", async () => {
    const s = await sandboxed();
    const { path } = await trunkSheet(1);
    const run = await runCli(["submit", path, "--base-url", s.url, "--user", "sandbox", "--password", "wrong-Pa55"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/401/);
    expect(run.stderr + run.stdout).not.toContain("wrong-Pa55");
    expect(run.stderr + run.stdout).not.toContain(Buffer.from("sandbox:wrong-Pa55").toString("base64"));
  });

  it("stops sending after a 401 on a POST: the rest are failed 'not sent', results written, exit 2", async () => {
    const s = await sandboxed();
    // Lookups pass through to the sandbox; every POST is refused as a revoked credential would be.
    proxy = createServer((req, res) => {
      if (req.method === "POST") {
        req.resume();
        res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ ID: "AUTH", Message: "credentials revoked" }));
        return;
      }
      const upstream = httpRequest(`${s.url}${req.url ?? ""}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const { dir, path } = await trunkSheet(3);
    const run = await runCli(["submit", path, "--max-per-request", "1", "--concurrency", "1", "--base-url", url, "--user", "sandbox", "--password", "sandbox"]);
    expect(run.code).toBe(2);
    const rows = await readResults(join(dir, "sheet.results.csv"));
    expect(rows.map((r) => r.result_status)).toEqual(["failed", "failed", "failed"]);
    expect(rows[0]!.result_http_status).toBe("401");
    expect(rows[1]!.result_message).toMatch(/^not sent: run stopped after .*401/);
    expect(rows[2]!.result_message).toMatch(/^not sent: run stopped after .*401/);
  });
});

describe("what the service answers becomes each row's status", () => {
  it("marks a request with an unportable number rejected, with the service's message, and exits 1", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const path = await writeSheet(dir, "unportable.csv", `number,pilot_number,${FORM_HEADER}\n416-555-0199,4165550100,${FORM_CELLS}\n`);
    const run = await runCli(["submit", path, ...against(s)]);
    expect(run.code).toBe(1);
    const [row] = await readResults(join(dir, "unportable.results.csv"));
    expect(row).toMatchObject({ result_status: "rejected", result_http_status: "200" });
    expect(row!.result_message).toMatch(/not portable/);
  });

  it("marks a request answered 500 unknown and does not resend it", async () => {
    const s = await sandboxed({ failRate: 1, seed: 7 });
    const { dir, path } = await trunkSheet(2);
    const run = await runCli(["submit", path, "--state", join(dir, "run.state.jsonl"), ...against(s)]);
    expect(run.code).toBe(1);
    expect(s.received().filter((r) => r.path.includes("NumberPorts/Inbound"))).toHaveLength(1);
    const rows = await readResults(join(dir, "sheet.results.csv"));
    expect(rows.map((r) => [r.result_status, r.result_http_status])).toEqual([
      ["unknown", "500"],
      ["unknown", "500"],
    ]);
  });
});

describe("signals", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("on %s lets the request in flight finish, writes every row's result, and exits %i", async (signal, code) => {
    const s = await sandboxed({ latencyMs: 400 });
    const { dir, path } = await trunkSheet(6);
    let sent = false;
    const run = await runCli(["submit", path, "--max-per-request", "1", "--concurrency", "1", ...against(s)], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (!sent && s.received().some((r) => r.path.includes("NumberPorts/Inbound"))) {
            sent = true;
            child.kill(signal);
            clearInterval(poll);
          }
        }, 10);
        child.on("exit", () => clearInterval(poll));
      },
    });
    expect(run.code).toBe(code);
    const rows = await readResults(join(dir, "sheet.results.csv"));
    expect(rows).toHaveLength(6);
    const submitted = rows.filter((r) => r.result_status === "submitted");
    expect(submitted.map((r) => r.result_number)).toEqual(s.accepted().flatMap((r) => r.numbers));
    expect(submitted.length).toBeGreaterThanOrEqual(1);
    for (const row of rows.filter((r) => r.result_status !== "submitted")) {
      expect(row).toMatchObject({ result_status: "failed", result_message: withoutE911("not sent: the run was interrupted; run again") });
    }
    expect(run.stderr).toMatch(/^next: interrupted: run again to send the \d+ rows? not sent/m);
    expect(run.stderr).not.toMatch(/^next: \d+ rows? failed/m);
  });
});
