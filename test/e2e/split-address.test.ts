/**
 * A "Service Address" column split into the PortForm's street members by `{"split": "address"}`
 * in the --defaults "columns" map (docs/contract.md §3), through the built CLI: what the
 * sandbox receives, and a cell that cannot be split named on its row.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const HEADER = "Phone #,pilot_number,Account,Customer,Service Address,City,Province,Postal Code,Country,Email,Carrier";
const rest = "Toronto,ON,M5H 1J9,CA,it@acme.ca,Bell Canada";

it("sends the street number, name, type, direction and unit split from one cell, and names a cell it cannot split", async () => {
  const dir = await tempDir();
  const sheet = await writeSheet(
    dir,
    "acme.csv",
    `${HEADER}\n4165553001,4165550100,ACME-1,Acme,"120 King St W, Suite 400",${rest}\n4165553002,4165550100,ACME-2,Acme,"King St W, Suite 400",${rest}\n`,
  );
  const defaults = join(dir, "acme.defaults.json");
  const columns = {
    "Phone #": "number",
    Account: "portform.CustomerAccountNumber",
    Customer: "portform.CustomerName",
    "Service Address": { split: "address" },
    City: "portform.CustomerCity",
    Province: "portform.CustomerProvince",
    "Postal Code": "portform.CustomerPostalCode",
    Country: "portform.CustomerCountry",
    Email: "portform.EmailAddress",
    Carrier: "portform.CurrentProvider",
  };
  await writeFile(defaults, JSON.stringify({ columns }));
  const run = await runCli(["submit", sheet, "--defaults", defaults, ...against(sandbox)]);
  expect(run.code).toBe(1);
  const [post] = sandbox.received();
  expect(post?.body).toMatchObject({
    PortForm: { CustomerStreetNumber: "120", CustomerStreetName: "King", CustomerStreetType: "St", CustomerStreetDirection: "W", CustomerUnit: "400", NumbersToPort: [4165553001] },
  });
  expect(sandbox.received()).toHaveLength(1);
  const rows = await readResults(join(dir, "acme.results.csv"));
  expect(rows.map((row) => [row["Service Address"], row.result_status])).toEqual([
    ["120 King St W, Suite 400", "submitted"],
    ["King St W, Suite 400", "invalid"],
  ]);
  expect(rows[1]?.result_message).toContain('Service Address "King St W, Suite 400" cannot be split into a street address (it does not start with a civic number)');
});

it("refuses a split address beside a column that gives one of its members", async () => {
  const dir = await tempDir();
  const sheet = await writeSheet(dir, "acme.csv", "number,Service Address,portform.CustomerUnit\n4165553001,1 Main St,4\n");
  const defaults = join(dir, "acme.defaults.json");
  await writeFile(defaults, JSON.stringify({ columns: { "Service Address": { split: "address" } } }));
  const run = await runCli(["plan", sheet, "--defaults", defaults, ...against(sandbox)]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('column 2 "Service Address" is split into the street members, and column 3 "portform.CustomerUnit" gives one of them too; keep one of them');
});
