import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { GOLDEN, readGolden } from "./golden.js";
import type { Body, Golden } from "./golden.js";
import { FAMILIES, acceptableVariantsOf, mutationsOf, namesMember } from "./mutations.js";
import type { Family } from "./mutations.js";
import { kept } from "../../src/sandbox/keep.js";

let sandbox: RunningSandbox;

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(sandbox.url + path, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${sandbox.user}:${sandbox.password}`).toString("base64")}`,
      "Content-Type": "application/json",
      Accept: "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const byFile = GOLDEN.map((g) => [g.file, g] as const);

function golden(file: string): Golden {
  const found = GOLDEN.find((g) => g.file === file);
  if (found === undefined) throw new Error(`no golden body ${file}`);
  return found;
}

describe("the sandbox accepts the golden request bodies", () => {
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  test.each(byFile)("accepts %s as it is and records it as sent, each attachment as its size and digest", async (file, { path }) => {
    const body = readGolden(file);
    expect(await post(path, body)).toEqual({ status: 200, json: { TicketMask: "PI-000001", Reply: 1, Message: "Accepted" } });
    const listed = ((body["PortForm"] as Body)["NumbersToPort"] as number[]).map(String);
    expect(sandbox.accepted()).toEqual([expect.objectContaining({ path, numbers: listed, body: kept(body) })]);
  });

  test.each(byFile)("takes %s without any one of its optional members, and with either way of naming a losing carrier", async (file, g) => {
    const misfits: { what: string; status: number; message: unknown }[] = [];
    for (const variant of acceptableVariantsOf(g, readGolden(file))) {
      // Only the first copy is accepted: its numbers are then pending, and later copies get a
      // 200 with Reply 0. A 200 either way says the body itself was valid.
      const res = await post(g.path, variant.body);
      if (res.status !== 200) misfits.push({ what: variant.what, status: res.status, message: res.json["Message"] });
    }
    expect(misfits).toEqual([]);
  });
});

describe("the sandbox refuses mutated copies of the golden request bodies with a 400 naming the member", () => {
  // One sandbox for all: a refused body changes nothing in it, and one let through shows as a 200 in its own test.
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const cases = GOLDEN.flatMap((g) => {
    const families = new Set(mutationsOf(g, readGolden(g.file)).map((m) => m.family));
    return [...families].map((family) => [g.file, FAMILIES[family], g, family] as const);
  });

  test.each(cases)("refuses every copy of %s %s", async (file, _title, g: Golden, family: Family) => {
    const mutations = mutationsOf(g, readGolden(file)).filter((m) => m.family === family);
    const answers = await Promise.all(mutations.map(async (m) => ({ m, res: await post(g.path, m.body) })));
    const misfits = answers
      .filter(({ m, res }) => res.status !== 400 || !namesMember(String(res.json["Message"]), m))
      .map(({ m, res }) => ({ what: m.what, at: m.at, status: res.status, message: res.json["Message"] }));
    expect(misfits).toEqual([]);
  });

  const edit =
    (change: (body: Body) => void) =>
    (body: Body): Body => {
      change(body);
      return body;
    };
  const first = (body: Body, list: string) => (body[list] as Body[])[0] as Body;
  const form = (body: Body) => body["PortForm"] as Body;

  test.each([
    ["business-lines.json", "an Account as a string", "Lines.0.Account: Invalid input: expected number, received string", edit((b) => (first(b, "Lines")["Account"] = "120045"))],
    ["residential-lines.json", 'Enabled as "true"', "Lines.0.Enabled: Invalid input: expected boolean, received string", edit((b) => (first(b, "Lines")["Enabled"] = "true"))],
    ["residential-lines.json", "a Locale by name", "Lines.0.Locale: Invalid input: expected number, received string", edit((b) => (first(b, "Lines")["Locale"] = "EnglishCA"))],
    ["virtual-faxes.json", "no EmailAddress", "PortForm.EmailAddress: required member is missing", edit((b) => delete form(b)["EmailAddress"])],
    ["business-lines.json", "a line without its BusinessGroupID", "Lines.0.BusinessGroupID: required member is missing", edit((b) => delete first(b, "Lines")["BusinessGroupID"])],
    ["dids.json", "an unknown PortForm member", "PortForm: unknown member CustomerNickname", edit((b) => (form(b)["CustomerNickname"] = "Doc"))],
    ["dids.json", "PCFProvisioningInstructions on a DID", "DIDs.0: unknown member PCFProvisioningInstructions", edit((b) => (first(b, "DIDs")["PCFProvisioningInstructions"] = "forward all"))],
    ["business-permanent-call-forwards.json", "a Label on a forwarding instruction", "ForwardingInstructions.0: unknown member Label", edit((b) => (first(b, "ForwardingInstructions")["Label"] = "Desk"))],
    ["dids.json", "FileRespOrgForm on a regular form", "PortForm: unknown member FileRespOrgForm", edit((b) => (form(b)["FileRespOrgForm"] = []))],
    ["tollfree-dids.json", "NumbersToRemain on a toll-free form", "PortForm: unknown member NumbersToRemain", edit((b) => (form(b)["NumbersToRemain"] = []))],
    [
      "permanent-call-forwards.json",
      "NumbersToPort missing a number",
      "Forwards.1.Number.Number: 7805550181 is not in PortForm.NumbersToPort",
      edit((b) => (form(b)["NumbersToPort"] = [7805550180])),
    ],
  ] as const)("refuses %s with %s as %j", async (file, _what, message, change) => {
    const res = await post(golden(file).path, change(readGolden(file)));
    expect(res).toEqual({ status: 400, json: { ID: "BadRequest", Message: message } });
  });
});
