import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, test } from "vitest";
import yargs from "yargs";
import type { CommandIO } from "../../src/io.js";
import { sandboxCommand } from "../../src/commands/sandbox.js";
import type { SandboxArgs } from "../../src/commands/sandbox.js";
import { UsageError } from "../../src/errors.js";
import { defaultAccountFile } from "../../src/sandbox/account.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";

interface Harness {
  io: CommandIO;
  stop: AbortController;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with stdout's first line. */
  firstLine: () => Promise<string>;
}

function harness(): Harness {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const stop = new AbortController();
  return {
    io: { stdout, stderr, stdin: new PassThrough(), signal: stop.signal },
    stop,
    stdout: () => out,
    stderr: () => err,
    firstLine: () =>
      new Promise((resolve) => {
        const check = () => {
          const newline = out.indexOf("\n");
          if (newline >= 0) resolve(out.slice(0, newline));
          else setTimeout(check, 5);
        };
        check();
      }),
  };
}

function parse(argv: string[]): Promise<SandboxArgs> {
  return sandboxCommand.builder(yargs(argv).strict()).parseAsync();
}

const others: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((s) => s.close()));
});

describe("portin sandbox", () => {
  test("prints its base URL alone on stdout, serves until aborted, then resolves done", async () => {
    const h = harness();
    const running = sandboxCommand.run(await parse(["--port", "0", "--user", "acme", "--password", "hunter2-secret", "--seed", "9"]), h.io);
    const url = await h.firstLine();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const auth = `Basic ${Buffer.from("acme:hunter2-secret").toString("base64")}`;
    const res = await fetch(`${url}/NumberPorts/Providers`, { headers: { Authorization: auth } });
    expect(res.status).toBe(200);
    h.stop.abort("SIGINT");
    expect(await running).toEqual({ kind: "done" });
    expect(h.stdout()).toBe(`${url}\n`);
    expect(h.stderr()).toContain("fault seed 9");
    expect(h.stderr()).toContain("GET /NumberPorts/Providers 200");
    expect(h.stderr()).not.toContain("hunter2-secret");
    await expect(fetch(`${url}/SipTrunks`)).rejects.toThrow();
  });

  test("defaults to port 4010 and the sandbox/sandbox credentials", async () => {
    const args = await parse([]);
    expect(args).toMatchObject({ port: 4010, user: "sandbox", password: "sandbox", latency: 0, failRate: 0, throttleRate: 0, rejectRate: 0.2, daySeconds: 0, orderListDown: false, statusLag: 0 });
    expect(args.seed).toBeUndefined();
  });

  test.each([
    [["--fail-rate", "1.5"], '--fail-rate takes a share from 0 to 1 (0.1 is one request in ten), not "1.5"'],
    [["--throttle-rate", "lots"], '--throttle-rate takes a share from 0 to 1 (0.1 is one request in ten), not "lots"'],
    [["--port", "70000"], '--port takes a whole number from 0 to 65535, not "70000"'],
    [["--latency", "-5"], '--latency takes a whole number of milliseconds from 0 to 600000, not "-5"'],
    [["--seed", "1.5"], '--seed takes a whole number from 0 to 4294967295, not "1.5"'],
    [["--reject-rate", "2"], '--reject-rate takes a share from 0 to 1 (0.1 is one request in ten), not "2"'],
    [["--day-seconds", "-1"], '--day-seconds takes a whole number of seconds from 0 to 86400, not "-1"'],
    [["--start-date", "2026-02-30"], "--start-date '2026-02-30' is not a date: give YYYY-MM-DD, e.g. 2026-03-02"],
    [["--status-lag", "soon"], '--status-lag takes a whole number of seconds from 0 to 86400, not "soon"'],
    [["--e911-fail-rate", "2"], '--e911-fail-rate takes a share from 0 to 1 (0.1 is one request in ten), not "2"'],
    [["--e911-refuse-city", "Torontoo"], '--e911-refuse-city \'Torontoo\' is not CITY=SUGGESTED, e.g. "Torontoo=Toronto"'],
    [["--off-trunk", "416-555-0101"], "--off-trunk '416-555-0101' is not a 10-digit number such as 4165550101"],
  ])("refuses %j up front: %s", async (argv, message) => {
    const h = harness();
    const run = sandboxCommand.run(await parse(argv), h.io);
    await expect(run).rejects.toThrow(new UsageError(message));
    expect(h.stdout()).toBe("");
  });

  test("refuses a port already in use with the next step", async () => {
    const taken = await startSandbox();
    others.push(taken);
    const port = new URL(taken.url).port;
    const h = harness();
    await expect(sandboxCommand.run(await parse(["--port", port]), h.io)).rejects.toThrow(
      `port ${port} on 127.0.0.1 is already in use: pass --port 0 for a free one, or another port`,
    );
  });

  test("serves the account file's portal orders, and says where to place more", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portin-sandbox-command-"));
    const account = join(dir, "account.json");
    const fixture = JSON.parse(readFileSync(defaultAccountFile(), "utf8")) as Record<string, unknown>;
    writeFileSync(account, JSON.stringify({ ...fixture, orders: [{ numbers: ["4165550301", "4165550100-0199"], ticket: "PI-P00001" }] }));
    const h = harness();
    const running = sandboxCommand.run(await parse(["--port", "0", "--account", account]), h.io);
    const url = await h.firstLine();
    const auth = `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}`;
    const status = await fetch(`${url}/v2/NumberPorts/Inbound/Numbers/4165550150/PortInStatus`, { headers: { Authorization: auth } });
    expect(await status.json()).toMatchObject({ TicketId: "PI-P00001", Status: "SUBMITTED" });
    const placed = await fetch(`${url}/_sandbox/orders`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"numbers": ["6475550400"]}' });
    expect(await placed.json()).toEqual({ TicketMask: "PI-P00002" });
    h.stop.abort("SIGINT");
    await running;
    expect(h.stderr()).toContain(`POST {"numbers": [...]} to ${url}/_sandbox/orders places an order as the web portal would`);
  });

  test("--order-list-down and --status-lag reach the sandbox: the list answers 500, and an order stays out of PortInStatus", async () => {
    const h = harness();
    const running = sandboxCommand.run(await parse(["--port", "0", "--order-list-down", "--status-lag", "3600"]), h.io);
    const url = await h.firstLine();
    const auth = `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}`;
    const list = await fetch(`${url}/v2/NumberPorts/Inbound/Dashboard/PortInInfo`, { headers: { Authorization: auth } });
    expect([list.status, await list.json()]).toEqual([500, { ID: "InternalServerError", Message: "the port-in dashboard is unavailable" }]);
    await fetch(`${url}/_sandbox/orders`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"numbers": ["6475550400"]}' });
    const status = await fetch(`${url}/v2/NumberPorts/Inbound/Numbers/6475550400/PortInStatus`, { headers: { Authorization: auth } });
    expect(status.status).toBe(404);
    h.stop.abort("SIGINT");
    await running;
  });

  test("--e911-refuse-city, --e911-fail-rate and --off-trunk reach the sandbox's 9-1-1 database", async () => {
    const h = harness();
    const running = sandboxCommand.run(await parse(["--port", "0", "--e911-refuse-city", "Torontoo=Toronto", "--e911-fail-rate", "1", "--off-trunk", "4165552000"]), h.io);
    const url = await h.firstLine();
    const headers = { Authorization: `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}`, "Content-Type": "application/json" };
    const record = { Number: 4165552000, FirstName: "A", LastName: "B", StreetNumber: "1", StreetName: "Bay St", City: "Torontoo", ProvinceState: "ON", PostalZip: "M5J 2N1", PendingPort: true };
    const verify = await fetch(`${url}/v2/V911s/Verify`, { method: "POST", headers, body: JSON.stringify(record) });
    expect(await verify.json()).toMatchObject({ Reply: 0, ResponseData: { Errors: [{ SuggestedCity: "Toronto" }] } });
    await fetch(`${url}/_sandbox/orders`, { method: "POST", headers, body: '{"numbers": ["4165552000"]}' });
    const registered = await fetch(`${url}/v2/V911s`, { method: "POST", headers, body: JSON.stringify({ ...record, City: "Toronto" }) });
    expect(registered.status).toBe(500);
    h.stop.abort("SIGINT");
    await running;
  });

  test("stops at once when the signal was aborted before it was ready", async () => {
    const h = harness();
    h.stop.abort("SIGTERM");
    expect(await sandboxCommand.run(await parse(["--port", "0"]), h.io)).toEqual({ kind: "done" });
  });
});
