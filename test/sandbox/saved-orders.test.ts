/**
 * The built-in sandbox remembers its orders between runs of one sheet (docs/contract.md §2):
 * a sandbox started on the file an earlier one left holds the same orders under the same
 * tickets, goes on numbering after them, and keeps nothing of a body its carrier does not read.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { UsageError } from "../../src/errors.js";
import { portInStatusPath, ticketStatusPath } from "../../src/service/answers.js";
import { ORDER_LIST_PATH } from "../../src/sandbox/order-list.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { PORT_FORM } from "../support/port-form.js";
import { didsBody, get, orderDids, post, sandboxWith } from "./sandbox-http.js";

const dir = mkdtempSync(join(tmpdir(), "portin-saved-"));
let files = 0;
const freshFile = (): string => join(dir, `sheet-${++files}.sandbox.orders.json`);

describe("a sandbox that keeps its orders in a file", () => {
  test("hands its orders, their tickets and their days to the next sandbox on the same file, which numbers on after them", async () => {
    const file = freshFile();
    const first = await startSandbox({ keepOrdersIn: file, rejectRate: 0, seed: 3 });
    expect((await orderDids(first, ["4165552000", "4165552001"])).json).toMatchObject({ TicketMask: "PI-000001" });
    expect(await post(first, "/_sandbox/orders", { numbers: ["6475550400"] }, false)).toMatchObject({ json: { TicketMask: "PI-P00001" } });
    await first.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await sandboxWith({ keepOrdersIn: file });
    expect(await get(second, ticketStatusPath("PI-000001"))).toMatchObject({ status: 200, json: { Status: "SUBMITTED", NumbersToPort: [4165552000, 4165552001] } });
    expect(await get(second, portInStatusPath("6475550400"))).toMatchObject({ status: 200, json: { TicketId: "PI-P00001" } });
    expect((await orderDids(second, ["4165552001"])).json).toMatchObject({ Reply: 0, Message: "4165552001 already has a pending port-in (ticket PI-000001)" });
    expect((await orderDids(second, ["4165552002"])).json).toMatchObject({ Reply: 1, TicketMask: "PI-000002" });
    expect(await post(second, "/_sandbox/orders", { numbers: ["6475550401"] }, false)).toMatchObject({ json: { TicketMask: "PI-P00002" } });
    const list = (await get(second, ORDER_LIST_PATH)).json as { Orders: { OrderID: number }[] };
    expect(list.Orders.map((o) => o.OrderID)).toEqual([50001, 50002, 50003, 50004]);
  });

  test("lets the carriers' days pass with the real calendar from the first run's day", async () => {
    const file = freshFile();
    const first = await startSandbox({ keepOrdersIn: file, rejectRate: 0 });
    await orderDids(first, ["4165552000"]);
    await first.close();
    // A week ago: the carrier has answered and the port date has passed.
    const saved = JSON.parse(readFileSync(file, "utf8")) as { startDate: string };
    saved.startDate = new Date(Date.parse(`${saved.startDate}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(file, JSON.stringify(saved));
    const later = await sandboxWith({ keepOrdersIn: file });
    expect(await get(later, ticketStatusPath("PI-000001"))).toMatchObject({ json: { Status: "COMPLETED" } });
  });

  test("keeps of each body only the PortForm members its carrier reads: no item, no password, no attachment", async () => {
    const file = freshFile();
    const s = await startSandbox({ keepOrdersIn: file, rejectRate: 0 });
    const body = didsBody(["4165552000"]);
    (body["DIDs"] as Record<string, unknown>[])[0]!["SipPassword"] = "Marmalade-Sip-9d2e41";
    await post(s, "/v2/NumberPorts/Inbound/DIDs", body);
    await s.close();
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("Marmalade-Sip-9d2e41");
    expect(text).not.toContain("DIDs");
    expect(JSON.parse(text)).toMatchObject({ orders: [{ body: { PortForm: { CustomerName: PORT_FORM["CustomerName"] } } }] });
  });

  test("writes nothing when it took no order, and starts empty when the file is not there yet", async () => {
    const file = freshFile();
    const s = await startSandbox({ keepOrdersIn: file });
    expect(await get(s, ORDER_LIST_PATH)).toMatchObject({ json: { Orders: [] } });
    await s.close();
    expect(() => statSync(file)).toThrow();
  });

  test("refuses a damaged file with the way out", async () => {
    const file = freshFile();
    writeFileSync(file, '{"version": 1, "orders": "lots"}');
    const problem = await startSandbox({ keepOrdersIn: file }).catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(UsageError);
    expect((problem as Error).message).toMatch(new RegExp(`^the built-in sandbox's orders in ${file} are damaged \\(.*orders.*\\): delete the file to start the sandbox afresh`));
  });
});
