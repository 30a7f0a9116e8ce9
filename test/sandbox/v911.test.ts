/**
 * The sandbox's 9-1-1 database and trunks (docs/contract.md §1.5, docs/sandbox.md): strict
 * bodies, addresses it refuses with a suggestion, records kept with its orders, a
 * registration answered 500 after it was made, and a completed number left off its trunk.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { trunkDidPath, v911RecordPath, V911_PATH, V911_VERIFY_PATH } from "../../src/service/v911.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { get, orderDids, post, sandboxWith } from "./sandbox-http.js";

const PILOT = "4165550100";
const RECORD = {
  Number: 4165553001,
  FirstName: "Ada",
  LastName: "Lovelace",
  StreetNumber: "100",
  StreetName: "King St W",
  City: "Toronto",
  ProvinceState: "ON",
  PostalZip: "M5X 1A9",
  PendingPort: true,
};

async function put(s: RunningSandbox, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(s.url + path, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`${s.user}:${s.password}`).toString("base64")}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe("the sandbox's 9-1-1 endpoints", () => {
  test("refuse a record missing a required member or of a wrong type, naming each member", async () => {
    const s = await sandboxWith();
    const noCity: Record<string, unknown> = { ...RECORD, Number: "4165553001", PendingPort: "yes", Colour: "red" };
    delete noCity["City"];
    const answered = await post(s, V911_VERIFY_PATH, noCity);
    expect(answered.status).toBe(400);
    const message = (answered.json as { Message: string }).Message;
    expect(message).toContain("City: required member is missing");
    expect(message).toContain("Number: ");
    expect(message).toContain("PendingPort: ");
    expect(message).toContain("unknown member Colour");
  });

  test("verify an address, refuse a city it does not know with the one it suggests, and a province its postal code is not in", async () => {
    const s = await sandboxWith({ e911RefusedCities: { Torontoo: "Toronto" } });
    expect(await post(s, V911_VERIFY_PATH, RECORD)).toMatchObject({ status: 200, json: { Reply: 1, ResponseData: { Accepted: true, Errors: [] } } });
    expect(await post(s, V911_VERIFY_PATH, { ...RECORD, City: "torontoo" })).toMatchObject({
      status: 200,
      json: { Reply: 0, ResponseData: { Accepted: false, Errors: [{ ErrorCode: 12, SuggestedCity: "Toronto", SuggestedProvince: "ON" }] } },
    });
    expect(await post(s, V911_VERIFY_PATH, { ...RECORD, ProvinceState: "QC" })).toMatchObject({
      json: { Reply: 0, ResponseData: { Errors: [{ SuggestedProvince: "ON" }] } },
    });
    // A Verify registers nothing.
    expect((await get(s, v911RecordPath("4165553001"))).status).toBe(404);
  });

  test("register a record only for a number pending a port-in (PendingPort) or ported, once; PUT replaces it", async () => {
    const s = await sandboxWith();
    expect(await post(s, V911_PATH, RECORD)).toMatchObject({ status: 200, json: { Reply: 0, ResponseData: { Accepted: false } } });
    await orderDids(s, ["4165553001"]);
    expect(await post(s, V911_PATH, { ...RECORD, PendingPort: false })).toMatchObject({ json: { Reply: 0 } });
    expect(await post(s, V911_PATH, RECORD)).toMatchObject({ status: 200, json: { Reply: 1, ResponseData: { Accepted: true } } });
    expect(await get(s, v911RecordPath("4165553001"))).toMatchObject({ status: 200, json: { City: "Toronto", PendingPort: true } });
    expect(await post(s, V911_PATH, RECORD)).toMatchObject({ json: { Reply: 0, Message: "4165553001 already has a 9-1-1 record: replace it with PUT" } });
    expect(await put(s, v911RecordPath("4165553001"), { ...RECORD, StreetNumber: "200" })).toMatchObject({ status: 200, json: { Reply: 1 } });
    expect(await get(s, v911RecordPath("4165553001"))).toMatchObject({ json: { StreetNumber: "200" } });
    expect((await put(s, v911RecordPath("4165553002"), RECORD)).status).toBe(400);
  });

  test("answer a registration 500 after making it, when told to", async () => {
    const s = await sandboxWith({ e911FailRate: 1 });
    await orderDids(s, ["4165553001"]);
    expect((await post(s, V911_PATH, RECORD)).status).toBe(500);
    expect(await get(s, v911RecordPath("4165553001"))).toMatchObject({ status: 200, json: { Number: 4165553001 } });
  });

  test("put a number on its trunk when its port completes, unless told to leave it off", async () => {
    const s = await sandboxWith({ offTrunk: ["4165553002"] });
    await orderDids(s, ["4165553001", "4165553002"]);
    expect((await get(s, trunkDidPath(PILOT, "4165553001"))).status).toBe(404);
    s.advanceDays(3);
    expect(await get(s, trunkDidPath(PILOT, "4165553001"))).toMatchObject({ status: 200, json: { Number: 4165553001 } });
    expect((await get(s, trunkDidPath(PILOT, "4165553002"))).status).toBe(404);
    expect((await get(s, trunkDidPath("6135550100", "4165553001"))).status).toBe(404);
  });

  test("keep its 9-1-1 records with its orders between runs of a sheet", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "portin-v911-")), "sheet.sandbox.orders.json");
    const first = await startSandbox({ keepOrdersIn: file, rejectRate: 0 });
    await orderDids(first, ["4165553001"]);
    await post(first, V911_PATH, RECORD);
    await first.close();
    const second = await sandboxWith({ keepOrdersIn: file });
    expect(await get(second, v911RecordPath("4165553001"))).toMatchObject({ status: 200, json: { LastName: "Lovelace" } });
  });
});
