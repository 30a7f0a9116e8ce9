/**
 * The account's order list (docs/contract.md §1.1, §5): read tolerantly, ranges matched by
 * NPA-NXX without expanding them, open orders before Closed ones.
 */
import { describe, expect, it } from "vitest";
import { ordersHolding } from "../../src/engine/account-orders.js";
import { orderListSchema, parseTnRange } from "../../src/service/answers.js";

describe("the order list", () => {
  it("reads member names in any case, OrderID as text, ranges as runs, and leaves out what it cannot read", () => {
    const parsed = orderListSchema.parse({
      orders: [
        { orderid: 51234, REQUESTS: [{ Assessment: "Pending", NumberToPort: [{ TnRange: "4165550100-0199" }, { tnrange: 4165550301 }, { TnRange: "junk" }] }] },
        { OrderID: "51235", Requests: [{ Assessment: "closed", NumberToPort: [{ TnRange: "+1 4165550400" }] }, { Assessment: "Internal", NumberToPort: [] }] },
        "not an order",
      ],
    });
    expect(parsed).toEqual([
      { orderId: "51234", open: true, ranges: [{ first: "4165550100", last: "4165550199" }, { first: "4165550301", last: "4165550301" }] },
      { orderId: "51235/0", open: false, ranges: [] },
      { orderId: "51235/1", open: true, ranges: [] },
    ]);
    expect(orderListSchema.safeParse([{ OrderID: 1 }]).success).toBe(false);
    expect(parseTnRange("14165550400")).toEqual({ first: "4165550400", last: "4165550400" });
    expect(parseTnRange("4165550199-0100")).toBeNull();
  });

  it("finds which order holds each number, an open order before a Closed one", () => {
    const orders = [
      { orderId: "1", open: false, ranges: [{ first: "4165550100", last: "4165550199" }] },
      { orderId: "2", open: true, ranges: [{ first: "4165550150", last: "4165550160" }] },
      { orderId: "3", open: true, ranges: [{ first: "6475550000", last: "6475559999" }] },
    ];
    const { open, closed } = ordersHolding(["4165550100", "4165550155", "4165550155", "6475551234", "4165550200", "4165560155"], orders);
    expect(Object.fromEntries(open)).toEqual({ "2": ["4165550155"], "3": ["6475551234"] });
    expect(Object.fromEntries(closed)).toEqual({ "1": ["4165550100"] });
    expect(ordersHolding(["4165550100"], orders, () => false).closed.size).toBe(0);
  });
});
