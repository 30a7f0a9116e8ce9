import { describe, expect, it } from "vitest";
import { openSheet } from "../../src/input/sheet.js";
import type { ColumnRole } from "../../src/input/types.js";
import { refusal, sheetFile } from "./helpers.js";

async function rolesOf(header: string): Promise<ColumnRole[]> {
  const { layout } = await openSheet(sheetFile(`${header}\n`));
  return layout.columns.map((c) => c.role);
}

async function refusalOf(header: string): Promise<string> {
  const path = sheetFile(`${header}\n4165550101\n`);
  const failure = await refusal(openSheet(path));
  expect(failure).toMatchObject({ name: "InputError", exitCode: 2 });
  return failure.message.replace(path, "sheet.csv");
}

function memberOf(role: ColumnRole | undefined): string | undefined {
  return role?.kind === "member" ? `${role.member.scope}.${role.member.name}` : undefined;
}

describe("matching header names to their meaning", () => {
  it.each(["Pilot Number", "pilot-number", " PILOT_NUMBER ", "pilot_number"])("reads %j as the pilot number", async (name) => {
    expect((await rolesOf(`number,${name}`))[1]).toEqual({ kind: "pilot" });
  });

  it.each(["number", "Telephone Number", "phone-number", "TN", " tn "])("reads %j as the number", async (name) => {
    expect((await rolesOf(name))[0]).toEqual({ kind: "number" });
  });

  it("reads offering_id and group in any writing", async () => {
    expect(await rolesOf("number,Offering-ID,GROUP")).toEqual([{ kind: "number" }, { kind: "offering" }, { kind: "group" }]);
  });

  it("maps a member column to the member's own spelling, whatever its case", async () => {
    const roles = await rolesOf("number,PortForm.customerName,portform.CUSTOMERCITY,Request.faxemail,ITEM.label, item . Locale ");
    expect(roles.slice(1).map(memberOf)).toEqual([
      "portform.CustomerName",
      "portform.CustomerCity",
      "request.FaxEmail",
      "item.Label",
      "item.Locale",
    ]);
  });

  it("accepts the PortForm prefix written with a space, hyphen or underscore", async () => {
    const roles = await rolesOf("number,Port Form.CustomerName,port-form.CustomerCity");
    expect(roles.slice(1).map(memberOf)).toEqual(["portform.CustomerName", "portform.CustomerCity"]);
  });

  it("reads portform.ExtraDetails.<Key> as an ExtraDetails entry keyed exactly as written", async () => {
    const roles = await rolesOf("number,portform.ExtraDetails.Site Code,PORTFORM.extradetails.floor.wing");
    expect(roles.slice(1)).toEqual([
      { kind: "extraDetail", key: "Site Code" },
      { kind: "extraDetail", key: "floor.wing" },
    ]);
  });

  it("keeps unknown columns, empty header cells and repeated unknown names as passthrough", async () => {
    const roles = await rolesOf("number,notes,,notes,customer.name,Site Code");
    expect(roles.slice(1).map((r) => r.kind)).toEqual(["passthrough", "passthrough", "passthrough", "passthrough", "passthrough"]);
  });

  it("keeps each header cell as the user wrote it", async () => {
    const { layout } = await openSheet(sheetFile(" Number ,PortForm.customerName\n"));
    expect(layout.columns.map((c) => [c.index, c.header])).toEqual([
      [0, " Number "],
      [1, "PortForm.customerName"],
    ]);
  });
});

describe("refusing a header that cannot be used", () => {
  it("refuses an unknown PortForm member and suggests the closest one", async () => {
    expect(await refusalOf("number,a,b,c,d,e,portform.CustomerNme")).toBe(
      'sheet.csv: column 7 "portform.CustomerNme" names no PortForm member; did you mean "portform.CustomerName"?',
    );
  });

  it("suggests item and request members from their own scope", async () => {
    expect(await refusalOf("number,item.Lable")).toBe('sheet.csv: column 2 "item.Lable" names no item member; did you mean "item.Label"?');
    expect(await refusalOf("number,request.FaxMail")).toBe(
      'sheet.csv: column 2 "request.FaxMail" names no request member; did you mean "request.FaxEmail"?',
    );
  });

  it.each([
    ["portform.NumbersToPort", "the number column"],
    ["item.Number", "the number column"],
    ["item.TN", "the number column"],
    ["item.PlanID", "the offering_id column"],
    ["request.PilotNumber", "the pilot_number column"],
    ["request.OfferingID", "the offering_id column"],
  ])("refuses %s, which portin fills itself", async (header, owner) => {
    expect(await refusalOf(`number,${header}`)).toBe(
      `sheet.csv: column 2 "${header}" is filled by portin from ${owner}, not from a column; remove the column`,
    );
  });

  it("refuses a bare ExtraDetails column, which has no key", async () => {
    expect(await refusalOf("number,portform.ExtraDetails")).toBe(
      'sheet.csv: column 2 "portform.ExtraDetails" needs a key: write one column per entry, as "portform.ExtraDetails.<Key>"',
    );
  });

  it("refuses two columns that both give the number, naming both", async () => {
    expect(await refusalOf("number,note,TN")).toBe(
      'sheet.csv: column 1 "number" and column 3 "TN" both give the number; keep one of them',
    );
  });

  it("refuses two spellings of one member, naming both", async () => {
    expect(await refusalOf("number,portform.CustomerName,PortForm.customername")).toBe(
      'sheet.csv: column 2 "portform.CustomerName" and column 3 "PortForm.customername" both give PortForm.CustomerName; keep one of them',
    );
  });

  it("refuses two pilot number columns and two columns for one ExtraDetails key", async () => {
    expect(await refusalOf("number,pilot_number,Pilot Number")).toContain("both give the pilot number");
    expect(await refusalOf("number,portform.ExtraDetails.Site,PortForm.extradetails.Site")).toContain(
      'both give the ExtraDetails key "Site"',
    );
  });

  it("refuses a sheet without a number column, naming the file and the accepted names", async () => {
    expect(await refusalOf("pilot_number,note")).toBe(
      'sheet.csv: no number column; name the column of numbers to port one of "number", "telephone_number", "phone_number", "tn", or map yours in --defaults "columns"',
    );
  });
});
