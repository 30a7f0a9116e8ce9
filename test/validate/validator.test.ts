import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchColumns } from "../../src/input/columns.js";
import type { SheetLayout, SheetRow } from "../../src/input/types.js";
import type { Members } from "../../src/catalog/members.js";
import { NO_DEFAULTS } from "../../src/validate/defaults.js";
import type { ReadFile } from "../../src/validate/files.js";
import type { CheckedRow, Defaults, InvalidRow, Lookups, ValidRow } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { NO_HOLIDAYS } from "../../src/validate/port-date.js";
import { PORT_FORM } from "../support/port-form.js";

const LOOKUPS: Lookups = {
  trunks: [
    { pilotNumber: "4165550000", label: "HQ trunk" },
    { pilotNumber: "4165550001", label: "Branch" },
  ],
  offerings: [
    { offeringId: "GP-1", type: 1, name: "General" },
    { offeringId: "GCP-2", type: 2, name: "Child" },
    { offeringId: "RES-3", type: 3, name: "Home line" },
    { offeringId: "BL-4", type: 4, name: "Business line" },
    { offeringId: "PCF-5", type: 5, name: "Forward" },
    { offeringId: "BPCF-6", type: 6, name: "Business forward" },
    { offeringId: "FAX-7", type: 7, name: "Fax" },
    { offeringId: "ODD-9", type: 9, name: "Mystery" },
  ],
  providers: [
    { id: 17, name: "Bell Canada" },
    { id: 12, name: "Rogers" },
    { id: 40, name: "Fido" },
    { id: 41, name: "FIDO" },
  ],
};

const WITH_CUSTOMER: Defaults = { portForm: PORT_FORM, request: {}, item: {} };

/** The layout the reader would hand over for this header: columns matched as `openSheet` matches them. */
function layoutOf(header: readonly string[], baseDir = "/nowhere"): SheetLayout {
  return { source: "sheet.csv", baseDir, delimiter: ",", header, columns: matchColumns("sheet.csv", header) };
}

/** Rows as a CSV would give them: data starts on line 2. */
function rowsOf(records: readonly (readonly string[])[]): SheetRow[] {
  return records.map((cells, index) => ({ index, line: index + 2, cells }));
}

interface Sheet {
  header: readonly string[];
  rows: readonly (readonly string[])[];
  defaults?: Defaults;
  baseDir?: string;
  readFile?: ReadFile;
}

async function check(sheet: Sheet): Promise<CheckedRow[]> {
  const validator = createValidator({
    layout: layoutOf(sheet.header, sheet.baseDir),
    lookups: LOOKUPS,
    defaults: sheet.defaults ?? WITH_CUSTOMER,
    ...(sheet.readFile ? { readFile: sheet.readFile } : {}),
    // A fixed today, so that the dates these tests give never fall into the past.
    calendar: { today: "2026-11-02", holidays: () => NO_HOLIDAYS },
  });
  const out: CheckedRow[] = [];
  for (const row of rowsOf(sheet.rows)) out.push(await validator.check(row));
  return out;
}

async function one(header: readonly string[], cells: readonly string[], defaults?: Defaults): Promise<CheckedRow> {
  const [row] = await check({ header, rows: [cells], ...(defaults ? { defaults } : {}) });
  if (!row) throw new Error("no row");
  return row;
}

async function valid(header: readonly string[], cells: readonly string[], defaults?: Defaults): Promise<ValidRow> {
  const row = await one(header, cells, defaults);
  if (!row.valid) throw new Error(`expected a valid row, got: ${row.reason}`);
  return row;
}

async function reason(header: readonly string[], cells: readonly string[], defaults?: Defaults): Promise<string> {
  const row = await one(header, cells, defaults);
  if (row.valid) throw new Error("expected an invalid row");
  return row.reason;
}

const TRUNK = ["number", "pilot_number", "offering_id", "group"];

describe("targets and routes", () => {
  it("turns a number on a trunk into a valid DIDs row with the customer defaults", async () => {
    const row = await valid(TRUNK, ["+1 (416) 555-0101", "416-555-0000", "", " east "]);
    expect(row).toEqual({
      valid: true,
      index: 0,
      line: 2,
      number: "4165550101",
      numberKind: "regular",
      operation: expect.objectContaining({ id: "dids" }) as unknown,
      target: "4165550000",
      group: "east",
      portForm: PORT_FORM,
      request: {},
      item: {},
    });
  });

  it("routes a toll-free number on a trunk to the toll-free DIDs operation", async () => {
    const row = await valid(TRUNK, ["1-800-555-0101", "4165550001", "", ""]);
    expect(row.numberKind).toBe("toll-free");
    expect(row.operation.id).toBe("tollfree-dids");
  });

  it.each([
    ["GP-1", "general-products"],
    ["gcp-2", "general-child-products"],
    ["FAX-7", "virtual-faxes"],
  ])("routes offering %s to %s, keeping the OfferingID as the lookup spells it", async (offering, id) => {
    const defaults: Defaults = { portForm: PORT_FORM, request: { ParentSubscriptionID: "S-1", FaxEmail: "fax@acme.example" }, item: {} };
    const row = await valid(TRUNK, ["4165550101", "", offering, ""], defaults);
    expect(row.operation.id).toBe(id);
    expect(row.target).toBe(offering.toUpperCase());
  });

  it("gives group as an empty string when the sheet has no group column", async () => {
    const row = await valid(["number", "pilot_number"], ["4165550101", "4165550000"]);
    expect(row.group).toBe("");
  });
});

