import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { copyFixtures, fixture, SAMPLE } from "./fixtures.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, parseResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
let dir: string;

beforeEach(async () => {
  sandbox = await startSandbox();
  dir = await tempDir();
});
afterEach(async () => {
  await sandbox.close();
});

const numbersSent = () => sandbox.accepted().flatMap((r) => r.numbers);

describe("portin submit on the sample sheet", () => {
  it("reaches each of the ten operations with the right body and reports the sample's invalid rows", async () => {
    const results = join(dir, "sample.results.csv");
    await copyFixtures(dir, SAMPLE);
    const run = await runCli(["submit", "fixtures/sample.csv", "--defaults", "fixtures/sample.defaults.json", "--results", results, "--state", join(dir, "s.jsonl"), ...against(sandbox)], { cwd: dir });
    expect(run.stderr).not.toContain(sandbox.password === "sandbox" ? "sandbox:sandbox" : sandbox.password);
    expect(run.code).toBe(1);

    const rows = await readResults(results);
    expect(rows.map((r) => r.result_status).filter((s) => s === "invalid")).toHaveLength(4);
    expect(rows.every((r) => r.result_status === "submitted" || r.result_status === "invalid")).toBe(true);

    expect(sandbox.accepted()).toHaveLength(13);
    const byOperation = new Map(sandbox.accepted().map((r) => [r.operation, r]));
    expect([...byOperation.keys()].sort()).toEqual([
      "business-lines",
      "business-permanent-call-forwards",
      "dids",
      "general-child-products",
      "general-products",
      "permanent-call-forwards",
      "residential-lines",
      "tollfree-dids",
      "tollfree-permanent-call-forwards",
      "virtual-faxes",
    ]);

    const businessLines = byOperation.get("business-lines")!.body as { Lines: unknown[]; PortForm: Record<string, unknown> };
    expect(businessLines.Lines[0]).toEqual({
      Number: { Number: 4165550112 },
      PlanID: "OFF-BUS-001",
      Account: 300451,
      BusinessGroupID: "BG-MAPLE-01",
      Label: "Lab",
      Locale: 2,
      SecondLocale: 5,
    });
    expect(businessLines.PortForm).toMatchObject({
      CustomerName: "Maple Leaf Dental Clinics Inc.",
      CurrentProvider: 17,
      SubmitterPhoneNumber: 4165550199,
      NumbersToPort: [4165550112, 4165550113, 4165550114],
    });
    // The sandbox keeps an attachment as the size and SHA-256 of what the base64 it received decodes to.
    const pdf = await readFile(fixture("loa-maple-leaf-dental.pdf"));
    expect(businessLines.PortForm["FileLetterOfAuthorization"]).toEqual([
      { FileName: "loa-maple-leaf-dental.pdf", ContentType: "application/pdf", Bytes: pdf.length, Sha256: createHash("sha256").update(pdf).digest("hex") },
    ]);

    const forwards = byOperation.get("tollfree-permanent-call-forwards")!.body as { Forwards: unknown[]; PortForm: Record<string, unknown> };
    expect(forwards.PortForm["CurrentProvider"]).toBe(42); // "Vidéotron", resolved by name
    expect(forwards.Forwards).toEqual([
      { Number: { Number: 8005550140 }, PlanID: "OFF-PCF-001", Account: 300877, Enabled: true, CallForwardingNumber: 5145550101, PCFProvisioningInstructions: "Forward to reception, French greeting" },
      { Number: { Number: 8005550141 }, PlanID: "OFF-PCF-001", Account: 300877, Enabled: true, CallForwardingNumber: 5145550103, PCFProvisioningInstructions: "Forward to Me Tremblay" },
    ]);
    expect(byOperation.get("virtual-faxes")!.body).toMatchObject({ OfferingID: "OFF-FAX-001", FaxEmail: "claims@mapleleafdental.ca" });
    expect(byOperation.get("general-child-products")!.body).toMatchObject({ OfferingID: "OFF-GCH-001", ParentSubscriptionID: "SUB-PCR-0041" });
    expect(byOperation.get("business-permanent-call-forwards")!.body).toMatchObject({
      OfferingID: "OFF-BPCF-001",
      BusinessGroupSubscriptionID: "BGS-DUBOIS-2291",
      ForwardingInstructions: [{ TN: 5145550150, ForwardingTN: 5145550101 }, { TN: 5145550151, ForwardingTN: 5145550102 }],
    });

    // Every accepted number was sent exactly once, and each submitted row carries its request's ticket.
    expect(new Set(numbersSent()).size).toBe(numbersSent().length);
    const ticketOf = new Map(sandbox.accepted().flatMap((r) => r.numbers.map((n) => [n, r.ticket] as const)));
    for (const row of rows.filter((r) => r.result_status === "submitted")) {
      expect(row.result_ticket).toBe(ticketOf.get(row.result_number!));
      expect(row.result_http_status).toBe("200");
    }
  });

  it("runs on the built-in sandbox without --base-url and says so", async () => {
    const results = join(dir, "out.csv");
    // In a copy: the built-in sandbox keeps its orders beside the sheet, and the repository's
    // fixtures must stay as they are for the tests that run beside this one.
    await copyFixtures(dir, SAMPLE);
    const run = await runCli(["submit", "fixtures/sample.csv", "--defaults", "fixtures/sample.defaults.json", "--results", results], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/built-in sandbox at http:\/\/127\.0\.0\.1:\d+; nothing real is ported/);
    const rows = await readResults(results);
    expect(rows.filter((r) => r.result_status === "submitted")).toHaveLength(33);
  });
});

