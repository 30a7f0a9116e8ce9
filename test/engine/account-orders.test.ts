/**
 * The account's order list (docs/contract.md §1.1, §5): read tolerantly, ranges matched by
 * NPA-NXX without expanding them, open orders before Closed ones.
 */
import { describe, expect, it } from "vitest";
import { ordersHolding } from "../../src/engine/account-orders.js";
import { orderListSchema, parseTnRange } from "../../src/service/answers.js";

describe("the order list", () => {
  it("reads member names in any case, OrderID as text, ranges as runs, and keeps what it cannot read as text", () => {
    const parsed = orderListSchema.parse({
      orders: [
        { orderid: 51234, REQUESTS: [{ Assessment: "Pending", NumberToPort: [{ TnRange: "4165550100-0199" }, { tnrange: 4165550301 }, { TnRange: "junk 416 555 07xx" }] }] },
        { OrderID: "51235", Requests: [{ Assessment: "closed", NumberToPort: [{ TnRange: "+1 4165550400" }] }, { Assessment: "Internal", NumberToPort: [] }] },
        "not an order",
      ],
    });
    expect(parsed).toEqual([
      { orderId: "51234", open: true, ranges: [{ first: "4165550100", last: "4165550199" }, { first: "4165550301", last: "4165550301" }], unread: ["junk 416 555 07xx"] },
      { orderId: "51235/0", open: false, ranges: [{ first: "4165550400", last: "4165550400" }], unread: [] },
      { orderId: "51235/1", open: true, ranges: [], unread: [] },
    ]);
    expect(orderListSchema.safeParse([{ OrderID: 1 }]).success).toBe(false);
  });

  it.each([
    ["4165550400", [["4165550400", "4165550400"]]],
    ["14165550400", [["4165550400", "4165550400"]]],
    ["+1 416 555 0400", [["4165550400", "4165550400"]]],
    ["(416) 555-0400", [["4165550400", "4165550400"]]],
    ["416.555.0400", [["4165550400", "4165550400"]]],
    ["4165550100-0199", [["4165550100", "4165550199"]]],
    ["4165550100-4165550199", [["4165550100", "4165550199"]]],
    ["416-555-0100 - 416-555-0199", [["4165550100", "4165550199"]]],
    ["(416) 555-0100 to (416) 555-0199", [["4165550100", "4165550199"]]],
    ["4165550100 \u2013 99", [["4165550100", "4165550199"]]],
    ["4165559990-4165560009", [["4165559990", "4165559999"], ["4165560000", "4165560009"]]],
  ])("reads the TnRange %s as the numbers it names", (text, runs) => {
    expect(parseTnRange(text)).toEqual(runs.map(([first, last]) => ({ first, last })));
  });

  it.each(["4165550199-0100", "junk", "", "416555"])("reads no numbers from %j, which the list keeps as unread", (text) => {
    expect(parseTnRange(text)).toBeNull();
  });

  it("takes a number whose digits stand in an entry it cannot read as held by that entry's order", () => {
    const orders = [{ orderId: "7", open: true, ranges: [], unread: ["PORT 4165550123 + 4165550124 (pending LOA)"] }];
    const { open } = ordersHolding(["4165550123", "4165550124", "4165550125"], orders);
    expect(Object.fromEntries(open)).toEqual({ "7": ["4165550123", "4165550124"] });
  });

  it("finds which order holds each number, an open order before a Closed one", () => {
    const orders = [
      { orderId: "1", open: false, ranges: [{ first: "4165550100", last: "4165550199" }], unread: [] },
      { orderId: "2", open: true, ranges: [{ first: "4165550150", last: "4165550160" }], unread: [] },
      { orderId: "3", open: true, ranges: [{ first: "6475550000", last: "6475559999" }], unread: [] },
    ];
    const { open, closed } = ordersHolding(["4165550100", "4165550155", "4165550155", "6475551234", "4165550200", "4165560155"], orders);
    expect(Object.fromEntries(open)).toEqual({ "2": ["4165550155"], "3": ["6475551234"] });
    expect(Object.fromEntries(closed)).toEqual({ "1": ["4165550100"] });
    expect(ordersHolding(["4165550100"], orders, () => false).closed.size).toBe(0);
  });
});
