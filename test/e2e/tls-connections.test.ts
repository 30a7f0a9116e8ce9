/**
 * docs/contract.md §8, "The client": on a service reached over TLS too, `submit` opens its
 * first requests' connections while their intents are made durable and sends every request
 * once, on at most --concurrency connections.
 */
import { request as httpRequest } from "node:http";
import { createServer } from "node:https";
import type { Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";
import { privateCa } from "./private-ca.js";

let dir = "";
let ca = "";
let sandbox: RunningSandbox;
/** The sandbox behind TLS: every request passed on as it came. */
let front: Server;
let url = "";
let handshakes = 0;

beforeAll(async () => {
  dir = await tempDir();
  const made = await privateCa(dir);
  ca = made.ca;
  sandbox = await startSandbox();
  front = createServer({ key: made.key, cert: made.cert }, (req, res) => {
    const upstream = httpRequest(`${sandbox.url}${req.url ?? ""}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  front.on("secureConnection", () => handshakes++);
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  await sandbox.close();
});

it("submits 24 one-number requests at concurrency 8 over TLS on connections it opened ahead, verified, each request once", async () => {
  const lines = Array.from({ length: 24 }, (_, i) => `416-555-${3000 + i},4165550100,${FORM_CELLS}`);
  const sheet = await writeSheet(dir, "tls.csv", `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`);
  const results = join(dir, "tls.results.csv");
  const args = ["submit", sheet, "--results", results, "--state", join(dir, "tls.jsonl"), "--max-per-request", "1", "--concurrency", "8"];
  const run = await runCli([...args, "--base-url", url, "--user", sandbox.user, "--password", sandbox.password], { env: { NODE_EXTRA_CA_CERTS: ca } });
  expect(run.stderr).toContain("24 rows: 24 submitted");
  expect(run.code).toBe(0);
  expect((await readResults(results)).map((row) => row.result_status)).toEqual(Array(24).fill("submitted"));
  expect(sandbox.accepted().flatMap((accepted) => accepted.numbers)).toHaveLength(24);
  // The lookups' connections and those opened ahead of the first wave carried every request.
  expect(handshakes).toBeGreaterThan(0);
  expect(handshakes).toBeLessThanOrEqual(8);
});
