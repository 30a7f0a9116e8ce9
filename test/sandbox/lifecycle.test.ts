/**
 * The sandbox lives a port-in's days (docs/contract.md §2, "The sandbox's port-ins"): orders
 * are confirmed with a port date, or rejected by the losing carrier, a business day later, and
 * complete on their port date; its calendar is moved on by tests and by `POST /_sandbox/clock`.
 * Its two portability endpoints answer from the account file.
 */
import { afterEach, describe, expect, test } from "vitest";
import { operationById } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import { NPANXX_CHECK_PATH, NPANXX_PATH, portInStatusPath, ticketStatusPath } from "../../src/service/answers.js";
import { buildBody } from "../../src/service/body.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { PORT_FORM } from "../support/port-form.js";

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** 2026-03-02 is a Monday: the carrier answers on Tuesday (day 1) and ports on Thursday (day 3). */
const MONDAY = "2026-03-02";

async function sandboxWith(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ startDate: MONDAY, rejectRate: 0, seed: 7, ...options });
  running.push(sandbox);
  return sandbox;
}

const auth = (s: RunningSandbox): string => `Basic ${Buffer.from(`${s.user}:${s.password}`).toString("base64")}`;

async function get(s: RunningSandbox, path: string, withAuth = true): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(s.url + path, { headers: withAuth ? { Authorization: auth(s) } : {} });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function post(s: RunningSandbox, path: string, body: unknown, contentType = "application/json"): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(s.url + path, { method: "POST", headers: { Authorization: auth(s), "Content-Type": contentType }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

function didsBody(numbers: readonly string[], form: Members = PORT_FORM): Record<string, unknown> {
  const operation = operationById("dids");
  if (!operation) throw new Error("no dids operation");
  return buildBody({ operation, target: "4165550100", portForm: form, request: {}, numbers: numbers.map((number) => ({ number, item: {} })) });
}

async function order(s: RunningSandbox, numbers: readonly string[], form: Members = PORT_FORM): Promise<Record<string, unknown>> {
  return (await post(s, operationById("dids")!.path, didsBody(numbers, form))).json;
}

describe("an accepted order's days", () => {
  test("is SUBMITTED, then CONFIRMED with a port date two business days on, then COMPLETED on that date", async () => {
    const s = await sandboxWith();
    expect(await order(s, ["4165552000", "4165552001"])).toMatchObject({ Reply: 1, TicketMask: "PI-000001" });

    const submitted = await get(s, ticketStatusPath("PI-000001"));
    expect(submitted).toEqual({
      status: 200,
      json: {
        TicketId: "PI-000001",
        Status: "SUBMITTED",
        PortDate: "",
        RejectReason: "",
        RejectSummary: "",
        RejectDetails: [],
        NumbersToPort: [4165552000, 4165552001],
        AccountNumber: "ACME-001",
        EndUserName: "Acme Widgets Inc.",
        Reseller: null,
        Disputing: false,
        ValidationLSC: null,
      },
    });

    s.advanceDays(1);
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "CONFIRMED", PortDate: "2026-03-05" });
    // By number: the same order.
    expect((await get(s, portInStatusPath("4165552001"))).json).toMatchObject({ TicketId: "PI-000001", Status: "CONFIRMED", PortDate: "2026-03-05" });
    s.advanceDays(1);
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "CONFIRMED" });
    s.advanceDays(1);
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "COMPLETED", PortDate: "2026-03-05" });
  });

  test("skips the weekend: an order of Friday is answered on Monday", async () => {
    const s = await sandboxWith({ startDate: "2026-03-06" });
    await order(s, ["4165552000"]);
    s.advanceDays(2);
    expect((await get(s, ticketStatusPath("PI-000001"))).json["Status"]).toBe("SUBMITTED");
    s.advanceDays(1);
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "CONFIRMED", PortDate: "2026-03-11" });
  });

  test("keeps the customer's requested port date when it is later than the carrier's earliest", async () => {
    const s = await sandboxWith();
    await order(s, ["4165552000"], { ...PORT_FORM, RequestedPortDate: "2026-03-20" });
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "SUBMITTED", PortDate: "2026-03-20" });
    s.advanceDays(1);
    expect((await get(s, ticketStatusPath("PI-000001"))).json).toMatchObject({ Status: "CONFIRMED", PortDate: "2026-03-20" });
  });

  test("holds the numbers of a live order and of a completed one", async () => {
    const s = await sandboxWith();
    await order(s, ["4165552000"]);
    expect(await order(s, ["4165552000"])).toMatchObject({ Reply: 0, Message: "4165552000 already has a pending port-in (ticket PI-000001)" });
    s.advanceDays(3);
    expect(await order(s, ["4165552000"])).toMatchObject({ Reply: 0, Message: "4165552000 was already ported in (ticket PI-000001)" });
  });

  test("moves on with real time at --day-seconds", async () => {
    const s = await sandboxWith({ daySeconds: 1 });
    await order(s, ["4165552000"]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(s, ticketStatusPath("PI-000001"))).json["Status"]).toBe("CONFIRMED");
  });
});

