import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MemberType } from "../../src/catalog/members.js";
import { matchColumns } from "../../src/input/columns.js";
import { converterFor } from "../../src/validate/convert.js";
import { createFileAttacher } from "../../src/validate/files.js";
import { parseNanp } from "../../src/validate/nanp.js";
import type { InvalidRow, Lookups } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { PORT_FORM } from "../support/port-form.js";

/** The sandbox account's providers, as a real account names them. */
const PROVIDERS = [
  { id: 17, name: "Bell Canada" },
  { id: 23, name: "Rogers Communications" },
  { id: 31, name: "TELUS Communications" },
  { id: 42, name: "Vidéotron" },
  { id: 80, name: "Bell MTS" },
  { id: 86, name: "Bell Aliant" },
  { id: 103, name: "AT&T" },
];

async function convert(type: MemberType, text: string, dir = "/nowhere"): Promise<unknown> {
  const result = await converterFor(type, { providers: PROVIDERS, files: createFileAttacher({ dir, name: "the sheet's folder" }) })(text);
  return result.ok ? result.value : `refused: ${result.reason}`;
}

describe("writings people use, accepted", () => {
  it.each([
    ["TELUS", 31],
    ["telus", 31],
    ["Rogers", 23],
    ["Videotron", 42],
    ["VIDEOTRON", 42],
    ["vidéotron", 42],
    ["Rogers Comm.", 23],
    ["Bell Canada", 17],
    ["bell mts", 80],
    ["AT&T", 103],
    ["17.0", 17],
  ])("reads the provider %j as ID %i", async (text, id) => {
    expect(await convert("provider", text)).toBe(id);
  });

  it.each([
    ["Y", true],
    ["n", false],
    ["Oui", true],
    ["NON", false],
    ["VRAI", true],
    ["faux", false],
  ])("reads the boolean %j as %s", async (text, value) => {
    expect(await convert("bool", text)).toBe(value);
  });

  it.each([
    ["English", "locale", 2],
    ["en-CA", "locale", 2],
    ["en", "locale", 2],
    ["en-US", "locale", 0],
    ["en-GB", "locale", 1],
    ["fr-CA", "locale", 5],
    ["Français", "locale", 5],
    ["French", "secondLocale", 5],
    ["es-419", "locale", 6],
    ["Aucune", "secondLocale", 9],
  ] as const)("reads the locale %j (%s) as code %i", async (text, type, code) => {
    expect(await convert(type, text)).toBe(code);
  });

  it.each([
    ["Canada", "CA"],
    ["CAN", "CA"],
    ["USA", "US"],
    ["U.S.A.", "US"],
    ["United States", "US"],
    ["États-Unis", "US"],
  ])("reads the country %j as %s", async (text, code) => {
    expect(await convert("country", text)).toBe(code);
  });

  it.each([
    ["4165552104.0", "phone", 4165552104],
    ["17.0", "int", 17],
    ["300451.0", "int", 300451],
    ["+1 416 555 2104", "phone", 4165552104],
  ] as const)("reads Excel's integer-valued float %j (%s) as %i", async (text, type, value) => {
    expect(await convert(type, text)).toBe(value);
  });

  it.each([
    ["2026/12/8", "2026-12-08"],
    ["2026-12-08 00:00:00", "2026-12-08"],
    ["25/12/2026", "2026-12-25"],
    ["12/25/2026", "2026-12-25"],
    ["08/08/2026", "2026-08-08"],
    ["8 Dec 2026", "2026-12-08"],
    ["December 8, 2026", "2026-12-08"],
    ["8 décembre 2026", "2026-12-08"],
  ])("reads the date %j as %s", async (text, value) => {
    expect(await convert("date", text)).toBe(value);
  });

  it.each([
    ["09:30:00", "09:30"],
    ["9:30 AM", "09:30"],
    ["2 p.m.", "14:00"],
    ["12:15 am", "00:15"],
    ["14h30", "14:30"],
  ])("reads the time %j as %s", async (text, value) => {
    expect(await convert("time", text)).toBe(value);
  });

  it("reads a Windows path to an attachment (LOA\\acme.pdf) as the same file here", async () => {
    const dir = await mkdtemp(join(tmpdir(), "portin-writings-"));
    await mkdir(join(dir, "LOA"));
    await writeFile(join(dir, "LOA", "acme.pdf"), "%PDF-1.4");
    expect(await convert("files", "LOA\\acme.pdf", dir)).toEqual([{ FileName: "acme.pdf", ContentType: "application/pdf", Base64Contents: "JVBERi0xLjQ=" }]);
  });
});

