/**
 * Orders placed in the web portal (docs/contract.md §2, the sandbox): from the account
 * file's `orders` and from POST /_sandbox/orders. The account holds them like any order:
 * they answer PortInStatus, appear in the order list, and a POST of their numbers is refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { UsageError } from "../../src/errors.js";
import { portInStatusPath, ticketStatusPath } from "../../src/service/answers.js";
import { ORDER_LIST_PATH } from "../../src/sandbox/order-list.js";
import { defaultAccountFile } from "../../src/sandbox/account.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { get, orderDids, post, sandboxWith } from "./sandbox-http.js";

const dir = mkdtempSync(join(tmpdir(), "portin-portal-"));
const FIXTURE = JSON.parse(readFileSync(defaultAccountFile(), "utf8")) as Record<string, unknown>;

/** The fixture account with these portal orders. */
function accountWith(orders: unknown[], name = "account.json"): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ ...FIXTURE, orders }));
  return file;
}

const PORTAL_ORDERS_PATH = "/_sandbox/orders";

describe("portal orders in the account file", () => {
  test("answer PortInStatus by number and by ticket, given or generated, SUBMITTED unless the file says otherwise", async () => {
    const s = await sandboxWith({
      accountFile: accountWith([{ numbers: ["4165550301", "4165550100-0102"] }, { numbers: ["6475550400"], status: "CONFIRMED", ticket: "PI-P00777" }]),
    });
    expect(await get(s, portInStatusPath("4165550101"))).toMatchObject({
      status: 200,
      json: { TicketId: "PI-P00001", Status: "SUBMITTED", NumbersToPort: [4165550301, 4165550100, 4165550101, 4165550102] },
    });
    expect(await get(s, ticketStatusPath("PI-P00001"))).toMatchObject({ status: 200, json: { TicketId: "PI-P00001", Status: "SUBMITTED" } });
    expect(await get(s, portInStatusPath("6475550400"))).toMatchObject({ status: 200, json: { TicketId: "PI-P00777", Status: "CONFIRMED" } });
    // A portal order keeps its status: the sandbox's carriers never saw it.
    s.advanceDays(10);
    expect(await get(s, ticketStatusPath("PI-P00001"))).toMatchObject({ json: { Status: "SUBMITTED" } });
  });

  test("appear in the order list, open or Closed, beside the orders the sandbox was sent", async () => {
    const s = await sandboxWith({
      accountFile: accountWith([{ numbers: ["4165550100-0199", "4165550301"] }, { numbers: ["6475550400"], status: "COMPLETED" }, { numbers: ["6475550500"], status: "CANCELLED" }]),
    });
    await orderDids(s, ["4165552000"]);
    const { json } = await get(s, ORDER_LIST_PATH);
    const orders = (json as { Orders: { OrderID: number; Requests: { Assessment: string; NewService: string; NumberToPort: { TnRange: string }[] }[] }[] }).Orders;
    expect(orders.map((o) => [o.OrderID, o.Requests[0]?.Assessment, o.Requests[0]?.NewService, o.Requests[0]?.NumberToPort.map((n) => n.TnRange)])).toEqual([
      [50001, "Pending", "portal", ["4165550100-0199", "4165550301"]],
      [50002, "Closed", "portal", ["6475550400"]],
      [50003, "Closed", "portal", ["6475550500"]],
      [50004, "Pending", "dids", ["4165552000"]],
    ]);
  });

  test("hold their numbers: a POST of one is refused as a pending port-in, of a completed one as ported in; a cancelled one's are free", async () => {
    const s = await sandboxWith({
      accountFile: accountWith([{ numbers: ["4165550301"], ticket: "PI-P00042" }, { numbers: ["6475550400"], status: "COMPLETED" }, { numbers: ["6475550500"], status: "CANCELLED" }]),
    });
    expect((await orderDids(s, ["4165550301", "4165552000"])).json).toMatchObject({
      Reply: 0,
      TicketMask: "",
      Message: "4165550301 already has a pending port-in (ticket PI-P00042)",
    });
    expect((await orderDids(s, ["6475550400"])).json).toMatchObject({ Reply: 0, Message: "6475550400 was already ported in (ticket PI-P00002)" });
    expect((await orderDids(s, ["6475550500"])).json).toMatchObject({ Reply: 1, TicketMask: "PI-000001" });
    expect(s.accepted().map((r) => r.numbers)).toEqual([["6475550500"]]);
  });

  test("make the file invalid when they are malformed or another order holds their numbers, every problem named by its path", async () => {
    const malformed = accountWith(
      [{ numbers: ["4165550199-0100", "41655503"] }, { numbers: [], status: "OPEN" }, { numbers: ["4165550301", "4165550300-0301"], ticket: "PI-000001" }],
      "malformed.json",
    );
    const problem = await startSandbox({ accountFile: malformed }).catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(UsageError);
    const message = (problem as UsageError).message;
    expect(message).toContain("orders.0.numbers.0: the range '4165550199-0100' ends before it starts");
    expect(message).toContain("orders.0.numbers.1: '41655503' is neither a 10-digit NANP number nor a range");
    expect(message).toContain("orders.1.numbers: must name at least one number");
    expect(message).toContain("orders.1.status:");
    expect(message).toContain("orders.2.numbers.1: repeats 4165550301");
    expect(message).toContain("orders.2.ticket: must not look like PI-000123");

    const twice = accountWith([{ numbers: ["4165550301"] }, { numbers: ["4165550300-0305"] }], "twice.json");
    await expect(startSandbox({ accountFile: twice })).rejects.toThrow(
      `sandbox account file '${twice}' is not valid: orders.1: 4165550301 already has a pending port-in (ticket PI-P00001)`,
    );
    // Portability is the carriers' to judge: the portal takes a number a POST could not.
    const wireless = accountWith([{ numbers: ["4165550199"] }], "wireless.json");
    await expect(startSandbox({ accountFile: wireless }).then((s) => s.close())).resolves.toBeUndefined();
  });
});