describe("invalid rows", () => {
  it("refuses a row with a different number of fields than the header, still naming its number when it parses", async () => {
    expect(await one(TRUNK, ["4165550101", "4165550000"])).toMatchObject({
      valid: false,
      number: "4165550101",
      numberKind: "regular",
      reason: "has 2 fields, the header has 4",
    });
    const row = await one(TRUNK, ["1-800-555-0101", "4165550000", "", "", "extra"]);
    expect(row).toMatchObject({ valid: false, line: 2, number: "8005550101", numberKind: "toll-free", reason: "has 5 fields, the header has 4" });
    expect(await one(TRUNK, ["not a number", "4165550000"])).toMatchObject({ number: "", numberKind: null, reason: "has 2 fields, the header has 4" });
    expect(await one(TRUNK, [""])).toMatchObject({ number: "", numberKind: null, reason: "has 1 field, the header has 4" });
  });

  it("refuses a row without a number", async () => {
    expect(await reason(TRUNK, ["  ", "4165550000", "", ""])).toBe("the number is empty: every row needs the number to port");
  });

  it("refuses a number that is not NANP, with the number's own reason", async () => {
    expect(await reason(TRUNK, ["416-555-010", "4165550000", "", ""])).toBe('"416-555-010" is not a valid NANP number (9 digits)');
    expect(await reason(TRUNK, ["+44 20 7946 0958", "4165550000", "", ""])).toContain("only NANP (+1) numbers are accepted");
  });

  it("refuses a row with neither target or with both", async () => {
    expect(await reason(TRUNK, ["4165550101", "", "", ""])).toBe(
      "no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering)",
    );
    expect(await reason(TRUNK, ["4165550101", "4165550000", "GP-1", ""])).toBe(
      'two targets: pilot_number "4165550000" and offering_id "GP-1" are both filled; keep one',
    );
  });

  it("refuses a pilot number that is not one of the account's trunks, listing the few it has", async () => {
    const row = await one(TRUNK, ["4165550101", "(416) 555-0999", "", ""]);
    expect(row).toMatchObject({
      valid: false,
      number: "4165550101",
      numberKind: "regular",
      operation: null,
      reason:
        'pilot number 4165550999 is not one of the account\'s SIP trunks (the account\'s trunks: 4165550000, 4165550001); run "portin trunks" to list them',
    });
    expect(await reason(TRUNK, ["4165550101", "12345", "", ""])).toBe('pilot_number "12345" is not a valid NANP number (5 digits)');
  });

  it("refuses an unknown offering with the closest ID, and an offering whose Type is outside 1..7", async () => {
    expect(await reason(TRUNK, ["4165550101", "", "RES-33", ""])).toBe(
      'offering_id "RES-33" is not one of the account\'s offerings (closest: RES-3); run "portin offerings" to list them',
    );
    expect(await reason(TRUNK, ["4165550101", "", "ODD-9", ""])).toBe(
      'offering "ODD-9" has Type 9, outside 1..7: portin cannot port onto it',
    );
  });

  it("refuses a toll-free number on an offering type that has no toll-free operation", async () => {
    const row = await one(TRUNK, ["8005550101", "", "RES-3", ""]);
    expect(row).toMatchObject({ valid: false, number: "8005550101", numberKind: "toll-free" });
    expect((row as InvalidRow).reason).toBe(
      "8005550101: toll-free numbers cannot be ported onto a Type 3 (Residential Line) offering: only SIP trunks and Type 5 (Permanent Call Forward) take toll-free numbers",
    );
  });

  it("routes a toll-free number on a Type 5 offering to the toll-free forwards operation", async () => {
    const header = [...TRUNK, "item.Account", "item.CallForwardingNumber", "item.Enabled", "item.PCFProvisioningInstructions"];
    const row = await valid(header, ["8885550101", "", "PCF-5", "", "77", "416 555 0199", "yes", "ring"]);
    expect(row.operation.id).toBe("tollfree-permanent-call-forwards");
    expect(row.item).toEqual({ Account: 77, CallForwardingNumber: 4165550199, Enabled: true, PCFProvisioningInstructions: "ring" });
  });

  it("names every missing required PortForm member in one message", async () => {
    const defaults: Defaults = { portForm: { CustomerAccountNumber: "A", CustomerStreetNumber: "1", CustomerStreetName: "Main", CustomerCity: "X", CustomerProvince: "ON", CustomerPostalCode: "K1A 0B1", CustomerCountry: "CA", CurrentReseller: "R" }, request: {}, item: {} };
    expect(await reason(TRUNK, ["4165550101", "4165550000", "", ""], defaults)).toBe(
      "missing portform.CustomerName, portform.EmailAddress (fill the column or set them in --defaults)",
    );
  });

  it("asks regular numbers, but not toll-free ones, for CurrentProvider or CurrentReseller", async () => {
    const withoutProvider = Object.fromEntries(Object.entries(PORT_FORM).filter(([name]) => name !== "CurrentProvider"));
    const defaults: Defaults = { portForm: withoutProvider, request: {}, item: {} };
    expect(await reason(TRUNK, ["4165550101", "4165550000", "", ""], defaults)).toBe(
      "missing portform.CurrentProvider or portform.CurrentReseller (fill the column or set it in --defaults)",
    );
    expect((await one(TRUNK, ["8005550101", "4165550000", "", ""], defaults)).valid).toBe(true);
  });

  it("names missing required request and item members", async () => {
    expect(await reason(TRUNK, ["4165550101", "", "FAX-7", ""])).toBe(
      "missing request.FaxEmail (fill the column or set it in --defaults)",
    );
    expect(await reason([...TRUNK, "item.Account"], ["4165550101", "", "RES-3", "", "5"])).toBe(
      "missing item.Enabled, item.Locale, item.SecondLocale (fill the column or set them in --defaults)",
    );
  });

  it("refuses a member cell the row's operation cannot send, instead of dropping it", async () => {
    expect(await reason([...TRUNK, "portform.FileRespOrgForm"], ["4165550101", "4165550000", "", "", "resporg.pdf"])).toBe(
      "portform.FileRespOrgForm is for toll-free numbers only, and this number is regular; empty the cell for this row",
    );
    expect(await reason([...TRUNK, "portform.NewPilotNumber"], ["8005550101", "4165550000", "", "", "4165550001"])).toBe(
      "portform.NewPilotNumber is for regular numbers only, and this number is toll-free; empty the cell for this row",
    );
    expect(await reason([...TRUNK, "request.FaxEmail"], ["4165550101", "4165550000", "", "", "f@x.example"])).toBe(
      "request.FaxEmail is not taken by POST /v2/NumberPorts/Inbound/DIDs (it takes no request members); empty the cell for this row",
    );
    expect(await reason([...TRUNK, "item.Label"], ["4165550101", "", "GP-1", "", "Front desk"])).toBe(
      "item.Label is not taken by POST /NumberPorts/Inbound/GeneralProducts (it has no per-number items); empty the cell for this row",
    );
    expect(await reason([...TRUNK, "item.BusinessGroupID"], ["4165550101", "4165550000", "", "", "BG"])).toBe(
      "item.BusinessGroupID is not taken by DID items of POST /v2/NumberPorts/Inbound/DIDs; empty the cell for this row",
    );
  });

  it("refuses item.Label and item.AdditionalLabel on a Business Permanent Call Forward, whose ForwardingInstructions take no labels", async () => {
    const header = [...TRUNK, "request.BusinessGroupSubscriptionID", "item.ForwardingTN", "item.Label", "item.AdditionalLabel"];
    const forward = (label: string, additional: string): string[] => ["4165550101", "", "BPCF-6", "", "BGS-1", "6135550199", label, additional];
    expect(await reason(header, forward("Front desk", ""))).toBe(
      "item.Label is not taken by ForwardingInstruction items of POST /NumberPorts/Inbound/BusinessPermanentCallForwards; empty the cell for this row",
    );
    expect(await reason(header, forward("", "East wing"))).toBe(
      "item.AdditionalLabel is not taken by ForwardingInstruction items of POST /NumberPorts/Inbound/BusinessPermanentCallForwards; empty the cell for this row",
    );
    expect((await valid(header, forward("", ""))).item).toEqual({ ForwardingTN: 6135550199 });
    // A default label serves the DIDs, lines and forwards of a mixed sheet, and is left off here.
    const labelled: Defaults = { portForm: PORT_FORM, request: {}, item: { Label: "default", AdditionalLabel: "also" } };
    expect((await valid(header, forward("", ""), labelled)).item).toEqual({ ForwardingTN: 6135550199 });
  });

  it("calls a number already taken by an earlier valid row a duplicate of that row's line", async () => {
    const rows = await check({
      header: TRUNK,
      rows: [
        ["4165550101", "4165550000", "", ""],
        ["416-555-0102", "", "", ""], // invalid: takes nothing
        ["+1 416 555 0101", "4165550000", "", ""],
        ["416.555.0102", "4165550000", "", ""],
      ],
    });
    expect(rows.map((r) => (r.valid ? "valid" : r.reason))).toEqual([
      "valid",
      "no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering)",
      "duplicate of row 2 (4165550101)",
      "valid",
    ]);
  });

  it("overrules an earlier row that a later row with the same number contradicts: each names the other", async () => {
    const validator = createValidator({ layout: layoutOf(TRUNK, "/"), lookups: LOOKUPS, defaults: WITH_CUSTOMER });
    const checked: CheckedRow[] = [];
    for (const row of rowsOf([
      ["4165550101", "4165550000", "", ""],
      ["4165550102", "4165550000", "", ""],
      ["416-555-0101", "4165550001", "", ""],
      ["4165550102", "4165550000", "", ""],
    ])) checked.push(await validator.check(row));
    expect(checked.map((r) => (r.valid ? "valid" : r.reason))).toEqual([
      "valid",
      "valid",
      "number 4165550101 is also on row 2 with a different target: portin cannot know which row is right; correct or remove one of them",
      "duplicate of row 3 (4165550102)",
    ]);
    expect([...validator.overruled()]).toEqual([
      [0, "number 4165550101 is also on row 4 with a different target: portin cannot know which row is right; correct or remove one of them"],
    ]);
  });

  it("judges rows that name no file at once, duplicates included, without a Promise to await", () => {
    const validator = createValidator({ layout: layoutOf(["number", "pilot_number"]), lookups: LOOKUPS, defaults: WITH_CUSTOMER });
    const [first, again] = rowsOf([
      ["4165550101", "4165550000"],
      ["4165550101", "4165550000"],
    ]);
    if (!first || !again) throw new Error("rows");
    const checked = [validator.check(first), validator.check(again)];
    expect(checked.some((c) => c instanceof Promise)).toBe(false);
    expect(checked).toMatchObject([{ valid: true }, { valid: false, reason: "duplicate of row 2 (4165550101)" }]);
  });
});