describe("writings refused, saying why", () => {
  it("refuses a provider name that means several, naming each", async () => {
    expect(await convert("provider", "Bell")).toBe(
      'refused: "Bell" matches several providers: Bell Canada (17), Bell MTS (80), Bell Aliant (86); write the one meant in full, or its ID',
    );
  });

  it("refuses a day and month that read both ways as ambiguous, naming both dates", async () => {
    expect(await convert("date", "12/08/2026")).toBe(
      'refused: "12/08/2026" is ambiguous: 12 August or December 8? write it as YYYY-MM-DD (2026-08-12 or 2026-12-08)',
    );
  });

  it("says a date that does not exist is not a real date, not that it is badly written", async () => {
    expect(await convert("date", "2026-02-30")).toBe('refused: "2026-02-30" is not a real date (February 2026 has 28 days)');
    expect(await convert("date", "31/04/2026")).toBe('refused: "31/04/2026" is not a real date (April 2026 has 30 days)');
  });

  it("refuses a float that is not a whole number, and a time with seconds", async () => {
    expect(await convert("int", "17.5")).toBe('refused: "17.5" is not an integer');
    expect(await convert("time", "09:30:15")).toBe('refused: "09:30:15" is not a time (HH:MM, Eastern)');
  });

  it("reads a 9-digit float as the 9 digits it holds, not as a number with a 0 added", () => {
    expect(parseNanp("416555010.0")).toEqual({ ok: false, reason: '"416555010.0" is not a valid NANP number (9 digits)' });
  });

  it("says what a spreadsheet did to a number it wrote in scientific notation", () => {
    expect(parseNanp("4.16556E+09")).toEqual({
      ok: false,
      reason: '"4.16556E+09" is not a valid NANP number: a spreadsheet wrote it in scientific notation and dropped its last digits; format the column as Text and type the numbers again',
    });
  });
});

describe("a row's message", () => {
  const LOOKUPS: Lookups = { trunks: [{ pilotNumber: "4165550000", label: "HQ" }], offerings: [{ offeringId: "RES-3", type: 3, name: "Home" }], providers: PROVIDERS };
  const header = ["number", "pilot_number", "offering_id", "portform.RequestedPortDate", "portform.ContactMeBLIF", "item.Account", "item.Locale"];

  async function reason(cells: readonly string[], defaults = { portForm: PORT_FORM, request: {}, item: {} }): Promise<string> {
    const layout = { source: "sheet.csv", baseDir: "/nowhere", delimiter: "," as const, header, columns: matchColumns("sheet.csv", header) };
    const row = await createValidator({ layout, lookups: LOOKUPS, defaults }).check({ index: 0, line: 2, cells });
    expect(row.valid).toBe(false);
    return (row as InvalidRow).reason;
  }

  it("names every problem of the row, in the order of the columns, not only the first", async () => {
    expect(await reason(["416-555-012", "", "", "12/08/2026", "maybe", "", "Klingon"])).toBe(
      '"416-555-012" is not a valid NANP number (9 digits); no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering); ' +
        'portform.RequestedPortDate "12/08/2026" is ambiguous: 12 August or December 8? write it as YYYY-MM-DD (2026-08-12 or 2026-12-08); ' +
        'portform.ContactMeBLIF "maybe" is not a boolean (true/false, yes/no, Y/N, oui/non, 1/0); ' +
        'item.Locale "Klingon" is not a locale (0-6 or a name: EnglishUS, EnglishUK, EnglishCA, UserDefined1, UserDefined2, FrenchCA, SpanishLatinAmerica, or en-CA, fr-CA, English, French…)',
    );
  });

  it("adds the members still missing once the operation is known, but not those given wrongly", async () => {
    expect(await reason(["4165550101", "", "RES-3", "", "", "many", ""])).toBe(
      'item.Account "many" is not an integer; missing item.Enabled, item.Locale, item.SecondLocale (fill the column or set them in --defaults)',
    );
  });

  it("keeps the one problem of a row that has one, as before", async () => {
    expect(await reason(["4165550101", "4165550001", "", "", "", "", ""])).toBe(
      "pilot number 4165550001 is not one of the account's SIP trunks (the account's trunks: 4165550000); run \"portin trunks\" to list them",
    );
  });
});
