/**
 * The sandbox's faults of the account's truth (docs/contract.md §2, the sandbox): an order
 * list that is down, and a PortInStatus that lags the order list, so that a client can be
 * tested against a service whose two views of an order disagree for a while.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { portInStatusPath, ticketStatusPath } from "../../src/service/answers.js";
import { defaultAccountFile, loadAccount } from "../../src/sandbox/account.js";
import { Carrier } from "../../src/sandbox/carrier.js";
import { SandboxClock } from "../../src/sandbox/clock.js";
import { Ledger } from "../../src/sandbox/ledger.js";
import { ORDER_LIST_PATH } from "../../src/sandbox/order-list.js";
import { mulberry32 } from "../../src/sandbox/prng.js";
import { didsBody, get, MONDAY, orderDids, post, sandboxWith } from "./sandbox-http.js";

const HOUR = 3600;

describe("--order-list-down", () => {
  test("answers the order list with a 500 and an Exception body, while every other route answers", async () => {
    const s = await sandboxWith({ orderListDown: true });
    expect((await orderDids(s, ["4165552000"])).json).toMatchObject({ Reply: 1, TicketMask: "PI-000001" });
    expect(await get(s, ORDER_LIST_PATH)).toEqual({ status: 500, json: { ID: "InternalServerError", Message: "the port-in dashboard is unavailable" } });
    expect(await get(s, portInStatusPath("4165552000"))).toMatchObject({ status: 200, json: { TicketId: "PI-000001" } });
    s.setOrderListDown(false);
    expect(await get(s, ORDER_LIST_PATH)).toMatchObject({ status: 200, json: { Orders: [{ OrderID: 50001 }] } });
  });

  test("still asks for credentials first, as the service would", async () => {
    const s = await sandboxWith({ orderListDown: true });
    expect(await get(s, ORDER_LIST_PATH, false)).toMatchObject({ status: 401 });
  });
});

describe("--status-lag", () => {
  test("keeps an accepted order out of PortInStatus while the order list shows it and its numbers stay held", async () => {
    const s = await sandboxWith({ statusLagSeconds: HOUR });
    expect((await orderDids(s, ["4165552000", "4165552001"])).json).toMatchObject({ Reply: 1, TicketMask: "PI-000001" });
    expect(await get(s, ORDER_LIST_PATH)).toMatchObject({ json: { Orders: [{ Requests: [{ Assessment: "Pending", NumberToPort: [{ TnRange: "4165552000-2001" }] }] }] } });
    expect(await get(s, portInStatusPath("4165552000"))).toMatchObject({ status: 404, json: { ID: "NotFound" } });
    expect(await get(s, ticketStatusPath("PI-000001"))).toMatchObject({ status: 404, json: { ID: "NotFound" } });
    expect((await orderDids(s, ["4165552001"])).json).toMatchObject({ Reply: 0, Message: "4165552001 already has a pending port-in (ticket PI-000001)" });
  });

  test("lags orders placed on a running sandbox too, but not the account file's, which were there before it started", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "portin-lag-")), "account.json");
    writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(defaultAccountFile(), "utf8")) as object), orders: [{ numbers: ["4165550301"] }] }));
    const s = await sandboxWith({ statusLagSeconds: HOUR, accountFile: file });
    expect(await post(s, "/_sandbox/orders", { numbers: ["6475550400"] }, false)).toMatchObject({ status: 200, json: { TicketMask: "PI-P00002" } });
    expect(await get(s, portInStatusPath("6475550400"))).toMatchObject({ status: 404 });
    expect(await get(s, ticketStatusPath("PI-P00002"))).toMatchObject({ status: 404 });
    expect(await get(s, portInStatusPath("4165550301"))).toMatchObject({ status: 200, json: { TicketId: "PI-P00001" } });
  });

  test("lets PortInStatus show an order once the lag has passed, by number and by ticket, the latest visible order first", () => {
    let now = 1_000_000;
    const clock = new SandboxClock({ startDate: MONDAY });
    const account = loadAccount();
    const carrier = new Carrier({ clock, random: mulberry32(7), rejectRate: 1, providers: new Map() });
    const ledger = new Ledger(account, { clock, carrier, statusLagMs: 30_000, now: () => now });
    const body = didsBody(["4165552000"]);
    ledger.accept("dids", "/v2/NumberPorts/Inbound/DIDs", ["4165552000"], body);
    expect(ledger.status("4165552000")).toBeUndefined();
    expect(ledger.ticketStatus("PI-000001")).toBeUndefined();
    now += 29_999;
    expect(ledger.status("4165552000")).toBeUndefined();
    now += 1;
    expect(ledger.status("4165552000")).toMatchObject({ TicketId: "PI-000001", Status: "SUBMITTED" });
    // Rejected the next business day, the number is free; its new order lags, and the old one is what PortInStatus knows.
    clock.advance(1);
    expect(ledger.refusals(["4165552000"])).toEqual([]);
    ledger.accept("dids", "/v2/NumberPorts/Inbound/DIDs", ["4165552000"], body);
    expect(ledger.status("4165552000")).toMatchObject({ TicketId: "PI-000001", Status: "REJECTED" });
    expect(ledger.ticketStatus("PI-000002")).toBeUndefined();
    now += 30_000;
    expect(ledger.status("4165552000")).toMatchObject({ TicketId: "PI-000002" });
    expect(ledger.ticketStatus("PI-000002")).toMatchObject({ TicketId: "PI-000002" });
  });
});
