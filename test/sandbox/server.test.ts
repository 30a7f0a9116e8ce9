import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { OPERATIONS, operationById } from "../../src/catalog/operations.js";
import type { ItemKind, Operation, OperationId } from "../../src/catalog/operations.js";
import { portInStatusPath } from "../../src/service/answers.js";
import { buildBody } from "../../src/service/body.js";
import type { Members } from "../../src/catalog/members.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { PORT_FORM, TOLL_FREE_PORT_FORM } from "../support/port-form.js";


const ITEMS: Record<ItemKind, Members> = {
  DID: { Label: "Reception" },
  ResidentialLine: { Account: 1001, Enabled: true, Locale: 2, SecondLocale: 5 },
  BusinessLine: { Account: 1001, BusinessGroupID: "BG-1", Locale: 2, SecondLocale: 9 },
  Forward: { Account: 1001, CallForwardingNumber: 4165550900, Enabled: true, PCFProvisioningInstructions: "forward all calls" },
  ForwardingInstruction: { ForwardingTN: 4165550900 },
};

const TARGETS: Record<OperationId, string> = {
  dids: "4165550100",
  "tollfree-dids": "5145550100",
  "general-products": "OFF-GEN-001",
  "general-child-products": "OFF-GCH-001",
  "residential-lines": "OFF-RES-002",
  "business-lines": "OFF-BUS-001",
  "permanent-call-forwards": "OFF-PCF-001",
  "tollfree-permanent-call-forwards": "OFF-PCF-001",
  "business-permanent-call-forwards": "OFF-BPCF-001",
  "virtual-faxes": "OFF-FAX-001",
};

const REQUEST_MEMBERS: Members = {
  ParentSubscriptionID: "SUB-20931",
  BusinessGroupSubscriptionID: "BGS-4410",
  FaxEmail: "fax@acme.example",
};

