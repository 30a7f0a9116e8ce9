import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { copyFixtures } from "./fixtures.js";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { against, parseResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
let dir: string;

beforeEach(async () => {
  sandbox = await startSandbox();
  dir = await tempDir();
});
afterEach(async () => {
  await sandbox.close();
});

const HEADER =
  "number,pilot_number,offering_id,portform.CustomerAccountNumber,portform.CustomerName,portform.CustomerStreetNumber,portform.CustomerStreetName,portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider";
const FORM = "ACME-1,Café Montréal,12,Rue St-Denis,Montréal,QC,H2X 3K8,CA,it@cafe.ca,17";

const submit = (sheet: string, ...extra: string[]) => runCli(["submit", sheet, "--state", join(dir, "s.jsonl"), ...extra, ...against(sandbox)]);

describe("a sheet in the writings of the people who filled it in", () => {
  it("sends what they meant: TELUS, Y, en-CA, Canada, Excel floats, a Windows path, a date in the only order it can be read", async () => {
    await mkdir(join(dir, "LOA"));
    await writeFile(join(dir, "LOA", "acme.pdf"), "%PDF-1.4 letter of authorization");
    const sheet = await writeSheet(
      dir,
      "acme.csv",
      [
        "number,offering_id,portform.CustomerAccountNumber,portform.CustomerName,portform.CustomerStreetNumber,portform.CustomerStreetName,portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider,portform.FileLetterOfAuthorization,portform.RequestedPortDate,portform.ContactMeBLIF,item.Account,item.Enabled,item.Locale,item.SecondLocale",
        "4165552104.0,OFF-RES-001,ACME-1,Acme,12,Front St,Toronto,ON,M5J 2N1,Canada,it@acme.ca,TELUS,LOA\\acme.pdf,26/11/2030,Oui,300451.0,Y,en-CA,fr-CA",
        "",
      ].join("\n"),
    );
    const run = await submit(sheet);
    expect(run.code, run.stderr).toBe(0);
    const [request] = sandbox.accepted();
    const body = request?.body as { PortForm: Record<string, unknown>; Lines: Record<string, unknown>[] };
    expect(body.PortForm).toMatchObject({ CustomerCountry: "CA", CurrentProvider: 31, RequestedPortDate: "2030-11-26", ContactMeBLIF: true, NumbersToPort: [4165552104] });
    // The sandbox keeps an attachment as its size and digest (sandbox/keep.ts).
    const letter = Buffer.from("%PDF-1.4 letter of authorization");
    expect(body.PortForm["FileLetterOfAuthorization"]).toEqual([
      { FileName: "acme.pdf", ContentType: "application/pdf", Bytes: letter.length, Sha256: createHash("sha256").update(letter).digest("hex") },
    ]);
    expect(body.Lines[0]).toMatchObject({ Number: { Number: 4165552104 }, Account: 300451, Enabled: true, Locale: 2, SecondLocale: 5 });
  });

  it("refuses an ambiguous date and a provider name that means several, in one message for the row", async () => {
    const sheet = await writeSheet(dir, "acme.csv", `${HEADER},portform.RequestedPortDate\n4165550101,4165550100,,${FORM.replace(",17", ",Bell")},12/08/2026\n`);
    const run = await runCli(["plan", sheet]);
    expect(run.code).toBe(1);
    const [row] = parseResults(await readFile(join(dir, "acme.plan.csv"), "utf8"));
    expect(row?.result_message).toBe(
      'portform.CurrentProvider "Bell" matches several providers: Bell Canada (17), Bell MTS (80), Bell Aliant (86); write the one meant in full, or its ID; ' +
        'portform.RequestedPortDate "12/08/2026" is ambiguous: 12 August or December 8? write it as YYYY-MM-DD (2026-08-12 or 2026-12-08)',
    );
  });
});

describe("a sheet not saved as UTF-8", () => {
  const rows = [HEADER, `4165550101,4165550100,,${FORM}`, `4165550102,4165550100,,${FORM}`, ""].join("\r\n");

  it("reads a Windows-1252 sheet with --encoding windows-1252, and writes UTF-8 results with a BOM", async () => {
    const sheet = await writeSheet(dir, "cafe.csv", "");
    await writeFile(sheet, Buffer.from(rows, "latin1"));
    const refused = await submit(sheet);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text; read as windows-1252 (Excel\'s plain "CSV" on Windows) it says "4165550101,4165550100,,ACME-1,Café Montréal,');
    expect(refused.stderr).toContain('(save the sheet as "CSV UTF-8", or give --encoding windows-1252); nothing was sent');

    const run = await submit(sheet, "--encoding", "windows-1252");
    expect(run.code, run.stderr).toBe(0);
    expect((sandbox.accepted()[0]?.body as { PortForm: Record<string, unknown> }).PortForm).toMatchObject({ CustomerName: "Café Montréal", CustomerCity: "Montréal" });
    const results = await readFile(join(dir, "cafe.results.csv"));
    expect([...results.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const read = parseResults(results.toString("utf8"));
    expect(read.map((r) => [r["portform.CustomerName"], r.result_status])).toEqual([
      ["Café Montréal", "submitted"],
      ["Café Montréal", "submitted"],
    ]);
  });

  it("tells a Mac Roman sheet from a Windows-1252 one by what its letters read as, and reads it with the encoding it names", async () => {
    await copyFixtures(dir, ["input/mac-roman.csv"]);
    const sheet = join(dir, "fixtures", "input", "mac-roman.csv");
    const refused = await runCli(["plan", sheet]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${sheet}: line 2: not UTF-8 text; read as macintosh (Mac Roman, Excel's CSV on an old Mac) it says "416-555-2201,4165550100,PCF-1,Pâtisserie Côté & Fils,1200,rue Saint-Jean,Québec,QC,G1R 1S4,CA,commandes@patisserie-cote.ca,Bell Canada" (save the sheet as "CSV UTF-8", or give --encoding macintosh); nothing was sent`,
    );
    const run = await runCli(["plan", sheet, "--encoding", "macintosh"]);
    expect(run.code, run.stderr).toBe(0);
    const read = parseResults(await readFile(join(dir, "fixtures", "input", "mac-roman.plan.csv"), "utf8"));
    expect(read.map((r) => [r["portform.CustomerName"], r["portform.CustomerCity"], r.result_status])).toEqual([
      ["Pâtisserie Côté & Fils", "Québec", "planned"],
      ["Pâtisserie Côté & Fils", "Québec", "planned"],
    ]);
  });

  it("reads a UTF-16 sheet with a byte order mark without being told", async () => {
    const sheet = await writeSheet(dir, "cafe.csv", "");
    await writeFile(sheet, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rows.replace(/,/g, "\t"), "utf16le")]));
    const run = await runCli(["plan", sheet]);
    expect(run.code, run.stderr).toBe(0);
    const read = parseResults((await readFile(join(dir, "cafe.plan.csv"), "utf8")).replace(/\t/g, ","));
    expect(read.map((r) => r["portform.CustomerName"])).toEqual(["Café Montréal", "Café Montréal"]);
  });
});

describe("--expand-ranges", () => {
  const sheetText = [
    `${HEADER},notes`,
    `416-555-3720 - 3723,4165550100,,${FORM},range`,
    `4165550101,4165550100,,${FORM},after`,
    `416-555-3730 to 416-555-3731,4165550100,,${FORM},second range`,
    `4165550102,4165550100,,${FORM},last`,
    "",
  ].join("\n");

  it("sends each number of a range, each with its own results row, and copies the other rows as they are", async () => {
    const sheet = await writeSheet(dir, "ranges.csv", sheetText);
    const run = await submit(sheet, "--expand-ranges");
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.accepted().flatMap((r) => r.numbers)).toEqual([
      "4165553720",
      "4165553721",
      "4165553722",
      "4165553723",
      "4165550101",
      "4165553730",
      "4165553731",
      "4165550102",
    ]);
    const results = parseResults(await readFile(join(dir, "ranges.results.csv"), "utf8"));
    expect(results.map((r) => [r.number, r.notes, r.result_number, r.result_status])).toEqual([
      ["4165553720", "range", "4165553720", "submitted"],
      ["4165553721", "range", "4165553721", "submitted"],
      ["4165553722", "range", "4165553722", "submitted"],
      ["4165553723", "range", "4165553723", "submitted"],
      ["4165550101", "after", "4165550101", "submitted"],
      ["4165553730", "second range", "4165553730", "submitted"],
      ["4165553731", "second range", "4165553731", "submitted"],
      ["4165550102", "last", "4165550102", "submitted"],
    ]);
  });

  it("without it, makes a range row invalid, saying how to expand it", async () => {
    const sheet = await writeSheet(dir, "ranges.csv", sheetText);
    const run = await runCli(["plan", sheet]);
    expect(run.code).toBe(1);
    const results = parseResults(await readFile(join(dir, "ranges.plan.csv"), "utf8"));
    expect(results.map((r) => r.result_message)).toEqual([
      '"416-555-3720 - 3723" is a range of 4 numbers: pass --expand-ranges to port each of them',
      NO_E911_ADDRESS,
      '"416-555-3730 to 416-555-3731" is a range of 2 numbers: pass --expand-ranges to port each of them',
      NO_E911_ADDRESS,
    ]);
  });

  it("makes a trunk's own pilot number, taken in by a range, invalid: it is on the service already", async () => {
    const sheet = await writeSheet(dir, "pilot.csv", `${HEADER}\n416-555-0099 to 0101,4165550100,,${FORM}\n`);
    const run = await runCli(["plan", sheet, "--expand-ranges"]);
    const results = parseResults(await readFile(join(dir, "pilot.plan.csv"), "utf8"));
    expect(run.code).toBe(1);
    expect(results.map((r) => [r.result_number, r.result_status, r.result_message])).toEqual([
      ["4165550099", "planned", NO_E911_ADDRESS],
      ["4165550100", "invalid", "4165550100 is the pilot number of one of the account's SIP trunks, already on the service: leave it out of the sheet"],
      ["4165550101", "planned", NO_E911_ADDRESS],
    ]);
  });

  it("refuses a range that ends before it starts", async () => {
    const sheet = await writeSheet(dir, "ranges.csv", `${HEADER}\n416-555-3729 - 3720,4165550100,,${FORM}\n`);
    const run = await runCli(["plan", sheet, "--expand-ranges"]);
    const [row] = parseResults(await readFile(join(dir, "ranges.plan.csv"), "utf8"));
    expect(run.code).toBe(1);
    expect(row?.result_message).toBe('"416-555-3729 - 3720" is not a range: it ends (4165553720) before it starts (4165553729)');
  });
});
