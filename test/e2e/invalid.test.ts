import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, WITHOUT_E911_END, withoutE911, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const HEADER = [
  "rule",
  "number",
  "pilot_number",
  "offering_id",
  "portform.CustomerName",
  "portform.CurrentProvider",
  "portform.FileLetterOfAuthorization",
  "request.FaxEmail",
  "item.Account",
  "item.BusinessGroupID",
];

/** Each row breaks one rule of docs/contract.md §3; `expected` is what its result_message must say. */
const ROWS: [rule: string, cells: string, expected: RegExp][] = [
  ["valid", "416-555-3000,4165550100,,Acme,Bell Canada,,,,", new RegExp(`^Accepted${WITHOUT_E911_END}`)],
  ["not NANP", "416-555-300,4165550100,,Acme,Bell Canada,,,,", /"416-555-300" is not a valid NANP number/],
  ["not +1", "+44 20 7946 0958,4165550100,,Acme,Bell Canada,,,,", /NANP/],
  ["no target", "416-555-3001,,,Acme,Bell Canada,,,,", /no target: fill pilot_number \(a SIP trunk\) or offering_id/],
  ["two targets", "416-555-3002,4165550100,OFF-GEN-001,Acme,Bell Canada,,,,", /both/],
  ["unknown trunk", "416-555-3003,4165550111,,Acme,Bell Canada,,,,", /pilot number 4165550111 is not one of the account's SIP trunks/],
  ["unknown offering", "416-555-3004,,OFF-NOPE-1,Acme,Bell Canada,,,,", /OFF-NOPE-1/],
  ["Type outside 1..7", "416-555-3005,,OFF-LEG-009,Acme,Bell Canada,,,,", /Type 9/],
  ["toll-free on a line", "1-800-555-3006,,OFF-BUS-001,Acme,Bell Canada,,,300451,BG-1", /toll-free numbers cannot be ported onto a Type 4/],
  ["missing PortForm member", "416-555-3007,4165550100,,,Bell Canada,,,,", /missing portform\.CustomerName/],
  ["unknown provider", "416-555-3008,4165550100,,Acme,Nowhere Telecom,,,,", /Nowhere Telecom/],
  ["unreadable file", "416-555-3009,4165550100,,Acme,Bell Canada,missing-loa.pdf,,,", /missing-loa\.pdf/],
  ["missing request member", "416-555-3010,,OFF-FAX-001,Acme,Bell Canada,,,,", /missing request\.FaxEmail/],
  ["wrong type", "416-555-3011,,OFF-BUS-001,Acme,Bell Canada,,,three hundred,BG-1", /item\.Account "three hundred"/],
  ["missing item member", "416-555-3012,,OFF-BUS-001,Acme,Bell Canada,,,300451,", /missing item\.BusinessGroupID/],
  ["duplicate", "416-555-3000,4165550100,,Acme,Bell Canada,,,,", /duplicate of row 2\b/],
  ["two numbers", "4165553014;4165553015,4165550100,,Acme,Bell Canada,,,,", /^"4165553014;4165553015" holds 2 numbers \(4165553014, 4165553015\): put each number on a row of its own$/],
  ["number format", '"4,165,553,016.00",4165550100,,Acme,Bell Canada,,,,', /^"4,165,553,016\.00" is 4165553016 as a column formatted as a number shows it .*: format the number column as plain text \(Google Sheets: Format > Number > Plain text/],
  ["pilot as a number", "416-555-0100,4165550100,,Acme,Bell Canada,,,,", /^4165550100 is the pilot number of one of the account's SIP trunks, already on the service/],
  ["control character", "416-555-3017,4165550100,,Ac\u007fme,Bell Canada,,,,", /^portform\.CustomerName "Ac\\x7fme" holds a control character \(U\+007F\) at character 3, which a spreadsheet does not show: retype the cell$/],
  ["ragged", "416-555-3013,4165550100", /has 3 fields, the header has 10/],
];

it("makes each invalid row say what is wrong, sends none of them, and exits 1", async () => {
  const dir = await tempDir();
  const lines = ROWS.map(([rule, cells]) => `${rule},${cells}`);
  const sheet = await writeSheet(dir, "rules.csv", [HEADER.join(","), ...lines].join("\n") + "\n");
  // The rest of the PortForm comes from the defaults file beside the sheet.
  await writeSheet(
    dir,
    "rules.defaults.json",
    JSON.stringify({
      portForm: {
        CustomerAccountNumber: "A-1",
        CustomerStreetNumber: "1",
        CustomerStreetName: "Front St",
        CustomerCity: "Toronto",
        CustomerProvince: "ON",
        CustomerPostalCode: "M5J 2N1",
        CustomerCountry: "CA",
        EmailAddress: "it@acme.ca",
      },
      item: { Locale: "EnglishCA", SecondLocale: "None" },
    }),
  );
  const run = await runCli(["submit", sheet, ...against(sandbox)]);
  expect(run.code).toBe(1);

  const rows = await readResults(join(dir, "rules.results.csv"));
  expect(rows.map((r) => r["rule"])).toEqual(ROWS.map(([rule]) => rule));
  for (const [i, [rule, , expected]] of ROWS.entries()) {
    const row = rows[i]!;
    expect(row.result_message, rule).toMatch(expected);
    expect(row.result_status, rule).toBe(rule === "valid" ? "submitted" : "invalid");
    expect(row.result_message, rule).not.toContain("\n");
  }
  expect(sandbox.accepted().flatMap((r) => r.numbers)).toEqual(["4165553000"]);
  // A ragged row still names its number, so the results can be matched back to it.
  const ragged = rows[ROWS.findIndex(([rule]) => rule === "ragged")]!;
  expect([ragged.result_number, ragged.result_number_type]).toEqual(["4165553013", "regular"]);
});

it("makes both rows of a number that disagree on target or PortForm invalid, each naming the other, and sends neither", async () => {
  const dir = await tempDir();
  const header = "number,pilot_number,offering_id,portform.CustomerName,portform.CurrentProvider";
  const sheet = await writeSheet(
    dir,
    "two-customers.csv",
    [
      header,
      // Acme's typo carries Dubois's number, onto another trunk; then Dubois's own row, and an Acme row that agrees with itself.
      "416-555-3100,4165550100,,Acme,Bell Canada",
      "416-555-3101,4165550100,,Acme,Bell Canada",
      "416-555-3100,,OFF-GEN-001,Dubois,Bell Canada",
      "416-555-3101,4165550100,,Acme,Bell Canada",
      "416-555-3102,4165550100,,Acme,Bell Canada",
      "416-555-3102,4165550100,,Dubois,Bell Canada",
    ].join("\n") + "\n",
  );
  await writeSheet(dir, "two-customers.defaults.json", JSON.stringify({ portForm: { CustomerAccountNumber: "A-1", CustomerStreetNumber: "1", CustomerStreetName: "Front St", CustomerCity: "Toronto", CustomerProvince: "ON", CustomerPostalCode: "M5J 2N1", CustomerCountry: "CA", EmailAddress: "it@acme.ca" } }));
  const run = await runCli(["submit", sheet, "--defaults", join(dir, "two-customers.defaults.json"), ...against(sandbox)]);
  expect(run.code).toBe(1);
  const rows = await readResults(join(dir, "two-customers.results.csv"));
  const contradiction = (number: string, other: number, what: string): string =>
    `number ${number} is also on row ${other} with a different ${what}: portin cannot know which row is right; correct or remove one of them`;
  expect(rows.map((r) => [r.result_status, r.result_message])).toEqual([
    ["invalid", contradiction("4165553100", 4, "target and PortForm")],
    ["submitted", withoutE911("Accepted")],
    ["invalid", contradiction("4165553100", 2, "target and PortForm")],
    ["invalid", "duplicate of row 3 (4165553101)"],
    ["invalid", contradiction("4165553102", 7, "PortForm")],
    ["invalid", contradiction("4165553102", 6, "PortForm")],
  ]);
  const sent = sandbox.received().flatMap((post) => (post.body as { PortForm: { NumbersToPort: number[] } }).PortForm.NumbersToPort);
  expect(sent).toEqual([4165553101]);
});