describe("the losing carrier's rejections", () => {
  test("rejects an order a business day later with a reason, a summary and reject details naming the field", async () => {
    const s = await sandboxWith({ rejectRate: 1 });
    await order(s, ["4165552000", "4165552001", "4165552002"]);
    expect((await get(s, ticketStatusPath("PI-000001"))).json["Status"]).toBe("SUBMITTED");
    s.advanceDays(1);
    const { json } = await get(s, ticketStatusPath("PI-000001"));
    expect(json).toMatchObject({ TicketId: "PI-000001", Status: "REJECTED", PortDate: "", NumbersToPort: [4165552000, 4165552001, 4165552002] });
    expect(json["RejectReason"]).toMatch(/does not match/);
    expect(json["RejectSummary"]).toMatch(/^Rejected by the losing carrier \(Bell Canada\) on 2026-03-03: correct .+ and submit the numbers again$/);
    const [detail] = json["RejectDetails"] as Record<string, string>[];
    expect(Object.keys(detail!)).toEqual(["RJCT CODE", "RJCT REMARKS", "FLD ABBR", "FORM", "PORTED #", "PORTED # RANGE", "DISC #", "DISC # RANGE", "REMARKS"]);
    expect(detail!["RJCT CODE"]).toMatch(/^\w{2}$/);
    expect(detail!["FLD ABBR"]).toMatch(/^[A-Z]+$/);
    expect(detail!["PORTED # RANGE"]).toBe("4165552000-4165552002");
  });

  test("frees a rejected order's numbers; the same order is rejected again, and ports once the disputed field is corrected", async () => {
    const s = await sandboxWith({ rejectRate: 1 });
    await order(s, ["4165552000"]);
    s.advanceDays(1);
    const first = (await get(s, portInStatusPath("4165552000"))).json;
    const field = (first["RejectDetails"] as Record<string, string>[])[0]!["FLD ABBR"];
    const member = { NAME: "CustomerName", AN: "CustomerAccountNumber", SANO: "CustomerStreetNumber", ZIP: "CustomerPostalCode" }[field!]!;

    expect(await order(s, ["4165552000"])).toMatchObject({ Reply: 1, TicketMask: "PI-000002" });
    s.advanceDays(1);
    expect((await get(s, portInStatusPath("4165552000"))).json).toMatchObject({ TicketId: "PI-000002", Status: "REJECTED", RejectReason: first["RejectReason"] });

    expect(await order(s, ["4165552000"], { ...PORT_FORM, [member]: "Corrected 1" })).toMatchObject({ Reply: 1, TicketMask: "PI-000003" });
    s.advanceDays(1);
    expect((await get(s, portInStatusPath("4165552000"))).json).toMatchObject({ TicketId: "PI-000003", Status: "CONFIRMED" });
    // The old ticket keeps its own story.
    expect((await get(s, ticketStatusPath("PI-000001"))).json["Status"]).toBe("REJECTED");
  });

  test("rejects the same orders for the same seed, and about the share asked for", async () => {
    const fates = async (): Promise<string[]> => {
      const s = await sandboxWith({ rejectRate: 0.5, seed: 42 });
      for (let i = 0; i < 40; i++) await order(s, [`416555${3000 + i}`]);
      s.advanceDays(1);
      const statuses: string[] = [];
      for (let i = 1; i <= 40; i++) statuses.push(String((await get(s, ticketStatusPath(`PI-${String(i).padStart(6, "0")}`))).json["Status"]));
      return statuses;
    };
    const once = await fates();
    expect(await fates()).toEqual(once);
    const rejected = once.filter((status) => status === "REJECTED").length;
    expect(rejected).toBeGreaterThan(10);
    expect(rejected).toBeLessThan(30);
  });
});

