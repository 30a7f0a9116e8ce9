import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
let dir: string;

beforeEach(async () => {
  sandbox = await startSandbox();
  dir = await tempDir();
});
afterEach(async () => {
  await sandbox.close();
});

/** A customer's sheet as they keep it: a title, their own headers, a column portin does not know. */
const CUSTOMER_SHEET = [
  "Acme Plumbing - numbers to port (wave 3),,,,,",
  ",,,,,",
  "Phone #,Pilot #,Account Holder,City,Province,Notes",
  "416-555-0101,4165550100,Acme Plumbing Ltd.,Toronto,ON,main line",
  "416-555-0102,4165550100,Acme Plumbing Ltd.,Toronto,ON,",
  "",
].join("\r\n");

const PORT_FORM = {
  CustomerAccountNumber: "ACME-1",
  CustomerStreetNumber: "12",
  CustomerStreetName: "Front St",
  CustomerProvince: "ON",
  CustomerPostalCode: "M5J 2N1",
  CustomerCountry: "CA",
  EmailAddress: "it@acme.ca",
  CurrentProvider: 17,
};

describe("a customer's sheet with their own headers", () => {
  it("is read by status as submit read it: the same mapping, so each row finds its order", async () => {
    const sheet = await writeSheet(dir, "acme.csv", CUSTOMER_SHEET);
    const defaults = join(dir, "acme.json");
    await writeFile(defaults, JSON.stringify({ columns: { "Phone #": "number", "Pilot #": "pilot_number", "Account Holder": "portform.CustomerName", City: "portform.CustomerCity" }, portForm: PORT_FORM }));
    const state = join(dir, "s.jsonl");
    expect((await runCli(["submit", sheet, "--defaults", defaults, "--state", state, ...against(sandbox)])).code).toBe(0);

    const status = await runCli(["status", sheet, "--defaults", defaults, "--state", state, ...against(sandbox)]);
    expect(status.code, status.stderr).toBe(0);
    const report = await readResults(join(dir, "acme.status.csv"));
    expect(report.map((row) => [row["Phone #"], row["status"], row["status_ticket"]])).toEqual([
      ["416-555-0101", "SUBMITTED", sandbox.accepted()[0]?.ticket],
      ["416-555-0102", "SUBMITTED", sandbox.accepted()[0]?.ticket],
    ]);
  });

  it("reads a --defaults file that can be read only once (a pipe): its mapping and its members both hold", async () => {
    const sheet = await writeSheet(dir, "acme.csv", CUSTOMER_SHEET);
    const defaults = JSON.stringify({ columns: { "Phone #": "number", "Pilot #": "pilot_number", "Account Holder": "portform.CustomerName", City: "portform.CustomerCity" }, portForm: PORT_FORM });
    // A named pipe, as `--defaults <(…)` gives: written once, so a second read would wait for ever.
    const pipe = join(dir, "defaults.fifo");
    execFileSync("mkfifo", [pipe]);
    const written = writeFile(pipe, defaults);
    const run = await runCli(["plan", sheet, "--defaults", pipe, ...against(sandbox)]);
    await written;
    expect(run.code, run.stderr).toBe(0);
    expect((await readResults(join(dir, "acme.plan.csv"))).map((row) => row["result_status"])).toEqual(["planned", "planned"]);
  });

  it("runs unchanged with a column mapping, and says which columns are never sent", async () => {
    const sheet = await writeSheet(dir, "acme.csv", CUSTOMER_SHEET);
    const defaults = join(dir, "acme.json");
    await writeFile(
      defaults,
      JSON.stringify({
        columns: { "Phone #": "number", "Pilot #": "pilot_number", "Account Holder": "portform.CustomerName", City: "portform.CustomerCity" },
        portForm: PORT_FORM,
      }),
    );
    const run = await runCli(["submit", sheet, "--defaults", defaults, "--state", join(dir, "s.jsonl"), ...against(sandbox)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`portin: ${sheet}: the header is on line 3; lines 1-2 above it, a title, are not read as rows\n`);
    expect(run.stderr).toContain("portin: copied to the results, never sent: Province (portform.CustomerProvince?), Notes\n");
    expect(run.stderr).toContain('portin: to send it, map it in the --defaults file: "columns": {"Province":"portform.CustomerProvince"}\n');

    const [request] = sandbox.accepted();
    expect(request?.numbers).toEqual(["4165550101", "4165550102"]);
    expect(request?.body).toMatchObject({ PilotNumber: 4165550100, PortForm: { CustomerName: "Acme Plumbing Ltd.", CustomerCity: "Toronto" } });
    // The results keep the sheet's own header and cells, one row per data row, title left out.
    const results = await readResults(join(dir, "acme.results.csv"));
    expect(results.map((r) => [r["Phone #"], r["Notes"], r.result_status])).toEqual([
      ["416-555-0101", "main line", "submitted"],
      ["416-555-0102", "", "submitted"],
    ]);
  });

  it("lists unknown columns with their likely mapping before anything connects, even when the sheet is refused", async () => {
    const sheet = await writeSheet(dir, "acme.csv", CUSTOMER_SHEET);
    const run = await runCli(["plan", sheet]);
    expect(run.code).toBe(2);
    // Without a mapping there is no number column: the title is named, and nothing connected.
    expect(run.stderr).toBe(
      `portin: ${sheet}: no number column in lines 1-5 (line 1 reads "Acme Plumbing - numbers to port (wave 3)"); ` +
        'name the column of numbers to port one of "number", "telephone_number", "phone_number", "tn", or map yours in --defaults "columns"; ' +
        '"Phone #" (line 3) looks like it: map it with --defaults {"columns":{"Phone #":"number"}}\n',
    );
  });

  it("refuses a mapping to an unknown member at start, with the closest name, and sends nothing", async () => {
    const sheet = await writeSheet(dir, "acme.csv", CUSTOMER_SHEET);
    const defaults = join(dir, "acme.json");
    await writeFile(defaults, JSON.stringify({ columns: { "Phone #": "number", "Account Holder": "portform.CustomerNme" }, portForm: PORT_FORM }));
    const run = await runCli(["submit", sheet, "--defaults", defaults, ...against(sandbox)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `portin: --defaults file ${JSON.stringify(defaults)}: columns."Account Holder": "portform.CustomerNme" names no PortForm member; did you mean "portform.CustomerName"?\n`,
    );
    expect(sandbox.accepted()).toEqual([]);
  });
});
