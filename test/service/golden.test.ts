import { describe, expect, test } from "vitest";
import { describeOperation, operationById } from "../../src/catalog/operations.js";
import type { OperationId } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import { bodySchema } from "../support/body-schema.js";
import { buildBody } from "../../src/service/body.js";
import { describeIssues } from "../../src/service/zod-issues.js";
import type { FixtureIn } from "../e2e/fixtures.js";
import { GOLDEN, readGolden } from "../sandbox/golden.js";
import type { Body, Golden } from "../sandbox/golden.js";
import { FAMILIES, SHAPE_FAMILIES, acceptableVariantsOf, mutationsOf, namesMember } from "../sandbox/mutations.js";
import type { Family } from "../sandbox/mutations.js";

/**
 * What plan hands buildBody for each golden body, written by hand: the operation, the
 * target, the request members and the numbers in order. The PortForm and item members are
 * taken from the golden file itself, less the members that are portin's to fill, because
 * buildBody passes them through as they are; everything buildBody decides is stated here.
 */
const INPUTS: Readonly<Record<string, { operation: OperationId; target: string; request: Members; numbers: readonly string[] }>> = {
  "dids.json": { operation: "dids", target: "4165550100", request: {}, numbers: ["4165550101", "4165550102", "4165550103"] },
  "tollfree-dids.json": { operation: "tollfree-dids", target: "5145550100", request: {}, numbers: ["8005550142", "8885550143"] },
  "general-products.json": { operation: "general-products", target: "OFF-GEN-001", request: {}, numbers: ["9055550140", "9055550141"] },
  "general-child-products.json": {
    operation: "general-child-products",
    target: "OFF-GCH-001",
    request: { ParentSubscriptionID: "SUB-20931" },
    numbers: ["8195550150", "8195550151"],
  },
  "residential-lines.json": { operation: "residential-lines", target: "OFF-RES-002", request: {}, numbers: ["9055550160", "9055550161"] },
  "business-lines.json": { operation: "business-lines", target: "OFF-BUS-001", request: {}, numbers: ["4035550170", "4035550171", "4035550172"] },
  "permanent-call-forwards.json": { operation: "permanent-call-forwards", target: "OFF-PCF-001", request: {}, numbers: ["7805550180", "7805550181"] },
  "tollfree-permanent-call-forwards.json": {
    operation: "tollfree-permanent-call-forwards",
    target: "OFF-PCF-001",
    request: {},
    numbers: ["8775550190", "8445550191"],
  },
  "business-permanent-call-forwards.json": {
    operation: "business-permanent-call-forwards",
    target: "OFF-BPCF-001",
    request: { BusinessGroupSubscriptionID: "BGS-4410" },
    numbers: ["9025550110", "9025550111"],
  },
  "virtual-faxes.json": {
    operation: "virtual-faxes",
    target: "OFF-FAX-001",
    request: { FaxEmail: "fax@granvillearchitects.ca" },
    numbers: ["6045550130", "6045550131"],
  },
};

function without(members: Body, ...names: string[]): Members {
  return Object.fromEntries(Object.entries(members).filter(([name]) => !names.includes(name))) as Members;
}

/** An item's members as a row states them: without its number, TN or PlanID, which portin fills. */
function rowItem(item: Body | undefined): Members {
  return item === undefined ? {} : without(item, "Number", "TN", "PlanID");
}

function inputOf(file: string) {
  const input = INPUTS[file];
  if (input === undefined) throw new Error(`no plan input for golden body ${file}`);
  const operation = operationById(input.operation);
  if (operation === undefined) throw new Error(`no operation ${input.operation}`);
  return { ...input, operation };
}

describe("the golden request bodies, as buildBody makes them", () => {
  test("has one golden body for every operation of the client", () => {
    expect(Object.keys(INPUTS).sort()).toEqual(GOLDEN.map((g) => g.file).sort());
    expect(new Set(GOLDEN.map((g) => inputOf(g.file).operation.id)).size).toBe(GOLDEN.length);
  });

  test.each(GOLDEN.map((g) => [g.file, g] as const))("builds %s exactly, member for member, from what plan hands it", (file, golden) => {
    const { operation, target, request, numbers } = inputOf(file);
    expect(describeOperation(operation)).toBe(`POST ${golden.path}`);
    const expected = readGolden(file);
    const items = golden.items ? (expected[golden.items.list] as Body[]) : [];
    const built = buildBody({
      operation,
      target,
      portForm: without(expected["PortForm"] as Body, "NumbersToPort"),
      request,
      numbers: numbers.map((number, i) => ({ number, item: rowItem(items[i]) })),
    });
    expect(built).toStrictEqual(expected);
  });
});

/**
 * The client's body schemas are its catalog's account of the contract: a catalog mistake
 * (a wrong type, a member on the wrong item kind, a wrong required flag) shows here as a
 * golden body refused or a mutated copy let through.
 */
describe("the client's body schemas agree with the contract on the golden request bodies", () => {
  // One schema per operation: zod compiles a schema on its first parse, which is most of the cost.
  const schemas = new Map(GOLDEN.map((g) => [g.file, bodySchema(inputOf(g.file).operation)]));
  const verdict = (file: FixtureIn<"golden">, body: Body): string => {
    const parsed = schemas.get(file)!.safeParse(body);
    return parsed.success ? "valid" : describeIssues(parsed.error);
  };

  test.each(GOLDEN.map((g) => [g.file, g] as const))("takes %s as it is, without any one of its optional members, and with either way of naming a losing carrier", (file, g) => {
    expect(verdict(file, readGolden(file))).toBe("valid");
    const refused = acceptableVariantsOf(g, readGolden(file))
      .map((variant) => ({ what: variant.what, verdict: verdict(file, variant.body) }))
      .filter((v) => v.verdict !== "valid");
    expect(refused).toEqual([]);
  });

  // The rules across members and against the account are the service's, not a schema's: see test/sandbox.
  const cases = GOLDEN.flatMap((g) => {
    const families = new Set(mutationsOf(g, readGolden(g.file)).map((m) => m.family));
    return SHAPE_FAMILIES.filter((f) => families.has(f)).map((family) => [g.file, FAMILIES[family], g, family] as const);
  });

  test.each(cases)("refuses every copy of %s %s, naming the member", (file, _title, g: Golden, family: Family) => {
    const misfits = mutationsOf(g, readGolden(file))
      .filter((m) => m.family === family)
      .map((m) => ({ what: m.what, at: m.at, verdict: verdict(file, m.body), m }))
      .filter(({ verdict, m }) => verdict === "valid" || !namesMember(verdict, m))
      .map(({ what, at, verdict }) => ({ what, at, verdict }));
    expect(misfits).toEqual([]);
  });
});
