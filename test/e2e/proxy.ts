/**
 * A pass-through proxy in front of a test sandbox that can answer some requests itself: a
 * service that accepted a POST and then answered 500, a PortInStatus that is down, a
 * portability list that fails. What it does with each request is decided by `rule`, which a
 * test may change between runs.
 */
import { createServer, request as httpRequest } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningSandbox } from "../../src/sandbox/server.js";

/**
 * `forward`: as the sandbox answers; `swallow`: forward, then answer 500 instead; `fail`: answer 500 without
 * forwarding; `{ status, headers }`: answer that status (a redirect, a 408, a 503) without forwarding;
 * with `body`, that JSON as its answer (an order list the sandbox would not write); `reset`: cut the connection without an answer; `hang`: never answer (until the client gives up
 * or the proxy closes); `hold`: forward once `release()` is called (at once after it), so a test
 * waits on an event of its own instead of a latency it hopes is long enough.
 */
export type ProxyAction = "forward" | "swallow" | "fail" | "reset" | "hang" | "hold" | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown };

export interface FaultyProxy {
  readonly url: string;
  rule: (method: string, path: string) => ProxyAction;
  /** Requests the proxy answered itself, by method and path. */
  readonly failed: string[];
  /** Requests the proxy is holding unanswered (`hang`), by method and path. */
  readonly held: string[];
  /** Forwards every request kept by `hold`, and from now on forwards them at once. */
  release(): void;
  close(): Promise<void>;
}

const FAILURE = JSON.stringify({ ID: "InternalServerError", Message: "The server encountered an error processing the request" });

export async function faultyProxy(sandbox: RunningSandbox): Promise<FaultyProxy> {
  const failed: string[] = [];
  const held: string[] = [];
  const holding: (() => void)[] = [];
  let released = false;
  const fail = (req: IncomingMessage, res: ServerResponse): void => {
    failed.push(`${req.method ?? "?"} ${new URL(req.url ?? "/", "http://proxy").pathname}`);
    res.writeHead(500, { "content-type": "application/json" });
    res.end(FAILURE);
  };
  const proxy: FaultyProxy = {
    url: "",
    rule: () => "forward",
    failed,
    held,
    release: () => {
      released = true;
      for (const forward of holding.splice(0)) forward();
    },
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const action = proxy.rule(req.method ?? "GET", new URL(req.url ?? "/", "http://proxy").pathname);
      if (action === "fail") return fail(req, res);
      if (action === "hang") return void held.push(`${req.method ?? "?"} ${new URL(req.url ?? "/", "http://proxy").pathname}`);
      if (action === "reset") {
        failed.push(`${req.method ?? "?"} ${new URL(req.url ?? "/", "http://proxy").pathname}`);
        req.socket.destroy();
        return;
      }
      if (typeof action === "object") {
        failed.push(`${req.method ?? "?"} ${new URL(req.url ?? "/", "http://proxy").pathname}`);
        if (action.body === undefined) {
          res.writeHead(action.status, action.headers);
          res.end();
          return;
        }
        res.writeHead(action.status, { "content-type": "application/json", ...action.headers });
        res.end(JSON.stringify(action.body));
        return;
      }
      const forward = (): void => {
        const upstream = httpRequest(`${sandbox.url}${req.url ?? ""}`, { method: req.method, headers: req.headers }, (reply) => {
          if (action === "swallow") {
            reply.resume();
            reply.on("end", () => fail(req, res));
            return;
          }
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        });
        upstream.end(Buffer.concat(chunks));
      };
      if (action === "hold" && !released) holding.push(forward);
      else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Connection flags for the proxy, with the sandbox's credentials. */
export function through(proxy: FaultyProxy, sandbox: RunningSandbox): string[] {
  return ["--base-url", proxy.url, "--user", sandbox.user, "--password", sandbox.password];
}