describe("member values", () => {
  const header = (member: string): string[] => [...TRUNK, member];
  const trunkRow = (value: string): string[] => ["4165550101", "4165550000", "", "", value];
  const portForm = async (member: string, value: string): Promise<Members> => (await valid(header(member), trunkRow(value))).portForm;
  const item = async (member: string, value: string): Promise<Members> => (await valid(header(member), trunkRow(value))).item;

  it("sends members under their own spelling, whatever the header's case", async () => {
    expect(await portForm("PortForm.customerName", "  Acme Two  ")).toMatchObject({ CustomerName: "Acme Two" });
  });

  it("converts integers, with an optional sign, and refuses anything else", async () => {
    expect(await item("item.Extension", "+42")).toEqual({ Extension: 42 });
    expect(await item("item.CallForwardingDelay", "-3")).toEqual({ CallForwardingDelay: -3 });
    expect(await reason(header("item.Extension"), trunkRow("4.5"))).toBe('item.Extension "4.5" is not an integer');
  });

  it.each([
    ["true", true],
    ["YES", true],
    ["1", true],
    ["False", false],
    ["no", false],
    ["0", false],
  ])("reads the boolean %j as %s", async (text, expected) => {
    expect(await portForm("portform.ContactMeBLIF", text)).toMatchObject({ ContactMeBLIF: expected });
  });

  it("refuses a boolean it cannot read", async () => {
    expect(await reason(header("portform.ContactMeBLIF"), trunkRow("maybe"))).toBe(
      'portform.ContactMeBLIF "maybe" is not a boolean (true/false, yes/no, Y/N, oui/non, 1/0)',
    );
  });

  it("sends a phone member in any NANP writing as a 10-digit integer", async () => {
    expect(await item("item.CallerID", "+1 (416) 555-0123")).toEqual({ CallerID: 4165550123 });
    expect(await reason(header("item.CallerID"), trunkRow("555-0123"))).toBe(
      'item.CallerID "555-0123" is not a valid NANP number (7 digits)',
    );
  });

  it("refuses a cell holding a control character, naming its column, rather than dropping it (a province a<DEL>b is not AB)", async () => {
    expect(await reason(["number", "pilot_number", "portform.CustomerProvince"], ["4165550101", "4165550000", "o\u007fn"])).toBe(
      'portform.CustomerProvince "o\\x7fn" holds a control character (U+007F) at character 2, which a spreadsheet does not show: retype the cell',
    );
    expect(await reason(["number", "pilot_number", "item.Label"], ["4165550101", "4165550000", "Front\u001b[2J desk"])).toMatch(/^item\.Label "Front\\x1b\[2J desk" holds a control character \(U\+001B\) at character 6/);
    // Tab and line breaks are text: a label of two lines is sent as it is.
    expect((await valid(["number", "pilot_number", "item.Label"], ["4165550101", "4165550000", "Front\ndesk"])).item).toMatchObject({ Label: "Front\ndesk" });
  });

  it("splits lists on semicolons, trimming and dropping empty parts", async () => {
    expect(await portForm("portform.NumbersToRemain", " 416-555-0110 ;; (416) 555-0111; ")).toMatchObject({
      NumbersToRemain: [4165550110, 4165550111],
    });
    expect(await portForm("portform.AdditionalEmailAddresses", "a@x.example; b@x.example;")).toMatchObject({
      AdditionalEmailAddresses: ["a@x.example", "b@x.example"],
    });
    expect(await portForm("portform.NumbersToRemain", " ; ")).not.toHaveProperty("NumbersToRemain");
    expect(await reason(header("portform.NumbersToDisconnect"), trunkRow("4165550110;123"))).toBe(
      'portform.NumbersToDisconnect "123" is not a valid NANP number (3 digits)',
    );
  });

  it.each([
    ["0", 0],
    ["EnglishUS", 0],
    ["english uk", 1],
    ["English CA", 2],
    ["userdefined1", 3],
    ["User Defined 2", 4],
    ["FRENCHCA", 5],
    ["Spanish Latin America", 6],
  ])("reads the locale %j as code %i", async (text, code) => {
    const row = await valid(
      [...TRUNK, "item.Account", "item.Enabled", "item.Locale", "item.SecondLocale"],
      ["4165550101", "", "RES-3", "", "1", "yes", text, "None"],
    );
    expect(row.item).toEqual({ Account: 1, Enabled: true, Locale: code, SecondLocale: 9 });
  });

  it("accepts None and 9 only as a second locale", async () => {
    const lineHeader = [...TRUNK, "item.Account", "item.Enabled", "item.Locale", "item.SecondLocale"];
    const line = (locale: string, second: string): string[] => ["4165550101", "", "RES-3", "", "1", "yes", locale, second];
    expect((await valid(lineHeader, line("2", "9"))).item).toMatchObject({ Locale: 2, SecondLocale: 9 });
    expect(await reason(lineHeader, line("None", "9"))).toMatch(/^item\.Locale "None" is not a locale \(0-6 or a name: EnglishUS/);
    expect(await reason(lineHeader, line("9", "9"))).toMatch(/^item\.Locale "9" is not a locale/);
    expect(await reason(lineHeader, line("0", "7"))).toMatch(/^item\.SecondLocale "7" is not a locale \(0-6, 9 or a name/);
  });

  it("upper-cases the country and refuses one other than CA or US", async () => {
    expect(await portForm("portform.CustomerCountry", "ca")).toMatchObject({ CustomerCountry: "CA" });
    expect(await reason(header("portform.CustomerCountry"), trunkRow("MX"))).toBe('portform.CustomerCountry "MX" is not a country (CA or US; Canada, USA)');
  });

  it("takes real YYYY-MM-DD dates only", async () => {
    expect(await portForm("portform.RequestedPortDate", "2028-02-29")).toMatchObject({ RequestedPortDate: "2028-02-29" });
    expect(await reason(header("portform.RequestedPortDate"), trunkRow("2026-13-01"))).toBe(
      'portform.RequestedPortDate "2026-13-01" is not a real date (there is no month 13); write it as YYYY-MM-DD',
    );
    expect(await reason(header("portform.RequestedPortDate"), trunkRow("2027-02-29"))).toBe(
      'portform.RequestedPortDate "2027-02-29" is not a real date (February 2027 has 28 days)',
    );
    expect(await reason(header("portform.RequestedPortDate"), trunkRow("next week"))).toBe('portform.RequestedPortDate "next week" is not a date (write it as YYYY-MM-DD)');
  });

  it("takes HH:MM times, padding a one-digit hour", async () => {
    expect(await portForm("portform.RequestedPortTime", "9:30")).toMatchObject({ RequestedPortTime: "09:30" });
    expect(await portForm("portform.RequestedPortTime", "23:59")).toMatchObject({ RequestedPortTime: "23:59" });
    expect(await reason(header("portform.RequestedPortTime"), trunkRow("24:00"))).toBe(
      'portform.RequestedPortTime "24:00" is not a time (HH:MM, Eastern)',
    );
  });

  it("resolves a provider by ID or by name, case-insensitively", async () => {
    expect(await portForm("portform.CurrentProvider", "12")).toMatchObject({ CurrentProvider: 12 });
    expect(await portForm("portform.CurrentProvider", "  bell CANADA ")).toMatchObject({ CurrentProvider: 17 });
  });

  it("refuses an ambiguous or unknown provider, naming the candidates", async () => {
    expect(await reason(header("portform.CurrentProvider"), trunkRow("fido"))).toBe(
      'portform.CurrentProvider "fido" matches several providers: Fido (40), FIDO (41); give the provider ID instead',
    );
    expect(await reason(header("portform.CurrentProvider"), trunkRow("Bel Kanada"))).toMatch(
      /^portform\.CurrentProvider "Bel Kanada" is not a known provider ID or name \(closest: Bell Canada, /,
    );
    expect(await reason(header("portform.CurrentProvider"), trunkRow("99"))).toContain('"99" is not a known provider ID or name');
  });

  it("builds ExtraDetails from its columns in column order, leaving empty cells out", async () => {
    const row = await valid(
      [...TRUNK, "portform.ExtraDetails.Building", "portform.ExtraDetails.Floor", "portform.ExtraDetails.Room"],
      ["4165550101", "4165550000", "", "", "B2", "", "204"],
    );
    expect(row.portForm["ExtraDetails"]).toEqual([
      { Key: "Building", Value: "B2" },
      { Key: "Room", Value: "204" },
    ]);
  });
});

describe("defaults", () => {
  const defaults: Defaults = {
    portForm: { ...PORT_FORM, CommentsPortTeam: "from defaults", NumbersToRemain: [4165550190], FileRespOrgForm: [{ FileName: "r.pdf", ContentType: "application/pdf", Base64Contents: "AA==" }], ExtraDetails: [{ Key: "Building", Value: "B1" }, { Key: "Dock", Value: "3" }] },
    request: { FaxEmail: "fax@acme.example" },
    item: { Label: "default label", Enabled: true },
  };
  const header = [...TRUNK, "portform.CommentsPortTeam", "item.Label", "portform.ExtraDetails.Building", "portform.ExtraDetails.Room"];

  it("fills empty cells from --defaults and lets a filled cell win", async () => {
    const fromDefaults = await valid(header, ["4165550101", "4165550000", "", "", "", "", "", ""], defaults);
    expect(fromDefaults.portForm).toMatchObject({ CommentsPortTeam: "from defaults" });
    expect(fromDefaults.item).toEqual({ Label: "default label" });
    const fromCells = await valid(header, ["4165550101", "4165550000", "", "", "from the row", "desk 4", "B9", "12"], defaults);
    expect(fromCells.portForm).toMatchObject({ CommentsPortTeam: "from the row" });
    expect(fromCells.item).toEqual({ Label: "desk 4" });
    expect(fromCells.portForm["ExtraDetails"]).toEqual([
      { Key: "Building", Value: "B9" },
      { Key: "Dock", Value: "3" },
      { Key: "Room", Value: "12" },
    ]);
  });

  it("does not apply defaults the row's operation cannot send, since one file serves a mixed sheet", async () => {
    const regular = await valid(TRUNK, ["4165550101", "4165550000", "", ""], defaults);
    expect(regular.portForm).not.toHaveProperty("FileRespOrgForm");
    expect(regular.portForm).toHaveProperty("NumbersToRemain");
    expect(regular.request).toEqual({});
    expect(regular.item).toEqual({ Label: "default label" });
    const tollFree = await valid(TRUNK, ["8005550101", "4165550000", "", ""], defaults);
    expect(tollFree.portForm).not.toHaveProperty("NumbersToRemain");
    expect(tollFree.portForm).toHaveProperty("FileRespOrgForm");
    const fax = await valid(TRUNK, ["4165550101", "", "FAX-7", ""], defaults);
    expect(fax.request).toEqual({ FaxEmail: "fax@acme.example" });
    expect(fax.item).toEqual({});
  });

  it("without defaults, a row must carry the whole PortForm itself", async () => {
    expect(await reason(TRUNK, ["4165550101", "4165550000", "", ""], NO_DEFAULTS)).toMatch(/^missing portform\.CustomerAccountNumber, /);
  });
});

describe("files", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "portin-validate-"));
    await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 LOA contents");
    await writeFile(join(dir, "invoice.XLSX"), "xlsx");
    await writeFile(join(dir, "notes.weird"), "??");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const header = [...TRUNK, "portform.FileLetterOfAuthorization", "portform.FileLastInvoice"];

  function countingReader(): { readFile: ReadFile; reads: string[] } {
    const reads: string[] = [];
    return {
      reads,
      readFile: (path) => {
        reads.push(path);
        return readFile(path);
      },
    };
  }

  it("reads files relative to the sheet, base64-encoded with a content type from the extension", async () => {
    const [row] = await check({ header, baseDir: dir, rows: [["4165550101", "4165550000", "", "", "loa.pdf", "invoice.XLSX; notes.weird"]] });
    expect(row?.valid && row.portForm).toMatchObject({
      FileLetterOfAuthorization: [{ FileName: "loa.pdf", ContentType: "application/pdf", Base64Contents: Buffer.from("%PDF-1.4 LOA contents").toString("base64") }],
      FileLastInvoice: [
        { FileName: "invoice.XLSX", ContentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", Base64Contents: "eGxzeA==" },
        { FileName: "notes.weird", ContentType: "application/octet-stream", Base64Contents: "Pz8=" },
      ],
    });
  });

  it("reads each distinct path once and shares the attachment between rows", async () => {
    const { readFile, reads } = countingReader();
    const rows = await check({
      header,
      baseDir: dir,
      readFile,
      rows: [
        ["4165550101", "4165550000", "", "", "loa.pdf", ""],
        ["4165550102", "4165550000", "", "", "./loa.pdf", "loa.pdf"],
        ["4165550103", "4165550000", "", "", "loa.pdf", ""],
      ],
    });
    expect(rows.every((r) => r.valid)).toBe(true);
    expect(reads).toEqual([join(dir, "loa.pdf")]);
    const [first, , third] = rows as ValidRow[];
    expect(first?.portForm["FileLetterOfAuthorization"]).toBe(third?.portForm["FileLetterOfAuthorization"]);
  });

  it("makes a row naming a file that cannot be read invalid, naming the path", async () => {
    const [row] = await check({ header, baseDir: dir, rows: [["4165550101", "4165550000", "", "", "loa.pdf;missing.pdf", ""]] });
    expect(row).toMatchObject({
      valid: false,
      number: "4165550101",
      reason: `portform.FileLetterOfAuthorization file "missing.pdf" cannot be read (no such file: ${join(dir, "missing.pdf")})`,
    });
  });

  it("decides duplicates in the order rows were checked, even when an earlier row waits on a file", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowReader: ReadFile = async () => {
      await gate;
      return new Uint8Array(Buffer.from("%PDF-1.4"));
    };
    const validator = createValidator({ layout: layoutOf(header, dir), lookups: LOOKUPS, defaults: WITH_CUSTOMER, readFile: slowReader });
    const [first, second] = rowsOf([
      ["4165550101", "4165550000", "", "", "loa.pdf", ""],
      ["4165550101", "4165550001", "", "", "", ""],
    ]);
    if (!first || !second) throw new Error("rows");
    // Both calls wait: the first reads a file, the second queues behind it.
    const pending = [validator.check(first), validator.check(second)];
    expect(pending.every((p) => p instanceof Promise)).toBe(true);
    release();
    const [a, b] = await Promise.all(pending.map((p) => Promise.resolve(p)));
    expect(a?.valid).toBe(true);
    // The later call is the one that finds the number taken, though its own checks finished first.
    expect(b).toMatchObject({ valid: false, reason: expect.stringMatching(/^number 4165550101 is also on row 2 with a different target and PortForm: /) as unknown });
  });
});