function op(id: OperationId): Operation {
  const found = operationById(id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

/** A body the service accepts, built the way portin builds it. */
function validBody(id: OperationId, numbers: readonly string[]): Record<string, unknown> {
  const operation = op(id);
  const itemKind = operation.items?.kind;
  const request = Object.fromEntries(operation.requestMembers.map((name) => [name, REQUEST_MEMBERS[name]]).filter(([, v]) => v !== undefined)) as Members;
  return buildBody({
    operation,
    target: TARGETS[id],
    portForm: operation.numberKind === "regular" ? PORT_FORM : TOLL_FREE_PORT_FORM,
    request,
    numbers: numbers.map((number) => ({ number, item: itemKind ? ITEMS[itemKind] : {} })),
  });
}

function numbersFor(id: OperationId, count = 2): string[] {
  const area = op(id).numberKind === "toll-free" ? "800" : "416";
  const block = OPERATIONS.findIndex((o) => o.id === id);
  return Array.from({ length: count }, (_, i) => `${area}555${String(2000 + block * 10 + i)}`);
}

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

function auth(user = sandbox.user, password = sandbox.password): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

async function get(path: string, authorization: string | null = auth()) {
  const res = await fetch(sandbox.url + path, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: res.status, headers: res.headers, json: (await res.json()) };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(sandbox.url + path, {
    method: "POST",
    headers: { Authorization: auth(), "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

function postOp(id: OperationId, body: unknown) {
  return post(op(id).path, body);
}

async function acceptedNumbers(): Promise<string[]> {
  const { json } = await get("/_sandbox/requests", null);
  return (json as { numbers: string[] }[]).flatMap((r) => r.numbers);
}

describe("lookups", () => {
  test("lists the account's SIP trunks as Number and Label", async () => {
    const { status, json } = await get("/SipTrunks");
    expect(status).toBe(200);
    expect(json).toEqual([
      { Number: 4165550100, Label: "Toronto HQ - King St W" },
      { Number: 5145550100, Label: "Montreal office - Rue Sainte-Catherine" },
      { Number: 6045550100, Label: "Vancouver office - West Georgia St" },
    ]);
  });

  test("lists offerings as OfferingID, Type and ProductName {En, Fr}, including one with a Type outside 1..7", async () => {
    const { status, json } = await get("/Products/TelephoneOfferings");
    expect(status).toBe(200);
    const offerings = json as { OfferingID: string; Type: number; ProductName: { En: string; Fr: string } }[];
    expect(offerings).toContainEqual({
      OfferingID: "OFF-BUS-001",
      Type: 4,
      ProductName: { En: "Business Line - Unlimited Canada", Fr: "Ligne d'affaires - Canada illimité" },
    });
    expect(new Set(offerings.map((o) => o.Type))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 9]));
    expect(offerings.filter((o) => o.Type === 3)).toHaveLength(2);
    expect(offerings.filter((o) => o.Type === 4)).toHaveLength(2);
  });

  test("lists losing-carrier providers as ID and Name", async () => {
    const { status, json } = await get("/NumberPorts/Providers");
    expect(status).toBe(200);
    expect(json).toContainEqual({ ID: 17, Name: "Bell Canada" });
    expect(json).toContainEqual({ ID: 42, Name: "Vidéotron" });
    expect((json as unknown[]).length).toBeGreaterThanOrEqual(12);
  });
});

describe("authentication", () => {
  test("refuses a lookup without credentials with 401 and an Exception body", async () => {
    const { status, headers, json } = await get("/SipTrunks", null);
    expect(status).toBe(401);
    expect(headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(json).toEqual({ ID: "Unauthorized", Message: "the user name or password is incorrect" });
  });

  test("refuses a wrong user name with the right password, and takes the right pair again after it", async () => {
    expect((await get("/NumberPorts/Providers", auth(`${sandbox.user}2`))).status).toBe(401);
    expect((await get("/NumberPorts/Providers", auth(""))).status).toBe(401);
    expect((await get("/NumberPorts/Providers", auth())).status).toBe(200);
  });

  test("refuses a wrong password on a lookup and on a POST, and records nothing", async () => {
    expect((await get("/NumberPorts/Providers", auth("sandbox", "wrong"))).status).toBe(401);
    const res = await post(op("dids").path, validBody("dids", ["4165550101"]), { Authorization: auth("sandbox", "wrong") });
    expect(res.status).toBe(401);
    expect(sandbox.accepted()).toEqual([]);
    expect(sandbox.received()).toMatchObject([{ path: "/v2/NumberPorts/Inbound/DIDs", status: 401 }]);
  });

  test("takes the user and password it was started with", async () => {
    const other = await startSandbox({ user: "acme", password: "s3cret!" });
    try {
      const res = await fetch(`${other.url}/SipTrunks`, { headers: { Authorization: `Basic ${Buffer.from("acme:s3cret!").toString("base64")}` } });
      expect(res.status).toBe(200);
      expect((await fetch(`${other.url}/SipTrunks`, { headers: { Authorization: auth() } })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe("routing", () => {
  test("answers an unknown path with 404 and an Exception body", async () => {
    const { status, json } = await get("/v2/NumberPorts/Inbound/Didz");
    expect(status).toBe(404);
    expect(json).toEqual({ ID: "NotFound", Message: "no such resource: /v2/NumberPorts/Inbound/Didz" });
  });

  test("answers a GET on a port-in path, and a POST on a lookup, with 405 and Allow", async () => {
    const getOnPost = await get(op("dids").path);
    expect(getOnPost.status).toBe(405);
    expect(getOnPost.headers.get("allow")).toBe("POST");
    const postOnGet = await post("/SipTrunks", {});
    expect(postOnGet.status).toBe(405);
    expect(postOnGet.headers.get("allow")).toBe("GET");
  });

  test("refuses malformed JSON with 400", async () => {
    const { status, json } = await post(op("dids").path, '{"PortForm": {');
    expect(status).toBe(400);
    expect(json["Message"]).toMatch(/^the body is not valid JSON: /);
  });

  test("refuses a body not sent as application/json with 415", async () => {
    const { status, json } = await post(op("dids").path, JSON.stringify(validBody("dids", ["4165550101"])), { "Content-Type": "text/plain" });
    expect(status).toBe(415);
    expect(json["Message"]).toBe("Content-Type must be application/json, not text/plain");
  });
});

describe("port-in operations", () => {
  test.each(OPERATIONS.map((o) => [o.id, o.path] as const))("accepts a valid %s body at %s and lists it at /_sandbox/requests", async (id, path) => {
    const numbers = numbersFor(id);
    const body = validBody(id, numbers);
    const res = await postOp(id, body);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ TicketMask: "PI-000001", Reply: 1, Message: "Accepted" });
    const { status, json } = await get("/_sandbox/requests", null);
    expect(status).toBe(200);
    expect(json).toEqual([{ seq: 1, ticket: "PI-000001", operation: id, path, numbers, body }]);
  });

  test("numbers the tickets of successive accepted requests in order", async () => {
    const first = await postOp("dids", validBody("dids", ["4165550101"]));
    const second = await postOp("business-lines", validBody("business-lines", ["4165550102"]));
    expect([first.json["TicketMask"], second.json["TicketMask"]]).toEqual(["PI-000001", "PI-000002"]);
    expect(sandbox.accepted().map((r) => [r.seq, r.operation])).toEqual([
      [1, "dids"],
      [2, "business-lines"],
    ]);
  });

  test("accepts a toll-free form without CurrentProvider or CurrentReseller", async () => {
    const body = validBody("tollfree-dids", ["8445550101"]);
    expect((body["PortForm"] as Record<string, unknown>)["CurrentProvider"]).toBeUndefined();
    expect((await postOp("tollfree-dids", body)).json["Reply"]).toBe(1);
  });

  test("accepts CurrentReseller in place of CurrentProvider on a regular form", async () => {
    const body = validBody("dids", ["4165550101"]);
    body["PortForm"] = { ...TOLL_FREE_PORT_FORM, CurrentReseller: "Distributel", NumbersToPort: [4165550101] };
    expect((await postOp("dids", body)).json["Reply"]).toBe(1);
  });
});

describe("validation: a body the service would refuse is answered 400 with a message naming the member", () => {
  async function expectRefused(id: OperationId, body: unknown, message: string | RegExp): Promise<void> {
    const res = await postOp(id, body);
    expect(res.status).toBe(400);
    expect(res.json["ID"]).toBe("BadRequest");
    if (typeof message === "string") expect(res.json["Message"]).toBe(message);
    else expect(res.json["Message"]).toMatch(message);
    expect(await acceptedNumbers()).toEqual([]);
  }
  function withForm(body: Record<string, unknown>, change: (form: Record<string, unknown>) => void): Record<string, unknown> {
    const form = { ...(body["PortForm"] as Record<string, unknown>) };
    change(form);
    return { ...body, PortForm: form };
  }

  test("a missing required PortForm member", async () => {
    const body = withForm(validBody("dids", ["4165550101"]), (f) => delete f["CustomerName"]);
    await expectRefused("dids", body, "PortForm.CustomerName: required member is missing");
  });

  test("a regular form with neither CurrentProvider nor CurrentReseller", async () => {
    const body = withForm(validBody("residential-lines", ["4165550101"]), (f) => delete f["CurrentProvider"]);
    await expectRefused("residential-lines", body, "PortForm.CurrentProvider: a regular-number PortForm needs CurrentProvider or CurrentReseller");
  });

  test("a member of the wrong type", async () => {
    const body = withForm(validBody("dids", ["4165550101"]), (f) => (f["CustomerCountry"] = "Canada"));
    await expectRefused("dids", body, 'PortForm.CustomerCountry: Invalid option: expected one of "CA"|"US"');
  });

  test("an item member of the wrong type", async () => {
    const body = validBody("residential-lines", ["4165550101"]);
    (body["Lines"] as Record<string, unknown>[])[0]!["Account"] = "1001";
    await expectRefused("residential-lines", body, /^Lines\.0\.Account: Invalid input: expected number, received string$/);
  });

  test("a 9-digit number", async () => {
    const body = validBody("dids", ["416555010"]);
    await expectRefused("dids", body, "PortForm.NumbersToPort.0: must be a 10-digit NANP telephone number; DIDs.0.Number: must be a 10-digit NANP telephone number");
  });

  test("a toll-free number on a regular path, pointing to the toll-free one", async () => {
    const body = validBody("dids", ["4165550101", "8775550102"]);
    await expectRefused(
      "dids",
      body,
      "PortForm.NumbersToPort: 8775550102 is a toll-free number, which POST /v2/NumberPorts/Inbound/DIDs does not take: send it to POST /v2/NumberPorts/Inbound/TollFree/DIDs",
    );
  });

  test("a toll-free number on an offering path that has no toll-free twin", async () => {
    const body = validBody("virtual-faxes", ["8885550101"]);
    await expectRefused("virtual-faxes", body, "PortForm.NumbersToPort: 8885550101 is a toll-free number, which POST /NumberPorts/Inbound/VirtualFaxes does not take");
  });

  test("a regular number on a toll-free path", async () => {
    const body = validBody("tollfree-permanent-call-forwards", ["4165550101"]);
    await expectRefused(
      "tollfree-permanent-call-forwards",
      body,
      "PortForm.NumbersToPort: 4165550101 is not a toll-free number (area codes 800, 833, 844, 855, 866, 877, 888), and POST /v2/NumberPorts/Inbound/TollFree/PermanentCallForwards takes toll-free numbers only",
    );
  });

  test("a pilot number that is not one of the account's trunks", async () => {
    const body = { ...validBody("dids", ["4165550101"]), PilotNumber: 4165559999 };
    await expectRefused("dids", body, "PilotNumber: 4165559999 is not one of the account's SIP trunks (4165550100, 5145550100, 6045550100)");
  });

  test("an OfferingID whose Type does not match the path", async () => {
    const body = { ...validBody("general-products", ["4165550101"]), OfferingID: "OFF-RES-001" };
    await expectRefused(
      "general-products",
      body,
      'OfferingID: "OFF-RES-001" is a Type 3 (Residential Line) offering, but POST /NumberPorts/Inbound/GeneralProducts takes Type 1 (General Product)',
    );
  });

  test("an offering whose Type is outside 1..7", async () => {
    const body = { ...validBody("general-products", ["4165550101"]), OfferingID: "OFF-LEG-009" };
    await expectRefused("general-products", body, /^OfferingID: "OFF-LEG-009" is a Type 9 offering, but /);
  });

  test("a PlanID of another Type, reported once for all the lines that carry it", async () => {
    const body = validBody("business-lines", ["4165550101", "4165550102"]);
    for (const line of body["Lines"] as Record<string, unknown>[]) line["PlanID"] = "OFF-RES-001";
    await expectRefused(
      "business-lines",
      body,
      'Lines.0.PlanID: "OFF-RES-001" is a Type 3 (Residential Line) offering, but POST /v2/NumberPorts/Inbound/BusinessLines takes Type 4 (Business Line)',
    );
  });

  test("an OfferingID the account does not have", async () => {
    const body = { ...validBody("virtual-faxes", ["4165550101"]), OfferingID: "OFF-NOPE" };
    await expectRefused("virtual-faxes", body, 'OfferingID: "OFF-NOPE" is not an offering of the account (see GET /Products/TelephoneOfferings)');
  });

  test("an unknown provider ID", async () => {
    const body = withForm(validBody("dids", ["4165550101"]), (f) => (f["CurrentProvider"] = 9999));
    await expectRefused("dids", body, "PortForm.CurrentProvider: 9999 is not a known provider ID (see GET /NumberPorts/Providers)");
  });

  test("NumbersToPort listing a number that has no item", async () => {
    const body = withForm(validBody("dids", ["4165550101"]), (f) => (f["NumbersToPort"] = [4165550101, 4165550102]));
    await expectRefused("dids", body, "PortForm.NumbersToPort: 4165550102 has no item in DIDs");
  });

  test("an item whose number is not in NumbersToPort", async () => {
    const body = withForm(validBody("permanent-call-forwards", ["4165550101", "4165550102"]), (f) => (f["NumbersToPort"] = [4165550101]));
    await expectRefused("permanent-call-forwards", body, "Forwards.1.Number.Number: 4165550102 is not in PortForm.NumbersToPort");
  });

  test("a number listed twice", async () => {
    const body = validBody("business-permanent-call-forwards", ["4165550101", "4165550101"]);
    await expectRefused(
      "business-permanent-call-forwards",
      body,
      "PortForm.NumbersToPort: 4165550101 is listed twice; ForwardingInstructions.1.TN: 4165550101 repeats ForwardingInstructions.0",
    );
  });

  test("a number listed twice on an operation without items", async () => {
    await expectRefused("general-products", validBody("general-products", ["4165550101", "4165550101"]), "PortForm.NumbersToPort: 4165550101 is listed twice");
  });

  test("an unknown PortForm member and an unknown top-level member", async () => {
    const body = { ...withForm(validBody("dids", ["4165550101"]), (f) => (f["CustomerNickname"] = "Acme")), Priority: "high" };
    await expectRefused("dids", body, /PortForm: unknown member CustomerNickname.*unknown member Priority|unknown member Priority.*PortForm: unknown member CustomerNickname/);
  });

  test("a toll-free-only PortForm member on a regular form", async () => {
    const file = { FileName: "resporg.pdf", ContentType: "application/pdf", Base64Contents: "JVBERi0=" };
    const body = withForm(validBody("dids", ["4165550101"]), (f) => (f["FileRespOrgForm"] = [file]));
    await expectRefused("dids", body, "PortForm: unknown member FileRespOrgForm");
  });

  test("a missing required item member", async () => {
    const body = validBody("residential-lines", ["4165550101"]);
    delete (body["Lines"] as Record<string, unknown>[])[0]!["Locale"];
    await expectRefused("residential-lines", body, "Lines.0.Locale: required member is missing");
  });

  test.each([
    ["general-child-products", "ParentSubscriptionID"],
    ["business-permanent-call-forwards", "BusinessGroupSubscriptionID"],
    ["virtual-faxes", "FaxEmail"],
  ] as const)("%s without its required %s", async (id, member) => {
    const body = validBody(id, ["4165550101"]);
    delete body[member];
    await expectRefused(id, body, `${member}: required member is missing`);
  });
});

describe("business refusals: 200 with Reply 0, nothing recorded", () => {
  test("an unportable number rejects its whole request with the carrier's reason", async () => {
    const res = await postOp("dids", validBody("dids", ["4165550101", "4165550199"]));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ TicketMask: "", Reply: 0, Message: "4165550199 is not portable: the losing carrier reports it as a wireless number" });
    expect(await acceptedNumbers()).toEqual([]);
  });

  test("a toll-free unportable number is rejected on the toll-free path", async () => {
    const res = await postOp("tollfree-dids", validBody("tollfree-dids", ["8665550199"]));
    expect(res.json["Reply"]).toBe(0);
    expect(res.json["Message"]).toMatch(/^8665550199 is not portable: /);
  });

  test("a number already accepted is rejected the second time as having a pending port-in", async () => {
    const first = await postOp("dids", validBody("dids", ["4165550101"]));
    expect(first.json["Reply"]).toBe(1);
    const second = await postOp("business-lines", validBody("business-lines", ["4165550102", "4165550101"]));
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ TicketMask: "", Reply: 0, Message: "4165550101 already has a pending port-in (ticket PI-000001)" });
    expect(await acceptedNumbers()).toEqual(["4165550101"]);
  });
});

describe("PortInStatus", () => {
  test("reports SUBMITTED with the ticket and the requested date for an accepted number", async () => {
    const body = validBody("dids", ["4165550101"]);
    (body["PortForm"] as Record<string, unknown>)["RequestedPortDate"] = "2026-12-01";
    await postOp("dids", body);
    const { status, json } = await get(portInStatusPath("4165550101"));
    expect(status).toBe(200);
    expect(json).toMatchObject({ TicketId: "PI-000001", Status: "SUBMITTED", PortDate: "2026-12-01", RejectReason: "", RejectSummary: "", NumbersToPort: [4165550101] });
  });

  test("answers 404 with an Exception body for a number without a port-in", async () => {
    await postOp("dids", validBody("dids", ["4165550199"]));
    const { status, json } = await get(portInStatusPath("4165550199"));
    expect(status).toBe(404);
    expect(json).toEqual({ ID: "NotFound", Message: "4165550199 has no port-in" });
  });

  test("needs credentials like every service route", async () => {
    expect((await get(portInStatusPath("4165550101"), null)).status).toBe(401);
  });
});

describe("keepReceived: false, as `portin sandbox` starts it", () => {
  test("keeps no copy for received(), yet answers and lists an accepted request at /_sandbox/requests as before", async () => {
    await sandbox.close();
    sandbox = await startSandbox({ keepReceived: false });
    const numbers = numbersFor("dids");
    const { status, json } = await postOp("dids", validBody("dids", numbers));
    expect(status).toBe(200);
    expect(json["Reply"]).toBe(1);
    expect(await acceptedNumbers()).toEqual(numbers);
    expect(sandbox.received()).toEqual([]);
    expect(sandbox.served().map((s) => s.status)).toEqual([200, 200]);
  });
});
