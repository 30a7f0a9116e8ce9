/**
 * The client's status and portability methods (docs/contract.md §1.4): what the service is
 * sent, and how tolerantly its answers are read.
 */
import { describe, expect, it } from "vitest";
import { AuthError, LookupError } from "../../src/errors.js";
import { createClient } from "../../src/service/client.js";
import { json, serversClosedAfterEach } from "./http-server.js";

const start = serversClosedAfterEach();

function clientFor(baseUrl: string) {
  return createClient({ baseUrl, user: "acme", password: "Tr0ub4dor-s3cret", timeoutMs: 2_000, retries: 2, allowInsecureHttp: false, userAgent: "portin/test", backoffLimitMs: 20 });
}

describe("ticketStatus", () => {
  it("GETs the ticket's PortInStatus, its id escaped, and reads details and numbers tolerantly", async () => {
    const server = await start((_req, res) =>
      json(res, 200, {
        ticketid: 4711,
        STATUS: "REJECTED",
        PortDate: null,
        RejectReason: "End user name mismatch",
        RejectSummary: "Rejected by the losing carrier",
        RejectDetails: [{ "rjct code": "6P", "FLD ABBR": "NAME", "RJCT REMARKS": "NAME DOES NOT MATCH CSR", REMARKS: "" }, "not an object", { "RJCT CODE": 17 }],
        NumbersToPort: [4165550101, "14165550102", "junk"],
        Disputing: false,
      }),
    );
    const status = await clientFor(server.url).ticketStatus("PI/0001 A");
    expect(server.arrivals.map((a) => `${a.method} ${a.url}`)).toEqual(["GET /v2/NumberPorts/Inbound/Tickets/PI%2F0001%20A/PortInStatus"]);
    expect(status).toEqual({
      ticketId: "4711",
      status: "REJECTED",
      portDate: "",
      rejectReason: "End user name mismatch",
      rejectSummary: "Rejected by the losing carrier",
      rejectDetails: [
        { code: "6P", field: "NAME", remarks: "NAME DOES NOT MATCH CSR", note: "" },
        { code: "17", field: "", remarks: "", note: "" },
      ],
      numbersToPort: ["4165550101", "4165550102"],
      accountNumber: "",
      endUserName: "",
    });
  });

  it("reads a 404 as no such ticket, and stops on 401", async () => {
    const missing = await start((_req, res) => json(res, 404, { ID: "NotFound", Message: "no ticket" }));
    expect(await clientFor(missing.url).ticketStatus("PI-1")).toBeNull();
    const refused = await start((_req, res) => json(res, 401, { ID: "Unauthorized", Message: "no" }));
    await expect(clientFor(refused.url).ticketStatus("PI-1")).rejects.toBeInstanceOf(AuthError);
  });

  it("retries a 500 like every GET, then fails naming the path", async () => {
    const server = await start((_req, res) => json(res, 500, { ID: "Oops", Message: "down" }));
    await expect(clientFor(server.url).ticketStatus("PI-1")).rejects.toThrow(new LookupError("GET /v2/NumberPorts/Inbound/Tickets/PI-1/PortInStatus answered 500 Internal Server Error: down; try again later"));
    expect(server.arrivals).toHaveLength(3);
  });
});

describe("portableNpaNxx", () => {
  it("reads 6-digit integers and digit strings", async () => {
    const server = await start((_req, res) => json(res, 200, [416555, "647555"]));
    expect(await clientFor(server.url).portableNpaNxx()).toEqual([416555, 647555]);
    expect(server.arrivals.map((a) => `${a.method} ${a.url}`)).toEqual(["GET /NumberPorts/LNP/NPANXX"]);
  });

  it("refuses a list holding something that is not an NPA-NXX", async () => {
    const server = await start((_req, res) => json(res, 200, [416555, 4165]));
    await expect(clientFor(server.url).portableNpaNxx()).rejects.toThrow(/^GET \/NumberPorts\/LNP\/NPANXX did not answer a list of NPA-NXX prefixes: /);
  });
});

describe("checkNpaNxx", () => {
  it("POSTs the NPA-NXX as a JSON string and reads Reply 1 as portable", async () => {
    const server = await start((_req, res) => json(res, 200, { number: "613555", REPLY: "0", Message: "not portable" }));
    expect(await clientFor(server.url).checkNpaNxx("613555")).toEqual({ portable: false, message: "not portable" });
    const [arrival] = server.arrivals;
    expect(arrival).toMatchObject({ method: "POST", url: "/NumberPorts/LNP/NPANXX/Check", body: '"613555"' });
    expect(arrival?.headers["content-type"]).toBe("application/json");
  });

  it("retries a 500 like a lookup, since a Check changes nothing, and names the POST when it gives up", async () => {
    const server = await start((_req, res) => json(res, 502, {}));
    await expect(clientFor(server.url).checkNpaNxx("613555")).rejects.toThrow(/^POST \/NumberPorts\/LNP\/NPANXX\/Check answered 502 Bad Gateway; try again later$/);
    expect(server.arrivals).toHaveLength(3);
  });
});