describe("rows that state the same members", () => {
  const header = ["number", "pilot_number", "offering_id", "portform.CustomerName", "portform.CurrentProvider", "item.Label", "portform.RequestedPortDate"];

  it("share one PortForm record among rows with the same cells, and keep rows with other cells apart", async () => {
    const rows = await check({
      header,
      rows: [
        ["4165550101", "4165550000", "", "Acme", "Bell Canada", "a", "2026-12-08"],
        ["4165550102", "4165550000", "", "Acme", "Bell Canada", "b", "2026-12-08"],
        ["4165550103", "4165550000", "", "Acme", "17", "a", "2026-12-08"],
        ["4165550104", "4165550000", "", "Other", "Bell Canada", "a", "2026-12-08"],
      ],
    });
    const [a, b, c, d] = rows as ValidRow[];
    expect(b?.portForm).toBe(a?.portForm);
    expect(c?.portForm).toEqual(a?.portForm);
    expect(d?.portForm).toEqual({ ...PORT_FORM, CustomerName: "Other", CurrentProvider: 17, RequestedPortDate: "2026-12-08" });
    expect(c?.item).toBe(a?.item);
    expect(b?.item).toEqual({ Label: "b" });
    expect(Object.isFrozen(a?.portForm)).toBe(true);
  });

  it("reports the bad cell of a row whose PortForm cells an earlier valid row had", async () => {
    const rows = await check({
      header,
      rows: [
        ["4165550101", "4165550000", "", "Acme", "Bell Canada", "a", "2026-12-08"],
        ["4165550102", "4165550000", "", "Acme", "Bell Canada", "", "2026-12-08"],
        ["4165550103", "GP-1", "", "Acme", "Bell Canada", "x", "2026-12-08"],
        ["4165550104", "", "GP-1", "Acme", "Bell Canada", "x", "2026-12-08"],
        ["4165550105", "4165550000", "", "Acme", "Bell Canada", "a", "2026-13-08"],
      ],
    });
    expect(rows.map((r) => (r.valid ? "valid" : r.reason))).toEqual([
      "valid",
      "valid",
      expect.stringContaining("pilot_number"),
      expect.stringContaining("item.Label is not taken by POST /NumberPorts/Inbound/GeneralProducts"),
      'portform.RequestedPortDate "2026-13-08" is not a real date (there is no month 13); write it as YYYY-MM-DD',
    ]);
  });

  it("names the same missing members for a row that shares an earlier row's records as for that row", async () => {
    // The first row of each kind converts its cells; the rows after it meet its records in the
    // cache, where what they miss was worked out once. Both must read alike.
    const lines = ["portform.CustomerName", "item.Account", "item.Enabled"];
    const withoutName = Object.fromEntries(Object.entries(PORT_FORM).filter(([name]) => name !== "CustomerName"));
    const defaults: Defaults = { portForm: withoutName, request: {}, item: { Locale: 1, SecondLocale: 9 } };
    const rows = await check({
      header: [...TRUNK, ...lines],
      defaults,
      rows: [
        ["4165550101", "", "RES-3", "", "", "5", "yes"],
        ["4165550102", "", "RES-3", "", "", "5", "yes"],
        ["4165550103", "", "RES-3", "", "Acme", "", "yes"],
        ["4165550104", "", "RES-3", "", "Acme", "", "yes"],
        ["4165550105", "", "RES-3", "", "", "", ""],
        ["4165550106", "", "RES-3", "", "", "", ""],
        ["4165550107", "", "RES-3", "", "Acme", "5", "yes"],
        ["4165550108", "", "RES-3", "", "Acme", "5", "yes"],
      ],
    });
    expect(rows.map((r) => (r.valid ? "valid" : r.reason))).toEqual([
      "missing portform.CustomerName (fill the column or set it in --defaults)",
      "missing portform.CustomerName (fill the column or set it in --defaults)",
      "missing item.Account (fill the column or set it in --defaults)",
      "missing item.Account (fill the column or set it in --defaults)",
      "missing portform.CustomerName, item.Account, item.Enabled (fill the column or set them in --defaults)",
      "missing portform.CustomerName, item.Account, item.Enabled (fill the column or set them in --defaults)",
      "valid",
      "valid",
    ]);
    const [, , , , , , first, second] = rows as ValidRow[];
    expect(second?.item).toBe(first?.item);
    expect(second?.portForm).toBe(first?.portForm);
  });

  it("keeps rows apart whose PortForm cells differ only in where one cell ends and the next begins", async () => {
    const twoCells = ["number", "pilot_number", "offering_id", "portform.CustomerName", "portform.CustomerReferenceNumber"];
    const rows = (await check({
      header: twoCells,
      rows: [
        ["4165550101", "4165550000", "", "ab", "c"],
        ["4165550102", "4165550000", "", "a", "bc"],
        ["4165550103", "4165550000", "", "ab", "c"],
        ["4165550104", "4165550000", "", "a\u200b", "bc"],
        ["4165550105", "4165550000", "", "1:a", "b"],
        ["4165550106", "4165550000", "", "1", "a1:b"],
      ],
    })) as ValidRow[];
    expect(rows.map((r) => [r.portForm["CustomerName"], r.portForm["CustomerReferenceNumber"]])).toEqual([
      ["ab", "c"],
      ["a", "bc"],
      ["ab", "c"],
      ["a\u200b", "bc"],
      ["1:a", "b"],
      ["1", "a1:b"],
    ]);
    expect(rows[2]?.portForm).toBe(rows[0]?.portForm);
    // Under another operation the same cells are other records: defaults and refusals differ.
    const [trunk, offering] = (await check({
      header: twoCells,
      rows: [
        ["4165550101", "4165550000", "", "ab", "c"],
        ["4165550102", "", "GP-1", "ab", "c"],
      ],
    })) as ValidRow[];
    expect(offering?.portForm).toEqual(trunk?.portForm);
    expect(offering?.portForm).not.toBe(trunk?.portForm);
  });

  it("tells duplicates apart among many numbers, naming the first row's line", async () => {
    const count = 50_000;
    const numbers = Array.from({ length: count }, (_, i) => `416${String(2000000 + i * 7)}`);
    const rows = await check({ header: TRUNK, rows: [...numbers, numbers[12_345] ?? "", numbers[count - 1] ?? ""].map((n) => [n, "4165550000", "", ""]) });
    expect(rows.slice(0, count).every((r) => r.valid)).toBe(true);
    expect(rows.slice(count).map((r) => (r.valid ? "valid" : r.reason))).toEqual([
      `duplicate of row ${12_345 + 2} (${numbers[12_345] ?? ""})`,
      `duplicate of row ${count + 1} (${numbers[count - 1] ?? ""})`,
    ]);
  });
});
