import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { AuthError, LookupError, UsageError } from "../../src/errors.js";
import { createClient } from "../../src/service/client.js";
import type { ClientOptions } from "../../src/service/client.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import type { SubmitOutcome } from "../../src/service/outcome.js";
import { json, refusedPort, serversClosedAfterEach } from "./http-server.js";

const USER = "acme";
const PASSWORD = "Tr0ub4dor-s3cret";
const SECRETS = [PASSWORD, Buffer.from(PASSWORD).toString("base64"), Buffer.from(`${USER}:${PASSWORD}`).toString("base64")];

const DIDS = operationById("dids") as Operation;
const BODY = { PortForm: { CustomerName: "Acme", NumbersToPort: [4165550101] }, PilotNumber: 4165550000, DIDs: [{ Number: 4165550101 }] };

const start = serversClosedAfterEach();

function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl,
    user: USER,
    password: PASSWORD,
    timeoutMs: 2_000,
    retries: 2,
    allowInsecureHttp: false,
    userAgent: "portin/test",
    backoffLimitMs: 20,
    ...options,
  });
}

function expectNoSecret(value: unknown): void {
  const seen = `${inspect(value, { depth: 10, showHidden: true })}\n${JSON.stringify(value) ?? ""}`;
  for (const secret of SECRETS) expect(seen).not.toContain(secret);
}

/** Submits one request and checks that its outcome carries no credential. */
async function submit(url: string, options: Partial<ClientOptions> = {}): Promise<SubmitOutcome> {
  const outcome = await clientFor(url, options).submit(DIDS, BODY);
  expectNoSecret(outcome);
  return outcome;
}

