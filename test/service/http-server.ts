import { afterEach } from "vitest";
/** A real HTTP server on 127.0.0.1 for client tests: it records every request that reaches it. */
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Arrival {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() when the body had fully arrived. */
  readonly at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, arrival: Arrival, index: number) => void;

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly arrivals: Arrival[];
  /** Connections the server has accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function serve(handler: Handler): Promise<TestServer> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const arrival = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
      arrivals.push(arrival);
      handler(req, res, arrival, arrivals.length - 1);
    });
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arrivals,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** A port that was free a moment ago and now refuses connections. */
export async function refusedPort(): Promise<number> {
  const server = await serve(() => undefined);
  await server.close();
  return server.port;
}

/** Starts servers for one test file's tests, each closed after the test that started it. */
export function serversClosedAfterEach(): (handler: Handler) => Promise<TestServer> {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return async (handler) => {
    const server = await serve(handler);
    servers.push(server);
    return server;
  };
}
