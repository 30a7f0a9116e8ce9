/** GET /Holidays (docs/contract.md §1.1), read tolerantly like the other lookups, and refused when it is not a list of days. */
import { describe, expect, it } from "vitest";
import { LookupError } from "../../src/errors.js";
import { createClient } from "../../src/service/client.js";
import { json, serversClosedAfterEach } from "./http-server.js";

const start = serversClosedAfterEach();

const clientFor = (baseUrl: string) =>
  createClient({ baseUrl, user: "acme", password: "pw", timeoutMs: 2_000, retries: 0, allowInsecureHttp: false, userAgent: "portin/test" });

describe("the service's holidays", () => {
  it("reads the days as the service writes them, any member case, with or without a time, the name optional", async () => {
    const server = await start((_req, res) =>
      json(res, 200, [
        { Date: "2026-12-25T00:00:00", Name: "Christmas Day" },
        { date: "2026-12-28", name: "Boxing Day (observed)" },
        { DATE: "2027-01-01T00:00:00-05:00" },
      ]),
    );
    expect(await clientFor(server.url).holidays()).toEqual([
      { date: "2026-12-25", name: "Christmas Day" },
      { date: "2026-12-28", name: "Boxing Day (observed)" },
      { date: "2027-01-01", name: "" },
    ]);
    expect(server.arrivals.map((a) => `${a.method} ${a.url}`)).toEqual(["GET /Holidays"]);
  });

  it("refuses an answer that is not a list of days, naming the lookup", async () => {
    const server = await start((_req, res) => json(res, 200, [{ Date: "Christmas", Name: "Christmas Day" }]));
    const error = await clientFor(server.url).holidays().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupError);
    expect((error as Error).message).toMatch(/^GET \/Holidays did not answer a list of holidays: .*is not a date such as 2026-12-25T00:00:00/);
  });
});
