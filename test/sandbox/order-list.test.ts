/**
 * The account's order list (docs/contract.md §1.1, §1.4): every order the sandbox holds, its
 * runs of numbers written as the service writes them, `Closed` once the order has ended,
 * and never a ticket, which a client learns from PortInStatus.
 */
import { describe, expect, test } from "vitest";
import { portInStatusPath } from "../../src/service/answers.js";
import { ORDER_LIST_PATH } from "../../src/sandbox/order-list.js";
import { asTnRanges, expandTnRange } from "../../src/sandbox/tn-ranges.js";
import { get, orderDids, post, sandboxWith } from "./sandbox-http.js";

describe("GET /v2/NumberPorts/Inbound/Dashboard/PortInInfo", () => {
  test("answers an empty list for an account that holds no order", async () => {
    const s = await sandboxWith();
    expect(await get(s, ORDER_LIST_PATH)).toEqual({ status: 200, json: { Orders: [] } });
  });

  test("lists an accepted order with its consecutive numbers as a range, open and without its ticket", async () => {
    const s = await sandboxWith();
    const numbers = ["4165552003", "4165552000", "4165552001", "4165552002", "4165552010"];
    expect((await orderDids(s, numbers)).json).toMatchObject({ Reply: 1, TicketMask: "PI-000001" });
    const list = await get(s, ORDER_LIST_PATH);
    expect(list).toEqual({
      status: 200,
      json: {
        Orders: [
          {
            OrderID: 50001,
            Requests: [
              {
                RequestIdx: 0,
                Assessment: "Pending",
                HappyFoxTicket: "#750001",
                NewService: "dids",
                ParentService: "4165550100",
                NumberToPort: [
                  { TnRange: "4165552000-2003", ReadyToPort: false, SvCondition: "Awaiting losing carrier" },
                  { TnRange: "4165552010", ReadyToPort: false, SvCondition: "Awaiting losing carrier" },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(JSON.stringify(list.json)).not.toContain("PI-000001");
  });

  test("lists every order in the order the account took them, each with its own OrderID", async () => {
    const s = await sandboxWith();
    await orderDids(s, ["4165552000"]);
    await orderDids(s, ["4165552100", "4165552101"]);
    const { json } = await get(s, ORDER_LIST_PATH);
    const orders = (json as { Orders: { OrderID: number; Requests: { NumberToPort: { TnRange: string }[] }[] }[] }).Orders;
    expect(orders.map((o) => [o.OrderID, o.Requests[0]?.NumberToPort.map((n) => n.TnRange)])).toEqual([
      [50001, ["4165552000"]],
      [50002, ["4165552100-2101"]],
    ]);
  });

  test("says Click-To-Port and ready once the carrier confirms, and Closed once the port completes", async () => {
    const s = await sandboxWith();
    await orderDids(s, ["4165552000"]);
    const assessment = async (): Promise<unknown> => ((await get(s, ORDER_LIST_PATH)).json as { Orders: { Requests: unknown[] }[] }).Orders[0]?.Requests[0];
    s.advanceDays(1);
    expect(await assessment()).toMatchObject({ Assessment: "Click-To-Port", NumberToPort: [{ TnRange: "4165552000", ReadyToPort: true }] });
    s.advanceDays(2);
    expect(await assessment()).toMatchObject({ Assessment: "Closed", NumberToPort: [{ ReadyToPort: false, SvCondition: "Ported in" }] });
    expect((await get(s, portInStatusPath("4165552000"))).json).toMatchObject({ Status: "COMPLETED" });
  });

  test("says Closed for an order the carrier rejected", async () => {
    const s = await sandboxWith({ rejectRate: 1 });
    await orderDids(s, ["4165552000"]);
    s.advanceDays(1);
    expect((await get(s, ORDER_LIST_PATH)).json).toMatchObject({ Orders: [{ Requests: [{ Assessment: "Closed", NumberToPort: [{ SvCondition: "Rejected by losing carrier" }] }] }] });
  });

  test("needs the account's credentials, and takes GET only", async () => {
    const s = await sandboxWith();
    expect(await get(s, ORDER_LIST_PATH, false)).toMatchObject({ status: 401, json: { ID: "Unauthorized" } });
    expect(await post(s, ORDER_LIST_PATH, {})).toMatchObject({ status: 405 });
    expect(await get(s, `${ORDER_LIST_PATH.toLowerCase()}`)).toMatchObject({ status: 404 });
  });
});

describe("the service's ranges of numbers", () => {
  test("writes runs of two or more consecutive numbers as a range, single numbers alone, sorted", () => {
    expect(asTnRanges(["4165550199", "4165550100", ...Array.from({ length: 98 }, (_, i) => `41655501${String(i + 1).padStart(2, "0")}`), "6475550101"])).toEqual([
      "4165550100-0199",
      "6475550101",
    ]);
    expect(asTnRanges(["4165550101", "4165550103"])).toEqual(["4165550101", "4165550103"]);
  });

  test("never carries a range past its NPA-NXX, since only the line number is written twice", () => {
    expect(asTnRanges(["4165559998", "4165559999", "4165560000"])).toEqual(["4165559998-9999", "4165560000"]);
  });

  test("reads a range back as its numbers, and says what is wrong with what is not one", () => {
    expect(expandTnRange("4165550198-0201")).toEqual({ numbers: ["4165550198", "4165550199", "4165550200", "4165550201"] });
    expect(expandTnRange("4165550101")).toEqual({ numbers: ["4165550101"] });
    expect(expandTnRange("4165550199-0100")).toEqual({ problem: "the range '4165550199-0100' ends before it starts" });
    expect(expandTnRange("416-555-0101")).toMatchObject({ problem: expect.stringContaining("neither a 10-digit NANP number") as unknown });
    expect(expandTnRange("1165550100-0101")).toMatchObject({ problem: expect.stringContaining("neither") as unknown });
  });
});
