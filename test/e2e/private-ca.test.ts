/**
 * docs/security.md: a service whose certificate a private CA signed is refused, and
 * NODE_EXTRA_CA_CERTS makes portin trust it, as that page says.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:https";
import type { Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli, tempDir } from "./harness.js";
import { privateCa } from "./private-ca.js";

let dir = "";
let server: Server;
let url = "";

let ca = "";
beforeAll(async () => {
  dir = await tempDir();
  const made = await privateCa(dir);
  ca = made.ca;
  server = createServer({ key: made.key, cert: made.cert }, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify([{ Number: 4165550100, Label: "HQ trunk" }]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it("refuses a service whose certificate a private CA signed, and trusts it with NODE_EXTRA_CA_CERTS", async () => {
  const args = ["trunks", "--base-url", url, "--user", "acme", "--password", "ca-test-password"];
  const untrusted = await runCli(args);
  expect(untrusted.code).toBe(2);
  expect(untrusted.stderr).toBe(
    `portin: GET /SipTrunks could not reach ${url}/: the TLS certificate of 127.0.0.1:${new URL(url).port} is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); ` +
      "if a private CA signed it, name the CA's certificate file in NODE_EXTRA_CA_CERTS (docs/security.md)\n",
  );
  const trusted = await runCli(args, { env: { NODE_EXTRA_CA_CERTS: ca } });
  expect(trusted.stderr).toBe("");
  expect(trusted.code).toBe(0);
  expect(trusted.stdout).toContain("4165550100    HQ trunk");
});

it("refuses a self-signed certificate without counting retries, and says how to trust it", async () => {
  const at = (name: string) => join(dir, name);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", at("self.key"), "-out", at("self.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "pipe" });
  const self = createServer({ key: await readFile(at("self.key")), cert: await readFile(at("self.pem")) }, (_req, res) => res.end("[]"));
  await new Promise<void>((resolve) => self.listen(0, "127.0.0.1", resolve));
  try {
    const selfUrl = `https://127.0.0.1:${(self.address() as AddressInfo).port}`;
    const run = await runCli(["offerings", "--base-url", selfUrl, "--user", "acme", "--password", "ca-test-password"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN): self[- ]signed certificate[^)]*\); if a private CA signed it, name the CA's certificate file in NODE_EXTRA_CA_CERTS/);
    expect(run.stderr).not.toContain("retries");
    expect((await runCli(["offerings", "--base-url", selfUrl, "--user", "acme", "--password", "ca-test-password"], { env: { NODE_EXTRA_CA_CERTS: at("self.pem") } })).code).toBe(0);
  } finally {
    self.closeAllConnections();
    await new Promise((resolve) => self.close(resolve));
  }
});