/** The error a promise rejects with, checked to carry no credential at any depth. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expectNoSecret(error);
  return error as Error;
}

const ticket = (reply: number, message = "") => ({ TicketMask: "T-1001", Reply: reply, Message: message });

describe("submit: what the service receives", () => {
  it("posts the JSON body to the operation's path with Basic auth, Accept, Content-Type and User-Agent", async () => {
    const server = await start((_req, res) => json(res, 200, ticket(1)));
    await submit(server.url);
    expect(server.arrivals).toHaveLength(1);
    const [arrival] = server.arrivals;
    expect(arrival?.method).toBe("POST");
    expect(arrival?.url).toBe("/v2/NumberPorts/Inbound/DIDs");
    expect(JSON.parse(arrival?.body ?? "")).toEqual(BODY);
    expect(arrival?.headers.authorization).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`);
    expect(arrival?.headers.accept).toBe("application/json");
    expect(arrival?.headers["content-type"]).toBe("application/json");
    expect(arrival?.headers["user-agent"]).toBe("portin/test");
  });

  it("keeps the base URL's own path in front of the operation's path", async () => {
    const server = await start((_req, res) => json(res, 200, ticket(1)));
    await submit(`${server.url}/rest.svc`);
    expect(server.arrivals[0]?.url).toBe("/rest.svc/v2/NumberPorts/Inbound/DIDs");
  });
});

describe("submit: outcomes of docs/contract.md §4", () => {
  it.each([
    [1, "Accepted"],
    [2, "Deferred"],
    [3, "Conditional"],
  ])("takes a 200 with Reply %i (%s) as accepted, with the TicketMask and the service's Message", async (reply, word) => {
    const server = await start((_req, res) => json(res, 200, ticket(reply, `${word} by the port team`)));
    expect(await submit(server.url)).toEqual({ kind: "accepted", httpStatus: 200, reply, ticket: "T-1001", message: `${word} by the port team` });
  });

  it.each([0, 4])("takes a 200 with Reply %i as rejected, with the service's Message", async (reply) => {
    const server = await start((_req, res) => json(res, 200, ticket(reply, "PortForm.CustomerName does not match the losing carrier")));
    expect(await submit(server.url)).toEqual({ kind: "rejected", httpStatus: 200, message: "PortForm.CustomerName does not match the losing carrier" });
  });

  it("takes a 422 with an Exception body as rejected, with the Exception's Message", async () => {
    const server = await start((_req, res) => json(res, 422, { ID: "E42", Message: "NumbersToPort: 4165550101 is already being ported" }));
    expect(await submit(server.url)).toEqual({ kind: "rejected", httpStatus: 422, message: "NumbersToPort: 4165550101 is already being ported" });
    expect(server.arrivals).toHaveLength(1);
  });

  it("takes a 400 without an Exception body as rejected, naming the status", async () => {
    const server = await start((_req, res) => {
      res.writeHead(400);
      res.end("<html>bad</html>");
    });
    expect(await submit(server.url)).toEqual({ kind: "rejected", httpStatus: 400, message: "HTTP 400 Bad Request" });
  });

  it.each([401, 403])("takes a %i as auth, naming the user and where to fix the credentials, without retrying", async (status) => {
    const server = await start((_req, res) => json(res, status, { ID: "auth", Message: "Invalid credentials" }));
    const outcome = await submit(server.url);
    expect(outcome).toEqual({
      kind: "auth",
      httpStatus: status,
      message: `the service refused user 'acme' (${status}) (Invalid credentials): check --user/--password or PORTIN_USER/PORTIN_PASSWORD`,
    });
    expect(server.arrivals).toHaveLength(1);
  });

  it("waits the Retry-After of a 429 and then takes the retry's answer", async () => {
    const server = await start((_req, res, _a, i) => (i === 0 ? json(res, 429, {}, { "retry-after": "1" }) : json(res, 200, ticket(1))));
    const outcome = await submit(server.url);
    expect(outcome.kind).toBe("accepted");
    expect(server.arrivals).toHaveLength(2);
    const [first, second] = server.arrivals;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("retries a 503 `retries` times and then reports failed with the number of retries", async () => {
    const server = await start((_req, res) => json(res, 503, { ID: "busy", Message: "maintenance" }));
    const outcome = await submit(server.url, { retries: 3 });
    expect(server.arrivals).toHaveLength(4);
    expect(outcome).toEqual({ kind: "failed", httpStatus: 503, message: "not accepted: HTTP 503 Service Unavailable (maintenance) after 3 retries" });
  });

  it("does not wait for a Retry-After longer than a minute: failed at once", async () => {
    const server = await start((_req, res) => json(res, 429, {}, { "retry-after": "3600" }));
    const outcome = await submit(server.url);
    expect(server.arrivals).toHaveLength(1);
    expect(outcome.kind).toBe("failed");
    expect(outcome.message).toContain("asked to wait 3600 s");
  });

  it.each([500, 502, 504])("sends a POST answered %i once and reports unknown: it may have been accepted", async (status) => {
    const server = await start((_req, res) => json(res, status, { ID: "x", Message: "database down" }));
    const outcome = await submit(server.url);
    expect(server.arrivals).toHaveLength(1);
    expect(outcome.kind).toBe("unknown");
    expect(outcome.httpStatus).toBe(status);
    expect(outcome.message).toContain("database down");
    expect(outcome.message).toContain("--retry-unknown");
  });

  it("retries a refused connection and then reports failed: not sent", async () => {
    const port = await refusedPort();
    expect(await submit(`http://127.0.0.1:${port}`)).toEqual({
      kind: "failed",
      httpStatus: null,
      message: `not sent: connection refused by 127.0.0.1:${port} after 2 retries`,
    });
  });

  it("reports a POST that got no answer within the timeout as unknown, sent once", async () => {
    const server = await start(() => undefined);
    const outcome = await submit(server.url, { timeoutMs: 200 });
    expect(server.arrivals).toHaveLength(1);
    expect(outcome).toEqual({ kind: "unknown", httpStatus: null, message: expect.stringContaining("no answer within 200 ms") as unknown });
  });

  it("reports a connection cut after the body arrived as unknown, sent once", async () => {
    const server = await start((req) => req.socket.destroy());
    const outcome = await submit(server.url);
    expect(server.arrivals).toHaveLength(1);
    expect(outcome.kind).toBe("unknown");
    expect(outcome.message).toContain("connection cut");
  });

  it("reports a 200 that is not a TicketResponse as unknown", async () => {
    const server = await start((_req, res) => json(res, 200, { Status: "OK" }));
    const outcome = await submit(server.url);
    expect(outcome.kind).toBe("unknown");
    expect(outcome.message).toContain("without a TicketResponse");
  });

  it("follows no redirect, so the credentials never reach the other host: the POST failed and is sent again by the next run", async () => {
    const elsewhere = await start((_req, res) => json(res, 200, ticket(1)));
    const server = await start((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v2/NumberPorts/Inbound/DIDs` });
      res.end();
    });
    const outcome = await submit(server.url);
    expect(elsewhere.arrivals).toHaveLength(0);
    expect(outcome.kind).toBe("failed");
    expect(outcome.httpStatus).toBe(302);
    expect(outcome.message).toContain("not followed");
  });

  it("scrubs the credentials from a service message that echoes the Authorization header", async () => {
    const server = await start((req, res) => json(res, 422, { ID: "x", Message: `bad header ${req.headers.authorization ?? ""} for ${PASSWORD}` }));
    const outcome = await submit(server.url);
    expect(outcome).toEqual({ kind: "rejected", httpStatus: 422, message: "bad header Basic *** for ***" });
  });
});

describe("lookups", () => {
  it("reads trunks with lower-case member names and a pilot number given as a string", async () => {
    const server = await start((_req, res) => json(res, 200, [{ number: "4165550000", label: "HQ trunk" }, { NUMBER: 6135550000 }]));
    expect(await clientFor(server.url).trunks()).toEqual([
      { pilotNumber: "4165550000", label: "HQ trunk" },
      { pilotNumber: "6135550000", label: "" },
    ]);
    expect(server.arrivals[0]?.method).toBe("GET");
    expect(server.arrivals[0]?.url).toBe("/SipTrunks");
    expect(server.arrivals[0]?.headers.accept).toBe("application/json");
  });

  it("reads offerings whose Type is a numeric string and whose ProductName is a string or {En, Fr}", async () => {
    const server = await start((_req, res) =>
      json(res, 200, [
        { OfferingID: "OFF-1", Type: "3", ProductName: { En: "Home line", Fr: "Ligne résidentielle" } },
        { offeringid: "OFF-2", type: 4, productname: "Business line" },
        { OfferingID: "OFF-3", Type: 7, ProductName: { Fr: "Télécopie" } },
      ]),
    );
    expect(await clientFor(server.url).offerings()).toEqual([
      { offeringId: "OFF-1", type: 3, name: "Home line" },
      { offeringId: "OFF-2", type: 4, name: "Business line" },
      { offeringId: "OFF-3", type: 7, name: "Télécopie" },
    ]);
  });

  it("reads providers whose ID is a numeric string", async () => {
    const server = await start((_req, res) => json(res, 200, [{ id: "17", name: "Bell Canada" }]));
    expect(await clientFor(server.url).providers()).toEqual([{ id: 17, name: "Bell Canada" }]);
    expect(server.arrivals[0]?.url).toBe("/NumberPorts/Providers");
  });

  it("refuses an offerings answer that is an object instead of a list, naming the lookup", async () => {
    const server = await start((_req, res) => json(res, 200, { OfferingID: "OFF-1", Type: 3 }));
    const error = await failure(clientFor(server.url).offerings());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toMatch(/^GET \/Products\/TelephoneOfferings did not answer a list of telephone offerings: /);
  });

  it("refuses an offerings list with a missing Type, naming the item and the member", async () => {
    const server = await start((_req, res) => json(res, 200, [{ OfferingID: "OFF-1", Type: 3 }, { OfferingID: "OFF-2" }]));
    const error = await failure(clientFor(server.url).offerings());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toMatch(/^GET \/Products\/TelephoneOfferings did not answer a list of telephone offerings: 1\.type: /);
  });

  it("refuses an answer that is not JSON, quoting its start", async () => {
    const server = await start((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Login</body></html>");
    });
    const error = await failure(clientFor(server.url).trunks());
    expect(error.message).toBe('GET /SipTrunks did not answer JSON (it began "<html><body>Login</body></html>"); check --base-url');
  });

  it("retries a lookup answered 500, then fails naming the lookup, the status and the service's message", async () => {
    const server = await start((_req, res) => json(res, 500, { ID: "x", Message: "boom" }));
    const error = await failure(clientFor(server.url).trunks());
    expect(server.arrivals).toHaveLength(3);
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toBe("GET /SipTrunks answered 500 Internal Server Error: boom; try again later");
  });

  it("retries a lookup that timed out", async () => {
    const server = await start((_req, res, _a, i) => (i === 0 ? undefined : json(res, 200, [])));
    expect(await clientFor(server.url, { timeoutMs: 200 }).trunks()).toEqual([]);
    expect(server.arrivals).toHaveLength(2);
  });

  it("turns a 401 on a lookup into an AuthError naming the user and where to fix it", async () => {
    const server = await start((_req, res) => json(res, 401, {}));
    const error = await failure(clientFor(server.url).providers());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe("the service refused user 'acme' (401): check --user/--password or PORTIN_USER/PORTIN_PASSWORD");
    expect(server.arrivals).toHaveLength(1);
  });

  it("fails a lookup on a redirect without following it", async () => {
    const elsewhere = await start((_req, res) => json(res, 200, []));
    const server = await start((_req, res) => {
      res.writeHead(301, { location: `${elsewhere.url}/SipTrunks` });
      res.end();
    });
    const error = await failure(clientFor(server.url).trunks());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toContain("answered 301 Moved Permanently (redirect to");
    expect(elsewhere.arrivals).toHaveLength(0);
  });

  it("fails a lookup it cannot connect for, naming the base URL", async () => {
    const port = await refusedPort();
    const error = await failure(clientFor(`http://127.0.0.1:${port}/rest.svc`).trunks());
    expect(error).toBeInstanceOf(LookupError);
    expect(error.message).toBe(
      `GET /SipTrunks could not reach http://127.0.0.1:${port}/rest.svc: connection refused by 127.0.0.1:${port} after 2 retries; check --base-url and that the service is up`,
    );
  });

  it("reads a number's port-in status, and null for a 404", async () => {
    const server = await start((req, res) =>
      req.url?.includes("4165550101")
        ? json(res, 200, { TicketId: 88, Status: "SUBMITTED", PortDate: "2025-07-01" })
        : json(res, 404, { ID: "404", Message: "no port-in" }),
    );
    const client = clientFor(server.url);
    expect(await client.portInStatus("4165550101")).toEqual({ ticketId: "88", status: "SUBMITTED", portDate: "2025-07-01", rejectReason: "", rejectSummary: "", rejectDetails: [], numbersToPort: [], accountNumber: "", endUserName: "" });
    expect(await client.portInStatus("4165550199")).toBeNull();
    expect(server.arrivals.map((a) => a.url)).toEqual([
      "/v2/NumberPorts/Inbound/Numbers/4165550101/PortInStatus",
      "/v2/NumberPorts/Inbound/Numbers/4165550199/PortInStatus",
    ]);
  });
});

describe("base URL", () => {
  it("refuses plain http to a host other than loopback, as a usage error (exit 2)", () => {
    const attempt = () => clientFor("http://api.example.com/rest.svc");
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow("--base-url 'http://api.example.com/rest.svc' is plain http to api.example.com, which would send the password unencrypted: use https:// or pass --allow-insecure-http");
    expect(() => clientFor("http://10.0.0.1")).toThrow(UsageError);
  });

  it("allows plain http to a non-loopback host with allowInsecureHttp", () => {
    expect(() => clientFor("http://api.example.com/rest.svc", { allowInsecureHttp: true })).not.toThrow();
  });

  it.each(["http://127.0.0.1:4010", "http://127.8.9.10", "http://localhost:4010/rest.svc", "http://[::1]:4010", "https://api.thinktel.ca/rest.svc"])(
    "accepts %s without --allow-insecure-http",
    (url) => {
      expect(() => clientFor(url)).not.toThrow();
    },
  );

  it("refuses a base URL that carries credentials, without echoing them", () => {
    let caught: unknown;
    try {
      clientFor(`https://acme:${PASSWORD}@api.thinktel.ca/rest.svc`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expectNoSecret(caught);
  });

  it("refuses something that is not an http(s) URL", () => {
    expect(() => clientFor("api.thinktel.ca")).toThrow("--base-url 'api.thinktel.ca' is not a URL");
    expect(() => clientFor("ftp://api.thinktel.ca")).toThrow(UsageError);
  });
});