describe("the ticket PortInStatus", () => {
  test("answers 404 with an Exception for an unknown ticket, and needs credentials", async () => {
    const s = await sandboxWith();
    expect(await get(s, ticketStatusPath("PI-999999"))).toEqual({ status: 404, json: { ID: "NotFound", Message: "there is no port-in ticket PI-999999" } });
    await order(s, ["4165552000"]);
    expect((await get(s, ticketStatusPath("PI-000001"), false)).status).toBe(401);
  });
});

describe("the sandbox's calendar", () => {
  test("is read with GET /_sandbox/clock and moved on with POST {advanceDays}, without credentials", async () => {
    const s = await sandboxWith();
    expect((await fetch(`${s.url}/_sandbox/clock`)).status).toBe(200);
    const moved = await fetch(`${s.url}/_sandbox/clock`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"advanceDays": 3}' });
    expect(await moved.json()).toEqual({ today: "2026-03-05", day: 3, daySeconds: 0 });
    expect(await (await fetch(`${s.url}/_sandbox/clock`)).json()).toEqual({ today: "2026-03-05", day: 3, daySeconds: 0 });
    expect(s.received()).toEqual([]);
  });

  test("refuses anything but a whole number of days", async () => {
    const s = await sandboxWith();
    for (const body of ['{"advanceDays": -1}', '{"advanceDays": 1.5}', '{"days": 1}', '"1"']) {
      const res = await fetch(`${s.url}/_sandbox/clock`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(res.status).toBe(400);
    }
    expect(await (await fetch(`${s.url}/_sandbox/clock`)).json()).toMatchObject({ day: 0 });
  });
});

describe("portability", () => {
  test("lists every NPA-NXX of its area codes but the account's non-portable ones, as 6-digit integers", async () => {
    const s = await sandboxWith();
    const { status, json } = await get(s, NPANXX_PATH);
    expect(status).toBe(200);
    const list = json as unknown as number[];
    expect(list).toContain(416555);
    expect(list).toContain(800555);
    expect(list).not.toContain(613555);
    expect(list).not.toContain(867555);
    expect(list.every((n) => Number.isInteger(n) && n >= 200200 && n <= 999999)).toBe(true);
  });

  test("checks an NPA-NXX or a whole number given as a JSON string", async () => {
    const s = await sandboxWith();
    expect(await post(s, NPANXX_CHECK_PATH, "613555")).toEqual({ status: 200, json: { Number: "613555", Reply: 0, Message: "NPA-NXX 613-555 is not portable to this service" } });
    expect(await post(s, NPANXX_CHECK_PATH, "4165550101")).toEqual({ status: 200, json: { Number: "4165550101", Reply: 1, Message: "NPA-NXX 416-555 is portable to this service" } });
  });

  test("refuses a Check whose body is not a JSON string of digits, or not sent as JSON", async () => {
    const s = await sandboxWith();
    expect((await post(s, NPANXX_CHECK_PATH, 613555)).status).toBe(400);
    expect((await post(s, NPANXX_CHECK_PATH, { Number: "613555" })).status).toBe(400);
    expect((await post(s, NPANXX_CHECK_PATH, "61355")).status).toBe(400);
    expect((await post(s, NPANXX_CHECK_PATH, "613555", "text/plain")).status).toBe(415);
    expect((await get(s, NPANXX_PATH, false)).status).toBe(401);
  });

  test("rejects a port-in of a number in a non-portable NPA-NXX with Reply 0", async () => {
    const s = await sandboxWith();
    expect(await order(s, ["4165552000", "6135550150"])).toEqual({
      TicketMask: "",
      Reply: 0,
      Message: "6135550150 is not portable: the service does not port in NPA-NXX 613-555",
    });
    expect(s.accepted()).toEqual([]);
  });
});