describe("grouping and cutting", () => {
  it("cuts 250 numbers for one trunk into requests of 100, 100 and 50, in input order", async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `416555${String(1000 + i)},4165550100,${FORM_CELLS}`);
    const sheet = await writeSheet(dir, "many.csv", `number,pilot_number,${FORM_HEADER}\n${lines.join("\n")}\n`);
    const run = await runCli(["submit", sheet, "--concurrency", "1", ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(sandbox.accepted().map((r) => r.numbers.length)).toEqual([100, 100, 50]);
    expect(numbersSent()).toEqual(Array.from({ length: 250 }, (_, i) => `416555${1000 + i}`));
    const rows = await readResults(join(dir, "many.results.csv"));
    expect(rows.map((r) => r.result_batch)).toEqual(Array.from({ length: 250 }, (_, i) => String(Math.floor(i / 100) + 1)));
  });

  it("keeps toll-free numbers, other targets and other group labels in requests of their own", async () => {
    const sheet = await writeSheet(
      dir,
      "mixed.csv",
      [
        `number,pilot_number,group,${FORM_HEADER}`,
        `416-555-1001,4165550100,,${FORM_CELLS}`,
        `1-888-555-1002,4165550100,,${FORM_CELLS}`,
        `514-555-1003,5145550100,,${FORM_CELLS}`,
        `416-555-1004,4165550100,later,${FORM_CELLS}`,
        `416-555-1005,4165550100,,${FORM_CELLS}`,
      ].join("\n"),
    );
    const run = await runCli(["submit", sheet, "--concurrency", "1", ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(sandbox.accepted().map((r) => [r.operation, r.numbers])).toEqual([
      ["dids", ["4165551001", "4165551005"]],
      ["tollfree-dids", ["8885551002"]],
      ["dids", ["5145551003"]],
      ["dids", ["4165551004"]],
    ]);
  });
});

describe("portin plan", () => {
  it("plans every request and sends nothing", async () => {
    const results = join(dir, "plan.csv");
    await copyFixtures(dir, SAMPLE);
    const run = await runCli(["plan", "fixtures/sample.csv", "--defaults", "fixtures/sample.defaults.json", "--results", results, "--state", join(dir, "s.jsonl"), ...against(sandbox)], { cwd: dir });
    expect(run.code).toBe(1);
    expect(sandbox.received().filter((r) => r.path !== "/_sandbox/requests")).toEqual([]);
    const rows = await readResults(results);
    const planned = rows.filter((r) => r.result_status === "planned");
    expect(planned).toHaveLength(33);
    // 13 homogeneous requests: see the sample's customers, targets, kinds and phases.
    expect(new Set(planned.map((r) => r.result_batch)).size).toBe(13);
  });
});

describe("input and results", () => {
  it("keeps input order and the original columns, masks passwords and defuses formulas", async () => {
    const sheet = await writeSheet(
      dir,
      "cols.csv",
      [
        `Site,number,pilot_number,item.SipPassword,notes,${FORM_HEADER}`,
        `HQ,+1 (416) 555-1011,4165550100,hunter2,"=HYPERLINK(""http://x"")",${FORM_CELLS}`,
        `HQ,416555101,4165550100,,@mention,${FORM_CELLS}`,
        `Annex,416-555-1012,4165550100,s3cret,-rm,${FORM_CELLS}`,
      ].join("\n"),
    );
    const results = join(dir, "cols.out.csv");
    const run = await runCli(["submit", sheet, "--results", results, ...against(sandbox)]);
    expect(run.code).toBe(1);
    const text = await readFile(results, "utf8");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("s3cret");
    const rows = parseResults(text);
    expect(Object.keys(rows[0]!).slice(0, 5)).toEqual(["Site", "number", "pilot_number", "item.SipPassword", "notes"]);
    expect(rows.map((r) => [r["number"], r["item.SipPassword"], r["notes"], r.result_status])).toEqual([
      ["+1 (416) 555-1011", "***", `'=HYPERLINK("http://x")`, "submitted"],
      ["416555101", "", "'@mention", "invalid"],
      ["416-555-1012", "***", "'-rm", "submitted"],
    ]);
    // The password itself still reached the service: masking is for the results only.
    expect(sandbox.accepted()[0]!.body).toMatchObject({ DIDs: [{ SipPassword: "hunter2" }, { SipPassword: "s3cret" }] });
  });

  it("reads standard input and writes the results to standard output", async () => {
    const csv = `number;pilot_number;${FORM_HEADER.replaceAll(",", ";")}\n416-555-1021;4165550100;${FORM_CELLS.replaceAll(",", ";")}\n`;
    const run = await runCli(["submit", "-", ...against(sandbox)], { stdin: csv });
    expect(run.code).toBe(0);
    const rows = parseResults(run.stdout.replaceAll(";", ","));
    expect(rows.map((r) => [r["number"], r.result_status, r.result_operation])).toEqual([
      ["416-555-1021", "submitted", "POST /v2/NumberPorts/Inbound/DIDs"],
    ]);
  });
});

describe("sheets as spreadsheet programs save them", () => {
  it("puts a row naming loa.pdf and a row taking loa.pdf from --defaults in one request", async () => {
    await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 signed");
    await writeSheet(dir, "loa.defaults.json", JSON.stringify({ portForm: { FileLetterOfAuthorization: "loa.pdf" } }));
    const sheet = await writeSheet(
      dir,
      "loa.csv",
      [`number,pilot_number,portform.FileLetterOfAuthorization,${FORM_HEADER}`, `416-555-1031,4165550100,loa.pdf,${FORM_CELLS}`, `416-555-1032,4165550100,,${FORM_CELLS}`].join("\n"),
    );
    const run = await runCli(["submit", sheet, ...against(sandbox)]);
    expect(run.code).toBe(0);
    expect(sandbox.accepted().map((r) => r.numbers)).toEqual([["4165551031", "4165551032"]]);
  });

  it("skips the blank-looking lines an Excel export ends with, so a clean sheet exits 0", async () => {
    const sheet = await writeSheet(
      dir,
      "excel.csv",
      [`number,pilot_number,${FORM_HEADER}`, `416-555-1041,4165550100,${FORM_CELLS}`, ",,,,,,,,,,,", `416-555-1042,4165550100,${FORM_CELLS}`, ",,,,,,,,,,,", " ,,,,,,,,,,,", ""].join("\r\n"),
    );
    const run = await runCli(["submit", sheet, ...against(sandbox)]);
    expect(run.code).toBe(0);
    const rows = await readResults(join(dir, "excel.results.csv"));
    expect(rows.map((r) => [r["number"], r.result_status])).toEqual([
      ["416-555-1041", "submitted"],
      ["416-555-1042", "submitted"],
    ]);
  });

  it("refuses a Windows-1252 sheet whole, naming its first line that is not UTF-8, and sends nothing", async () => {
    const sheet = join(dir, "cp1252.csv");
    const text = [`number,pilot_number,${FORM_HEADER}`, `416-555-1051,4165550100,${FORM_CELLS}`, `416-555-1052,4165550100,${FORM_CELLS.replace("Acme Plumbing", "Café Montréal")}`].join("\r\n");
    await writeFile(sheet, Buffer.from(text, "latin1"));
    const run = await runCli(["submit", sheet, ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${sheet}: line 3: not UTF-8 text; read as windows-1252 (Excel's plain "CSV" on Windows) it says "416-555-1052,4165550100,ACME-1,Café Montréal,12,Front St,Toronto,ON,M5J 2N1,CA,it@acme.ca,Bell Canada" (save the sheet as "CSV UTF-8", or give --encoding windows-1252); nothing was sent`);
    expect(sandbox.received()).toEqual([]);
  });
});
