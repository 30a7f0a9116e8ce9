/**
 * docs/contract.md §3 "Values the losing carrier checks", from the command line: the
 * sample sheet with one value a carrier would dispute per PortForm member
 * (fixtures/disputable.csv) planned in one run, each value normalised or refused; what the
 * service receives once normalised; the holidays asked once, and only for a sheet with dates.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { copyFixtures, DISPUTABLE } from "./fixtures.js";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, withoutE911, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
let dir: string;

beforeEach(async () => {
  // A sandbox whose calendar starts in December 2030 serves that year's holidays: the
  // fixture's Christmas Day is one of them, and its other dates still lie ahead.
  sandbox = await startSandbox({ startDate: "2030-12-01" });
  dir = await tempDir();
});
afterEach(async () => {
  await sandbox.close();
});

const holidayRequests = (): number => sandbox.served().filter((r) => r.method === "GET" && r.path === "/Holidays").length;

describe("values a losing carrier would dispute", () => {
  it("reads writings outside ASCII through the built CLI as the validator does: a date in French, a range joined by « à »", async () => {
    const sheet = await writeSheet(dir, "french.csv", `number,pilot_number,${FORM_HEADER},portform.RequestedPortDate\n416-555-2001 à 2002,4165550100,${FORM_CELLS},10 décembre 2030\n`);
    const run = await runCli(["submit", sheet, "--expand-ranges", "--results", join(dir, "french.results.csv"), ...against(sandbox)]);
    expect(run.code, run.stderr).toBe(0);
    const rows = await readResults(join(dir, "french.results.csv"));
    expect(rows.map((r) => [r["number"], r["result_status"]])).toEqual([
      ["4165552001", "submitted"],
      ["4165552002", "submitted"],
    ]);
    const forms = sandbox.received().map((post) => (post.body as { PortForm: { NumbersToPort: number[]; RequestedPortDate: string } }).PortForm);
    expect(forms.map((form) => [form.NumbersToPort, form.RequestedPortDate])).toEqual([[[4165552001, 4165552002], "2030-12-10"]]);
  });

  it("plans the sample sheet with one disputable value per PortForm member: each one normalised or invalid, in one run", async () => {
    await copyFixtures(dir, DISPUTABLE);
    const run = await runCli(["plan", "fixtures/disputable.csv", ...against(sandbox)], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("portin plan: 15 rows: 4 planned, 11 invalid");
    const rows = await readResults(join(dir, "fixtures", "disputable.plan.csv"));
    const EVERY_PROVINCE = "AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name";
    expect(rows.map((r) => [r["notes"], r["result_status"], r["result_message"]])).toEqual([
      // Trunk numbers the sheet gives no 9-1-1 address: each planned row says so after its own words (docs/e911.md).
      ["as written: nothing to change", "planned", NO_E911_ADDRESS],
      ["province by its name", "planned", withoutE911('portform.CustomerProvince "Ontario" sent as "ON"')],
      ["province by its French name", "planned", withoutE911('portform.CustomerProvince "Québec" sent as "QC"')],
      ["postal code without its space", "planned", withoutE911('portform.CustomerPostalCode "m5h1j9" sent as "M5H 1J9"')],
      ["no such province", "invalid", `portform.CustomerProvince "XX" is not a province, territory or state (give a Canadian province or territory: ${EVERY_PROVINCE})`],
      [
        "a Québec address said to be in the US",
        "invalid",
        'portform.CustomerProvince "QC" is a Canadian province or territory, but portform.CustomerCountry is US: give a US state by its two-letter code (NY, CA, …) or its name, or fix the country; ' +
          'portform.CustomerPostalCode "H3B 4W8" is a Canadian postal code, but portform.CustomerCountry is US: give a US ZIP code such as 12345 or 12345-6789, or fix the country',
      ],
      ["a ZIP code for a Canadian address", "invalid", 'portform.CustomerPostalCode "12345" is a US ZIP code, but portform.CustomerCountry is CA: give a Canadian postal code such as M5H 1J9, or fix the country'],
      [
        "02109 stored as a number",
        "invalid",
        'portform.CustomerPostalCode "2109" looks like a US ZIP code that lost its leading zeros (the spreadsheet stored it as a number): write 02109, and format the column as text so it keeps them',
      ],
      ["an e-mail domain without a dot", "invalid", 'portform.EmailAddress "it@mapleleafdental" is not a deliverable e-mail address (its domain "mapleleafdental" has no dot): give one like it@example.com'],
      [
        "one of the extra addresses without a dot",
        "invalid",
        'portform.AdditionalEmailAddresses "reception@mapleleafdental" is not a deliverable e-mail address (its domain "mapleleafdental" has no dot): give one like it@example.com',
      ],
      ["a port date in the past", "invalid", expect.stringMatching(/^portform\.RequestedPortDate "2024-01-15" is in the past \(today is \d{4}-\d{2}-\d{2}, Eastern time\): give a business day from today on$/)],
      ["a port date on a Saturday", "invalid", 'portform.RequestedPortDate "2030-12-14" is a Saturday: ports are done on business days; give a weekday that is not a service holiday'],
      ["a port date on Christmas Day", "invalid", 'portform.RequestedPortDate "2030-12-25" is Christmas Day, a day the service ports nothing: give another business day'],
      ["no such time", "invalid", 'portform.RequestedPortTime "25:00" is not a time (HH:MM, Eastern)'],
      [
        "the portal's sign-in page saved as the letter",
        "invalid",
        'portform.FileLetterOfAuthorization file "loa-session-expired.pdf" is named as a PDF but its content is HTML text (it begins "<!DOCTYPE html> <html lang=\\"en\\"><head><title>Session expired…"): attach the document itself, not a page or file saved under its name',
      ],
    ]);
    // Read once for the whole sheet, though fourteen rows give a date.
    expect(holidayRequests()).toBe(1);
  });

  it("sends the values as carriers expect them, and never asks for holidays when no row gives a date", async () => {
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER}\n4165550101,4165550100,${FORM_CELLS.replace(",ON,M5J 2N1,", ",ontario,m5j2n1,")}\n`);
    const run = await runCli(["submit", sheet, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
    expect(run.code, run.stderr).toBe(0);
    const body = sandbox.accepted()[0]?.body as { PortForm: Record<string, unknown> };
    expect(body.PortForm).toMatchObject({ CustomerProvince: "ON", CustomerPostalCode: "M5J 2N1" });
    expect(holidayRequests()).toBe(0);
  });

  it("checks --defaults values the same way, refusing the run before anything is sent", async () => {
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,portform.CustomerName\n4165550101,4165550100,Acme\n`);
    const defaults = join(dir, "acme.defaults.json");
    const form = { CustomerAccountNumber: "A-1", CustomerStreetNumber: "12", CustomerStreetName: "Front St", CustomerCity: "Toronto", CustomerCountry: "CA", CurrentProvider: 17 };
    await writeFile(defaults, JSON.stringify({ portForm: { ...form, CustomerProvince: "Ontario", CustomerPostalCode: "m5j 2n1", EmailAddress: "it@acme" } }));
    const refused = await runCli(["submit", sheet, "--defaults", defaults, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('portForm.EmailAddress "it@acme" is not a deliverable e-mail address (its domain "acme" has no dot): give one like it@example.com');
    expect(sandbox.accepted()).toHaveLength(0);

    await writeFile(defaults, JSON.stringify({ portForm: { ...form, CustomerProvince: "Ontario", CustomerPostalCode: "m5j 2n1", EmailAddress: "it@acme.ca" } }));
    const sent = await runCli(["submit", sheet, "--defaults", defaults, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
    expect(sent.code, sent.stderr).toBe(0);
    expect((sandbox.accepted()[0]?.body as { PortForm: Record<string, unknown> }).PortForm).toMatchObject({ CustomerProvince: "ON", CustomerPostalCode: "M5J 2N1" });
  });
});
