/**
 * A service may compress its answers (got asks for gzip, deflate and br): the built CLI, whose
 * bundle loads node:zlib only at the first compressed answer (scripts/bundle.ts), reads each
 * encoding as the plain answer.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { runCli } from "./harness.js";

const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
type Encoding = keyof typeof ENCODERS;

let sandbox: RunningSandbox;
let proxy: ReturnType<typeof createServer>;
let proxyUrl: string;
/** The encoding the proxy answers in next. */
let encoding: Encoding = "gzip";
const answered: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  const target = new URL(sandbox.url);
  proxy = createServer((req, res) => {
    const forwarded = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, "accept-encoding": "identity" } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const body = ENCODERS[encoding](Buffer.concat(chunks));
        answered.push(`${encoding} ${req.url ?? ""}`);
        res.writeHead(answer.statusCode ?? 502, { "content-type": answer.headers["content-type"] ?? "application/json", "content-encoding": encoding, "content-length": String(body.length) });
        res.end(body);
      });
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});

describe("compressed answers", () => {
  it.each(["gzip", "deflate", "br"] as const)("lists the account's trunks from answers in %s", async (chosen) => {
    encoding = chosen;
    const plain = await runCli(["trunks", "--json", "--base-url", sandbox.url, "--user", sandbox.user, "--password", sandbox.password]);
    const compressed = await runCli(["trunks", "--json", "--base-url", proxyUrl, "--user", sandbox.user, "--password", sandbox.password]);
    expect(compressed.stderr).toBe(plain.stderr.replaceAll(sandbox.url, proxyUrl));
    expect(compressed.code).toBe(0);
    expect(plain.stdout).toContain("4165550100");
    expect(compressed.stdout).toBe(plain.stdout);
    expect(answered).toContain(`${chosen} /SipTrunks`);
  });
});
