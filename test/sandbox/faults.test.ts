import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { operationById } from "../../src/catalog/operations.js";
import { buildBody } from "../../src/service/body.js";
import { FaultInjector } from "../../src/sandbox/faults.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { PORT_FORM } from "../support/port-form.js";

const DIDS = operationById("dids")!;

function didsBody(number: string): Record<string, unknown> {
  return buildBody({ operation: DIDS, target: "4165550100", portForm: PORT_FORM, request: {}, numbers: [{ number, item: {} }] });
}

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}

const AUTH = `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}`;

async function send(sandbox: RunningSandbox, body: unknown): Promise<Response> {
  return fetch(sandbox.url + DIDS.path, {
    method: "POST",
    headers: { Authorization: AUTH, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Sends `count` valid requests one after another and returns their statuses. */
async function statuses(sandbox: RunningSandbox, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send(sandbox, didsBody(`416555${String(3000 + i)}`));
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe("fault injection", () => {
  test("repeats the same sequence of statuses for the same seed and the same requests", async () => {
    const options = { seed: 42, failRate: 0.3, throttleRate: 0.3 };
    const first = await statuses(await start(options), 30);
    const second = await statuses(await start(options), 30);
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500]));
  });

  test("reports the seed it drew when none was given, and replays with it", async () => {
    const drawn = await start({ failRate: 0.5 });
    const replay = await start({ failRate: 0.5, seed: drawn.seed });
    expect(await statuses(replay, 12)).toEqual(await statuses(drawn, 12));
  });

  test("answers a throttled POST 429 with Retry-After: 1 and an Exception body, accepting nothing", async () => {
    const sandbox = await start({ throttleRate: 1 });
    const res = await send(sandbox, didsBody("4165550101"));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ ID: "TooManyRequests", Message: "too many requests: retry after 1 second(s)" });
    expect(sandbox.accepted()).toEqual([]);
    expect(sandbox.received()).toEqual([{ path: DIDS.path, status: 429, body: didsBody("4165550101") }]);
  });

  test("applies faults before validation, so even an invalid body can be answered 500", async () => {
    const sandbox = await start({ failRate: 1 });
    const res = await send(sandbox, { PortForm: {} });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ ID: "InternalServerError", Message: "The server encountered an error processing the request" });
  });

  test("hides an acceptance behind about half of the 500s, as a real server error may", async () => {
    const sandbox = await start({ failRate: 1, seed: 7 });
    const answered = await statuses(sandbox, 20);
    expect(answered).toEqual(Array<number>(20).fill(500));
    const hidden = sandbox.accepted().length;
    expect(hidden).toBeGreaterThan(0);
    expect(hidden).toBeLessThan(20);
    // A hidden acceptance is real: the number now has a pending port-in.
    const acceptedNumber = sandbox.accepted()[0]!.numbers[0]!;
    const status = await fetch(`${sandbox.url}/v2/NumberPorts/Inbound/Numbers/${acceptedNumber}/PortInStatus`, { headers: { Authorization: AUTH } });
    expect(status.status).toBe(200);
  });

  test("leaves GETs alone", async () => {
    const sandbox = await start({ failRate: 1, throttleRate: 1 });
    const res = await fetch(`${sandbox.url}/SipTrunks`, { headers: { Authorization: AUTH } });
    expect(res.status).toBe(200);
  });

  test("delays every answer, GETs too, by the latency", async () => {
    const sandbox = await start({ latencyMs: 120 });
    const started = performance.now();
    const res = await fetch(`${sandbox.url}/SipTrunks`, { headers: { Authorization: AUTH } });
    await res.arrayBuffer();
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  test("counts the latency from the request's arrival: time spent before the answer is worked out is inside it, as in a service's response time", async () => {
    const sandbox = await start({ latencyMs: 1000 });
    const body = JSON.stringify(didsBody("4165553990"));
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(sandbox.url + DIDS.path, {
        method: "POST",
        headers: { Authorization: AUTH, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      });
      request.on("response", (res) => (res.resume(), res.on("end", () => resolve(res.statusCode ?? 0))));
      request.on("error", reject);
      // The headers arrive at once, the body 600 ms later: the answer is due 1,000 ms after the headers, not 1,600.
      request.flushHeaders();
      setTimeout(() => request.end(body), 600);
    });
    const elapsed = performance.now() - started;
    expect(status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1400);
  });

  test("changes its fault rates between requests when told to, as a service that recovers would", async () => {
    const sandbox = await start({ failRate: 1, seed: 3 });
    expect(await statuses(sandbox, 3)).toEqual([500, 500, 500]);
    sandbox.setFaults({ failRate: 0, throttleRate: 0 });
    const recovered = await send(sandbox, didsBody("4165553999"));
    expect(recovered.status).toBe(200);
    sandbox.setFaults({ failRate: 0, throttleRate: 1 });
    expect((await send(sandbox, didsBody("4165553998"))).status).toBe(429);
  });

  test("draws no fault at rates of zero", () => {
    const faults = new FaultInjector({ failRate: 0, throttleRate: 0 }, 1);
    expect(Array.from({ length: 1000 }, () => faults.next()).filter((f) => f !== null)).toEqual([]);
  });

  test("draws faults in roughly the configured shares", () => {
    const faults = new FaultInjector({ failRate: 0.2, throttleRate: 0.1 }, 123);
    const draws = Array.from({ length: 10_000 }, () => faults.next());
    const share = (f: string) => draws.filter((d) => d === f).length / draws.length;
    expect(share("throttle")).toBeCloseTo(0.1, 1);
    expect(share("fail-before") + share("fail-after")).toBeCloseTo(0.2, 1);
    expect(share("fail-after")).toBeCloseTo(0.1, 1);
  });
});
