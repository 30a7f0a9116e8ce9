/**
 * SPEC sends an item's password members (SipPassword, WebSelfCarePassword) to the service and
 * nowhere else: a service that quotes the body back must not carry them into the results, the
 * journal or the terminal (docs/security.md).
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/service/client.js";
import { passwordValuesIn, valuesScrubber } from "../../src/service/exchange.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { json, serversClosedAfterEach } from "./http-server.js";

const start = serversClosedAfterEach();
const DIDS = operationById("dids") as Operation;

function body(passwords: readonly string[]): Record<string, unknown> {
  const numbers = passwords.map((_, i) => 4165551230 + i);
  return {
    PortForm: { CustomerName: "Acme", NumbersToPort: numbers },
    PilotNumber: 4165550100,
    DIDs: numbers.map((Number, i) => ({ Number, SipPassword: passwords[i], WebSelfCarePassword: `web-${passwords[i] ?? ""}-portal` })),
  };
}

describe("item passwords in the service's answers", () => {
  it("finds every password member of a body, at any depth, and nothing else", () => {
    expect(passwordValuesIn(body(["Sip-One-Long-Secret", "1234"]))).toEqual(["Sip-One-Long-Secret", "web-Sip-One-Long-Secret-portal", "1234", "web-1234-portal"]);
    expect(passwordValuesIn({ Lines: [{ Number: { Number: 4165550101 }, Label: "password" }] })).toEqual([]);
  });

  it("scrubs a long secret anywhere and a short one only where it stands alone", () => {
    const scrub = valuesScrubber(["Sip-One-Long-Secret", "1234"]);
    expect(scrub("xSip-One-Long-Secretx 1234 on 4165551234, ticket PI-001234")).toBe("x***x *** on 4165551234, ticket PI-001234");
  });

  it.each([
    [422, { ID: "x", Message: "" }, "rejected"],
    [500, { ID: "x", Message: "" }, "unknown"],
    [200, { TicketMask: "", Reply: 1, Message: "" }, "accepted"],
  ] as const)("keeps the request's item passwords out of a %i answer that quotes the body", async (status, shape, kind) => {
    const server = await start((_req, res, arrival) => json(res, status, { ...shape, Message: `you sent ${arrival.body}`, ...(status === 200 ? { TicketMask: `T-${arrival.body.slice(-60)}` } : {}) }));
    const client = createClient({ baseUrl: server.url, user: "acme", password: "pw-item-secrets", timeoutMs: 2_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });
    const outcome = await client.submit(DIDS, body(["Sip-One-Long-Secret", "1234"]));
    expect(outcome.kind).toBe(kind);
    const seen = JSON.stringify(outcome);
    expect(seen).toContain('\\"SipPassword\\":\\"***\\"');
    expect(seen).not.toContain("Sip-One-Long-Secret");
    expect(seen).not.toMatch(/[^0-9]1234[^0-9]/);
    // What the service received is the body as SPEC has it, passwords included.
    expect(server.arrivals[0]?.body).toContain('"SipPassword":"Sip-One-Long-Secret"');
  });
});
