import { describe, expect, it } from "vitest";
import { OPERATIONS, routeFor, type NumberKind, type OfferingType, type Target } from "../../src/catalog/operations.js";

const route = (target: Target, kind: NumberKind) => {
  const r = routeFor(target, kind);
  return r.ok ? `${r.operation.method} ${r.operation.path}` : `refused: ${r.reason}`;
};

describe("routeFor", () => {
  it("sends trunk numbers to the DID operations, regular and toll-free apart", () => {
    expect(route({ kind: "trunk" }, "regular")).toBe("POST /v2/NumberPorts/Inbound/DIDs");
    expect(route({ kind: "trunk" }, "toll-free")).toBe("POST /v2/NumberPorts/Inbound/TollFree/DIDs");
  });

  it.each([
    [1, "POST /NumberPorts/Inbound/GeneralProducts"],
    [2, "POST /NumberPorts/Inbound/GeneralChildProducts"],
    [3, "POST /v2/NumberPorts/Inbound/ResidentialLines"],
    [4, "POST /v2/NumberPorts/Inbound/BusinessLines"],
    [5, "POST /v2/NumberPorts/Inbound/PermanentCallForwards"],
    [6, "POST /NumberPorts/Inbound/BusinessPermanentCallForwards"],
    [7, "POST /NumberPorts/Inbound/VirtualFaxes"],
  ] as const)("sends regular numbers on a Type %i offering to %s", (type, expected) => {
    expect(route({ kind: "offering", type }, "regular")).toBe(expected);
  });

  it("sends toll-free numbers on a Type 5 offering to the toll-free Permanent Call Forward operation", () => {
    expect(route({ kind: "offering", type: 5 }, "toll-free")).toBe(
      "POST /v2/NumberPorts/Inbound/TollFree/PermanentCallForwards",
    );
  });

  it.each([1, 2, 3, 4, 6, 7] as OfferingType[])("refuses toll-free numbers on a Type %i offering, saying why", (type) => {
    const r = routeFor({ kind: "offering", type }, "toll-free");
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.reason).toMatch(new RegExp(`Type ${type} \\(.+\\) offering: only SIP trunks and Type 5`));
  });

  it("describes ten operations with ten distinct paths", () => {
    expect(OPERATIONS).toHaveLength(10);
    expect(new Set(OPERATIONS.map((op) => op.path)).size).toBe(10);
  });
});
