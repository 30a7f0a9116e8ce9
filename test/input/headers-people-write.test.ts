/**
 * Headers as customers write them (docs/contract.md §3): suggestions that work when pasted, the
 * carrier and number columns under their everyday names, and a totals row under the data.
 */
import { describe, expect, it } from "vitest";
import { checkColumnMap } from "../../src/input/column-map.js";
import { likelyColumn } from "../../src/input/likely-column.js";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetRow } from "../../src/input/types.js";
import { refusal, sheetFile } from "./helpers.js";

describe("suggestions for headers people write", () => {
  it.each([
    ["Email", "portform.EmailAddress"],
    ["E-mail", "portform.EmailAddress"],
    ["Account", "portform.CustomerAccountNumber"],
    ["Carrier", "portform.CurrentProvider"],
    ["Current Carrier", "portform.CurrentProvider"],
    ["Losing carrier", "portform.CurrentProvider"],
    ["Phone #", "number"],
    ["TN", "number"],
    ["DID", "number"],
  ])("suggests %j -> %s", (header, likely) => {
    expect(likelyColumn(header)).toBe(likely);
  });

  it("suggests a PortForm member that the mapping then accepts, so the suggestion works when pasted", () => {
    const suggested = likelyColumn("Email") ?? "";
    const map = checkColumnMap("acme.defaults.json", { Email: suggested });
    expect(map.get("email")).toMatchObject({ kind: "member", member: { scope: "portform", name: "EmailAddress" } });
  });

  it.each(["Phone #", "DID", "Telephone"])("names %j with the mapping to paste when the sheet has no number column", async (header) => {
    const failure = await refusal(openSheet(sheetFile(`${header},Customer\n416-555-0101,Acme\n`)));
    expect(failure.message).toContain(`; ${JSON.stringify(header)} (line 1) looks like it: map it with --defaults {"columns":{${JSON.stringify(header)}:"number"}}`);
  });
});

async function read(text: string): Promise<{ rows: SheetRow[]; leftOut: readonly SheetRow[] }> {
  const sheet = await openSheet(sheetFile(text));
  const rows: SheetRow[] = [];
  for await (const row of sheet.rows) rows.push(row);
  return { rows, leftOut: sheet.leftOut() };
}

describe("a totals row under the data", () => {
  it.each(["Total lines,,2", "Total: 42,,", ",Grand total,2", "Sous-total,,2"])("leaves out %j as not a number row", async (totals) => {
    const { rows, leftOut } = await read(`number,site,count\n4165550101,HQ,1\n4165550102,HQ,1\n${totals}\n`);
    expect(rows.map((row) => row.cells[0])).toEqual(["4165550101", "4165550102"]);
    expect(leftOut.map((row) => row.line)).toEqual([4]);
  });

  it("keeps a row starting Total that holds a number, or that has data rows after it", async () => {
    const { rows, leftOut } = await read("number,site\n4165550101,HQ\nTotal,Annex\n4165550102,HQ\n4165550103,Total care clinic\n");
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5]);
    expect(leftOut).toEqual([]);
  });
});
