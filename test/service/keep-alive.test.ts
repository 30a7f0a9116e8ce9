import { execFileSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo, Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createClient, IDLE_SOCKET_TIMEOUT_MS } from "../../src/service/client.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { json, refusedPort, serversClosedAfterEach } from "./http-server.js";

const DIDS = operationById("dids") as Operation;
const BODY = { PortForm: { CustomerName: "Acme", NumbersToPort: [4165550101] }, PilotNumber: 4165550000, DIDs: [{ Number: 4165550101 }] };
const TICKET = { TicketMask: "PI-1", Reply: 1, Message: "Accepted" };

const start = serversClosedAfterEach();

const clientFor = (url: string) =>
  createClient({ baseUrl: url, user: "acme", password: "pw", timeoutMs: 2_000, retries: 2, allowInsecureHttp: false, userAgent: "portin/test", backoffLimitMs: 20 });

describe("connections to the service", () => {
  it("sends consecutive requests over one kept-alive connection", async () => {
    const sockets = new Set<Socket>();
    const server = await start((req, res) => {
      sockets.add(req.socket);
      json(res, 200, TICKET);
    });
    const client = clientFor(server.url);
    for (let i = 0; i < 3; i++) expect((await client.submit(DIDS, BODY)).kind).toBe("accepted");
    expect(server.arrivals).toHaveLength(3);
    expect(sockets.size).toBe(1);
  });

  it("closes a connection left idle, well before a server's own idle timeout would", async () => {
    // Who closed it, not when: the client's close reaches the server as an end of its input
    // first; the server's own idle timeout (node's 5 s here) would destroy it without one.
    // No sleep to race: a busy CPU delays both timers alike, and the client's expires first.
    let closedByClient: Promise<boolean> | undefined;
    const server = await start((req, res) => {
      closedByClient = new Promise((resolve) => {
        req.socket.once("end", () => resolve(true));
        req.socket.once("close", () => resolve(false));
      });
      json(res, 200, TICKET);
    });
    await clientFor(server.url).submit(DIDS, BODY);
    expect(await closedByClient).toBe(true);
    expect(IDLE_SOCKET_TIMEOUT_MS).toBeLessThan(5_000);
  });

  it("calls a POST cut on a reused connection before any answer unknown, and does not resend it", async () => {
    const server = await start((req, res, _arrival, index) => {
      if (index === 0) json(res, 200, TICKET);
      else req.socket.destroy();
    });
    const client = clientFor(server.url);
    expect((await client.submit(DIDS, BODY)).kind).toBe("accepted");
    const outcome = await client.submit(DIDS, BODY);
    expect(outcome).toMatchObject({ kind: "unknown", httpStatus: null });
    expect(outcome.message).toContain("connection cut");
    expect(server.arrivals).toHaveLength(2);
  });

  it("opens the connections of requests sent at once ahead of them, sending nothing, and the requests then open none of their own", async () => {
    const server = await start((_req, res) => json(res, 200, TICKET));
    const client = clientFor(server.url);
    client.connect(3);
    await expect.poll(() => server.connections(), { timeout: 10_000 }).toBe(3);
    expect(server.arrivals).toHaveLength(0);
    const outcomes = await Promise.all([1, 2, 3].map(() => client.submit(DIDS, BODY)));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["accepted", "accepted", "accepted"]);
    expect(server.arrivals).toHaveLength(3);
    expect(server.connections()).toBe(3);
  });

  it("counts a connection an earlier request left open among those it opens ahead", async () => {
    const server = await start((_req, res) => json(res, 200, TICKET));
    const client = clientFor(server.url);
    expect((await client.submit(DIDS, BODY)).kind).toBe("accepted");
    client.connect(2);
    await expect.poll(() => server.connections(), { timeout: 10_000 }).toBe(2);
    await Promise.all([1, 2].map(() => client.submit(DIDS, BODY)));
    expect(server.connections()).toBe(2);
  });

  it("closes a connection opened ahead that no request took, once it has been idle for the client's idle timeout", async () => {
    // A bare TCP server, which never closes a connection itself: an end of input is the client's close.
    const server = createNetServer();
    const ended = new Promise<void>((resolve) =>
      server.on("connection", (socket) =>
        socket.once("end", () => {
          socket.destroy();
          resolve();
        }),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      clientFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).connect(1);
      await ended;
    } finally {
      server.close();
    }
  });

  it.each([
    ["while it was still being opened", 0],
    ["before the POST", 50],
  ])("leaves a POST 'not sent' when the connection opened ahead of it was refused (%s): nothing reached the service", async (_when, waitMs) => {
    const client = clientFor(`http://127.0.0.1:${await refusedPort()}`);
    client.connect(2);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const outcome = await client.submit(DIDS, BODY);
    expect(outcome).toMatchObject({ kind: "failed", httpStatus: null });
    expect(outcome.message).toMatch(/^not sent/);
  });

  it("opens a TLS connection ahead with the checks a request's own gets: a certificate it does not trust is refused there too, and the POST is 'not sent'", async () => {
    const dir = await mkdtemp(join(tmpdir(), "portin-tls-"));
    const at = (name: string) => join(dir, name);
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", at("self.key"), "-out", at("self.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "pipe" });
    const server = createHttpsServer({ key: await readFile(at("self.key")), cert: await readFile(at("self.pem")) }, (_req, res) => json(res, 200, TICKET));
    let requests = 0;
    let refused = 0;
    server.on("request", () => requests++).on("tlsClientError", () => refused++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = clientFor(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
      client.connect(2);
      // Both connections opened ahead met the certificate, and the client refused it.
      await expect.poll(() => refused, { timeout: 10_000 }).toBe(2);
      const outcome = await client.submit(DIDS, BODY);
      expect(outcome).toMatchObject({ kind: "failed", httpStatus: null });
      expect(outcome.message).toMatch(/^not sent: .*certificate/);
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