describe("POST /_sandbox/orders", () => {
  test("places an order on a running sandbox, answers its ticket, and needs no credentials", async () => {
    const s = await sandboxWith();
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550301", "4165550100-0101"] }, false)).toEqual({ status: 200, json: { TicketMask: "PI-P00001" } });
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["6475550400"], status: "COMPLETED" }, false)).toEqual({ status: 200, json: { TicketMask: "PI-P00002" } });
    expect(await get(s, portInStatusPath("4165550100"))).toMatchObject({ json: { TicketId: "PI-P00001", Status: "SUBMITTED" } });
    expect(await get(s, portInStatusPath("6475550400"))).toMatchObject({ json: { TicketId: "PI-P00002", Status: "COMPLETED" } });
    expect((await orderDids(s, ["4165550101"])).json).toMatchObject({ Reply: 0, Message: "4165550101 already has a pending port-in (ticket PI-P00001)" });
    expect(((await get(s, ORDER_LIST_PATH)).json as { Orders: unknown[] }).Orders).toHaveLength(2);
    // Not a port-in POST: the sandbox's record of what clients sent leaves it out.
    expect(s.received().map((r) => r.path)).toEqual(["/v2/NumberPorts/Inbound/DIDs"]);
  });

  test("refuses what is not an order (400), and numbers an order holds or a ticket taken (409)", async () => {
    const s = await sandboxWith();
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550301"], colour: "blue" })).toMatchObject({
      status: 400,
      json: { ID: "BadRequest", Message: expect.stringContaining("unknown member colour") as unknown },
    });
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: "4165550301" })).toMatchObject({ status: 400 });
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550301"], status: "PENDING" })).toMatchObject({ status: 400 });
    await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550301"], ticket: "PI-P00009" });
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550302"], ticket: "PI-P00009" })).toEqual({
      status: 409,
      json: { ID: "Conflict", Message: "ticket PI-P00009 is already an order's" },
    });
    expect(await post(s, PORTAL_ORDERS_PATH, { numbers: ["4165550300-0301"] })).toEqual({
      status: 409,
      json: { ID: "Conflict", Message: "4165550301 already has a pending port-in (ticket PI-P00009)" },
    });
    
    expect((await fetch(s.url + PORTAL_ORDERS_PATH)).status).toBe(405);
  });
});
