import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createClient, IDLE_SOCKET_TIMEOUT_MS } from "../../src/service/client.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { json, serversClosedAfterEach } from "./http-server.js";

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
});
