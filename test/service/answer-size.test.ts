/**
 * The service's answers are read with a size cap before parsing (docs/limits.md), so a
 * base URL that is not the service (a file server, a proxy loop, a gzip bomb) cannot fill
 * memory.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LookupError } from "../../src/errors.js";
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

  it("says of an order list past the cap that the account may hold more orders than portin reads, as well as that the URL may be wrong", async () => {
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(paddedList(MAX_ANSWER_BYTES + 1));
    });
    const error = await lookupError(clientFor(server.url).portInOrders());
    expect(error.message).toBe(
      "GET /v2/NumberPorts/Inbound/Dashboard/PortInInfo: the answer passed 8 MiB, more than portin reads, and was not read; " +
        "the account holds more orders than portin reads at once, or --base-url names something other than the service",
    );
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
