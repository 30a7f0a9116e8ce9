import { describe, expect, it } from "vitest";
import { checkColumnMap } from "../../src/input/column-map.js";
import { likelyColumn, unsentColumns } from "../../src/input/likely-column.js";
import { openSheet } from "../../src/input/sheet.js";
import { readAll, refusal, sheetFile } from "./helpers.js";

const WHERE = '--defaults file "d.json"';

function roles(header: string, mapping: Record<string, string | null>) {
  return openSheet(sheetFile(`${header}\n`), { columns: checkColumnMap(WHERE, mapping) }).then(({ layout }) =>
    layout.columns.map((c) => (c.role.kind === "member" ? `${c.role.member.scope}.${c.role.member.name}` : c.role.kind)),
  );
}

describe("a customer's own headers, mapped in --defaults \"columns\"", () => {
  it("reads Phone # as the number and Account Holder as portform.CustomerName, whatever their case and spacing", async () => {
    expect(await roles("PHONE #,account holder , Pilot", { "Phone #": "number", "Account Holder": "portform.CustomerName", Pilot: "pilot_number" })).toEqual([
      "number",
      "portform.CustomerName",
      "pilot",
    ]);
  });

  it("maps to ExtraDetails entries, item and request members, and null keeps a column unsent without listing it", async () => {
    const mapping = { Site: "portform.ExtraDetails.Site", Ext: "item.Extension", Fax: "request.FaxEmail", Notes: null };
    expect(await roles("number,Site,Ext,Fax,Notes,Other", mapping)).toEqual(["number", "extraDetail", "item.Extension", "request.FaxEmail", "passthrough", "passthrough"]);
    const { layout } = await openSheet(sheetFile("number,Notes,Other\n"), { columns: checkColumnMap(WHERE, mapping) });
    expect(unsentColumns(layout)).toEqual([{ header: "Other" }]);
  });

  it("refuses, every problem at once, mappings to unknown members or to no column, with the closest name", () => {
    expect(() => checkColumnMap(WHERE, { "Phone #": "numbr", Holder: "portform.CustomerNme", X: 3, Y: "item.Acount" })).toThrow(
      `${WHERE}: columns."Phone #": "numbr" is not a portin column; did you mean "number"?; ` +
        `columns."Holder": "portform.CustomerNme" names no PortForm member; did you mean "portform.CustomerName"?; ` +
        `columns."X": must name a portin column (e.g. "number", "portform.CustomerName") or be null, not 3; ` +
        `columns."Y": "item.Acount" names no item member; did you mean "item.Account"?`,
    );
  });

  it("refuses a mapping that makes two columns give one thing, naming both", async () => {
    const failure = await refusal(openSheet(sheetFile("Phone #,number\n"), { columns: checkColumnMap(WHERE, { "Phone #": "number" }) }));
    expect(failure.message).toMatch(/column 1 "Phone #" and column 2 "number" both give the number; keep one of them$/);
  });
});

describe("columns that are copied but never sent", () => {
  it.each([
    ["Pilot #", "pilot_number"],
    ["Customer Name", "portform.CustomerName"],
    ["Phone #", "number"],
    ["Telephone No.", "number"],
    ["City", "portform.CustomerCity"],
    ["Postal Code", "portform.CustomerPostalCode"],
    ["Offering", "offering_id"],
    ["Pilto Number", "pilot_number"],
    ["Fax E-mail", "request.FaxEmail"],
  ])("suggests %j -> %s", (header, likely) => {
    expect(likelyColumn(header)).toBe(likely);
  });

  it.each(["Account Holder", "notes", "Site", "Contact"])("suggests nothing for %j, which is like no column in particular", (header) => {
    expect(likelyColumn(header)).toBeUndefined();
  });

  it("lists them once, without a suggestion that another column already gives", async () => {
    const { layout } = await openSheet(sheetFile("number,Pilot #,Customer Name,portform.CustomerName,notes,\n"));
    expect(unsentColumns(layout)).toEqual([{ header: "Pilot #", likely: "pilot_number" }, { header: "Customer Name" }, { header: "notes" }]);
  });
});

describe("a title row above the header", () => {
  it("finds the header below a title and a blank line, and numbers the data rows from it", async () => {
    const path = sheetFile("Acme Plumbing - numbers to port,,\n,,\nnumber,pilot_number,notes\n4165550101,4165550100,a\n4165550102,4165550100,b\n");
    const { layout, rows } = await readAll(path);
    expect(layout.header).toEqual(["number", "pilot_number", "notes"]);
    expect(layout.headerLine).toBe(3);
    expect(rows.map((r) => [r.index, r.line, r.cells[2]])).toEqual([
      [0, 4, "a"],
      [1, 5, "b"],
    ]);
  });

  it("reads the delimiter from the header, not from a title without any", async () => {
    const { layout, rows } = await readAll(sheetFile("Numbers to port\nnumber;pilot_number\n4165550101;4165550100\n"));
    expect(layout.delimiter).toBe(";");
    expect(rows[0]?.cells).toEqual(["4165550101", "4165550100"]);
  });

  it("re-reads each data row's own text below a title, for the results' verbatim copy", async () => {
    const path = sheetFile("Title,,\nnumber,pilot_number,notes\n4165550101,4165550100,first\n\n4165550102,4165550100,second\n");
    const sheet = await openSheet(path);
    for await (const row of sheet.rows) void row;
    const raw = await sheet.reread();
    expect(raw).not.toBeNull();
    expect((await raw!.read(0))?.toString()).toBe("4165550101,4165550100,first");
    expect((await raw!.read(1))?.toString()).toBe("4165550102,4165550100,second");
    await raw!.close();
  });

  it("names the first line in the refusal when no row of the first ten has a number column", async () => {
    const path = sheetFile(`Acme Plumbing - wave 3,,\n${"a,b,c\n".repeat(12)}`);
    const failure = await refusal(openSheet(path));
    expect(failure.message).toBe(
      `${path}: no number column in lines 1-10 (line 1 reads "Acme Plumbing - wave 3"); name the column of numbers to port one of "number", "telephone_number", "phone_number", "tn", or map yours in --defaults "columns"`,
    );
  });

  it("still refuses an unknown member in the first row at once", async () => {
    const failure = await refusal(openSheet(sheetFile("number,portform.CustomerNme\n")));
    expect(failure.message).toMatch(/names no PortForm member; did you mean "portform.CustomerName"\?$/);
  });
});
