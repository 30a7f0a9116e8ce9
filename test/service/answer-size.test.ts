/**
 * The service's answers are read with a size cap before parsing (docs/limits.md), so a
 * base URL that is not the service (a file server, a proxy loop, a gzip bomb) cannot fill
 * memory.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AuthError, LookupError } from "../../src/errors.js";
import { createClient, MAX_ANSWER_BYTES } from "../../src/service/client.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { serversClosedAfterEach } from "./http-server.js";

const start = serversClosedAfterEach();

function clientFor(baseUrl: string) {
  return createClient({ baseUrl, user: "acme", password: "pw-for-size-tests", timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
}

/** An empty JSON list padded with spaces to exactly `bytes`: valid JSON of any size. */
function paddedList(bytes: number): Buffer {
  const body = Buffer.alloc(bytes, " ");
  body[0] = 0x5b;
  body[bytes - 1] = 0x5d;
  return body;
}

/** An order list as the service writes it: one open order a number, 416-555-0000 onwards, OrderID 50000 onwards. */
function orderList(count: number): { Orders: unknown[] } {
  return {
    Orders: Array.from({ length: count }, (_, i) => ({
      OrderID: 50_000 + i,
      Requests: [{ RequestIdx: 0, Assessment: "Pending", HappyFoxTicket: `#${750_000 + i}`, NewService: "DIDs", ParentService: "4165550100", NumberToPort: [{ TnRange: String(4_165_550_000 + i), ReadyToPort: false, SvCondition: "Awaiting losing carrier" }] }],
    })),
  };
}

async function lookupError(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected the lookup to fail");
    },
    (error: unknown) => error as Error,
  );
}

describe("answers past 8 MiB", () => {
  it(`reads a lookup answer of exactly ${MAX_ANSWER_BYTES} bytes and refuses one a byte longer`, async () => {
    let size = MAX_ANSWER_BYTES;
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(paddedList(size));
    });
    expect(await clientFor(server.url).trunks()).toEqual([]);
    size += 1;
    const error = await lookupError(clientFor(server.url).trunks());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toBe("GET /SipTrunks: the answer passed 8 MiB, more than portin reads, and was not read; check --base-url: it names something other than the service");
  });

  it("reads an order list past 8 MiB as it arrives: 40,000 orders, every one kept", async () => {
    const body = Buffer.from(JSON.stringify(orderList(40_000)));
    expect(body.length).toBeGreaterThan(MAX_ANSWER_BYTES);
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    // A minute: only ends a hang; a busy CPU parses ten megabytes slowly.
    const client = createClient({ baseUrl: server.url, user: "acme", password: "pw-for-size-tests", timeoutMs: 60_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
    const orders = await client.portInOrders();
    expect(orders).toHaveLength(40_000);
    expect(orders[39_999]).toEqual({ orderId: "89999", open: true, ranges: [{ first: "4165589999", last: "4165589999" }], unread: [] });
  });

  it("stops an endless order list at its own cap, saying the account may hold more orders than portin reads", async () => {
    let written = 0;
    const chunk = Buffer.from(`${JSON.stringify(orderList(2_000).Orders).slice(1, -1)},`);
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"Orders":[');
      const more = (): void => {
        while (!res.destroyed && written < 4096 && res.write(chunk)) written++;
        if (!res.destroyed && written < 4096) res.once("drain", more);
      };
      more();
    });
    const client = createClient({ baseUrl: server.url, user: "acme", password: "pw-for-size-tests", timeoutMs: 5_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test", maxOrderListBytes: 4 * 1024 * 1024 });
    const error = await lookupError(client.portInOrders());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toBe(
      "GET /v2/NumberPorts/Inbound/Dashboard/PortInInfo: the answer passed 4 MiB, more than portin reads, and was not read; " +
        "the account holds more orders than portin reads, or --base-url names something other than the service",
    );
    expect(written).toBeLessThan(64);
  });

  it("refuses an order list that is not JSON, or JSON without an Orders list, as it did when it read the list whole", async () => {
    let body = "<html>Service Unavailable</html>";
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    const path = "GET /v2/NumberPorts/Inbound/Dashboard/PortInInfo";
    expect((await lookupError(clientFor(server.url).portInOrders())).message).toBe(`${path} did not answer JSON (it began "<html>Service Unavailable</html>"); check --base-url`);
    body = '{"Orders": [{"OrderID": 1}';
    expect((await lookupError(clientFor(server.url).portInOrders())).message).toBe(`${path} did not answer JSON (it began "{"Orders": [{"OrderID": 1}"); check --base-url`);
    body = '[{"OrderID": 1}]';
    expect((await lookupError(clientFor(server.url).portInOrders())).message).toBe(`${path} did not answer a list of port-in orders: it has no Orders list; check --base-url`);
    body = '{"orders": []}\n';
    expect(await clientFor(server.url).portInOrders()).toEqual([]);
  });

  it("retries an order list answered 503 and refuses the credentials on 401, as every lookup does", async () => {
    const server = await start((_req, res, _arrival, index) => {
      if (index === 0) {
        res.writeHead(503, { "retry-after": "0" });
        res.end();
        return;
      }
      if (index === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(orderList(3)));
        return;
      }
      res.writeHead(401);
      res.end();
    });
    const client = createClient({ baseUrl: server.url, user: "acme", password: "pw-for-size-tests", timeoutMs: 5_000, retries: 1, allowInsecureHttp: false, userAgent: "portin/test", backoffLimitMs: 10 });
    expect(await client.portInOrders()).toHaveLength(3);
    expect(server.arrivals).toHaveLength(2);
    const refused = await lookupError(client.portInOrders());
    expect(refused).toBeInstanceOf(AuthError);
    expect(refused.message).not.toContain("pw-for-size-tests");
  });

  it("stops reading an endless answer sent without a Content-Length", async () => {
    let written = 0;
    const chunk = Buffer.alloc(1024 * 1024, " ");
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const more = (): void => {
        // Until the client hangs up: 1 GiB is far past anything portin may read.
        while (!res.destroyed && written < 1024 && res.write(chunk)) written++;
        if (!res.destroyed && written < 1024) res.once("drain", more);
      };
      more();
    });
    const error = await lookupError(clientFor(server.url).offerings());
    expect(error.message).toContain("the answer passed 8 MiB");
    expect(written).toBeLessThan(64);
  });

  it("counts a compressed answer after decompression: a small gzip of a huge body is stopped", async () => {
    const bomb = gzipSync(paddedList(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(MAX_ANSWER_BYTES / 8);
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(bomb.length) });
      res.end(bomb);
    });
    const error = await lookupError(clientFor(server.url).providers());
    expect(error.message).toContain("the answer passed 8 MiB");
  });

  it("reports a POST whose answer is too large as unknown: the service may have accepted it", async () => {
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_ANSWER_BYTES + 1) });
      res.end(paddedList(MAX_ANSWER_BYTES + 1));
    });
    const outcome = await clientFor(server.url).submit(operationById("dids") as Operation, { PortForm: { NumbersToPort: [4165550101] } });
    expect(outcome).toEqual({
      kind: "unknown",
      httpStatus: null,
      message: "the answer passed 8 MiB, more than portin reads, and was not read: it may have been accepted; check before resending with --retry-unknown",
    });
    expect(server.arrivals).toHaveLength(1);
  });
});
