/**
 * docs/contract.md §3 "Values the losing carrier checks": province, postal code, e-mail
 * addresses and port date, judged on the row's PortForm with its --defaults merged, each
 * normalised where it can be and otherwise refused naming the column, the value and what
 * would be accepted.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { matchColumns } from "../../src/input/columns.js";
import type { Members } from "../../src/catalog/members.js";
import { loadDefaults, readDefaultsFile } from "../../src/validate/defaults.js";
import type { Holidays, PortCalendar } from "../../src/validate/port-date.js";
import { calendarAsking, easternToday } from "../../src/validate/port-date.js";
import type { CheckedRow, Lookups } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { PORT_FORM } from "../support/port-form.js";

const LOOKUPS: Lookups = { trunks: [{ pilotNumber: "4165550000", label: "HQ" }], offerings: [], providers: [{ id: 17, name: "Bell Canada" }] };
const TODAY = "2026-11-25";
const HOLIDAYS: Holidays = new Map([["2026-12-25", "Christmas Day"]]);

/** The run's calendar, over a service that counts how often it is asked for its holidays and answers later. */
function calendar(): PortCalendar & { readonly asked: number } {
  let asked = 0;
  const cal = calendarAsking(TODAY, () => {
    asked++;
    return Promise.resolve(HOLIDAYS);
  });
  return Object.defineProperty(cal, "asked", { get: () => asked }) as PortCalendar & { readonly asked: number };
}

/** One row per entry: the members given as cells over the sample customer's PortForm. */
async function check(rows: readonly Members[], cal = calendar()): Promise<CheckedRow[]> {
  const members = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const header = ["number", "pilot_number", ...members.map((m) => `portform.${m}`)];
  const validator = createValidator({
    layout: { source: "sheet.csv", baseDir: "/nowhere", delimiter: ",", header, columns: matchColumns("sheet.csv", header) },
    lookups: LOOKUPS,
    defaults: { portForm: PORT_FORM, request: {}, item: {} },
    calendar: cal,
  });
  const out: CheckedRow[] = [];
  for (const [index, row] of rows.entries()) {
    const cells = [`416555${String(1000 + index)}`, "4165550000", ...members.map((m) => { const value = row[m]; return typeof value === "string" ? value : ""; })];
    out.push(await validator.check({ index, line: index + 2, cells }));
  }
  return out;
}

const verdict = (row: CheckedRow | undefined): string => (row === undefined ? "none" : row.valid ? `valid${row.notes === undefined ? "" : `: ${row.notes}`}` : row.reason);

async function one(members: Members): Promise<string> {
  return verdict((await check([members]))[0]);
}

describe("CustomerProvince", () => {
  it("sends a province or state given by code or English or French name, any case, with or without accents, as its code", async () => {
    const given = ["Ontario", "ONTARIO", "on", "Québec", "quebec", "qc", "Colombie-Britannique", "Île-du-Prince-Édouard", "ile du prince edouard", "Terre-Neuve-et-Labrador", "Yukon"];
    const rows = await check(given.map((p) => ({ CustomerProvince: p })));
    expect(rows.map((r) => (r.valid ? r.portForm["CustomerProvince"] : r.reason))).toEqual(["ON", "ON", "ON", "QC", "QC", "QC", "BC", "PE", "PE", "NL", "YT"]);
    const states = await check(["New York", "ny", "Caroline du Nord", "california"].map((p) => ({ CustomerProvince: p, CustomerPostalCode: "10001", CustomerCountry: "US" })));
    expect(states.map((r) => (r.valid ? r.portForm["CustomerProvince"] : r.reason))).toEqual(["NY", "NY", "NC", "CA"]);
  });

  it("says what it normalised in the row, and nothing for a code already written as carriers expect", async () => {
    expect(await one({ CustomerProvince: "Ontario" })).toBe('valid: portform.CustomerProvince "Ontario" sent as "ON"');
    expect(await one({ CustomerProvince: "ON" })).toBe("valid");
  });

  it("refuses what is no province, naming the value and what is accepted for the country", async () => {
    expect(await one({ CustomerProvince: "XX" })).toBe(
      'portform.CustomerProvince "XX" is not a province, territory or state (give a Canadian province or territory: AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name)',
    );
  });

  it("refuses a province of the other country", async () => {
    expect(await one({ CustomerProvince: "Texas" })).toBe(
      'portform.CustomerProvince "Texas" (TX) is a US state, but portform.CustomerCountry is CA: give a Canadian province or territory: AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name, or fix the country',
    );
  });
});

describe("CustomerPostalCode", () => {
  it("sends a Canadian postal code upper-case with one space, from any spacing or case", async () => {
    const rows = await check(["m5h1j9", " M5H   1J9 ", "m5h 1J9"].map((p) => ({ CustomerPostalCode: p })));
    expect(rows.map((r) => (r.valid ? r.portForm["CustomerPostalCode"] : r.reason))).toEqual(["M5H 1J9", "M5H 1J9", "M5H 1J9"]);
    expect(verdict(rows[0])).toBe('valid: portform.CustomerPostalCode "m5h1j9" sent as "M5H 1J9"');
  });

  it("takes US ZIP and ZIP+4 codes for a US address", async () => {
    const rows = await check(["02134", "02134-1234", "021341234"].map((p) => ({ CustomerProvince: "MA", CustomerPostalCode: p, CustomerCountry: "US" })));
    expect(rows.map((r) => (r.valid ? r.portForm["CustomerPostalCode"] : r.reason))).toEqual(["02134", "02134-1234", "02134-1234"]);
  });

  it("names a US ZIP that lost its leading zeros as such", async () => {
    expect(await one({ CustomerProvince: "MA", CustomerPostalCode: "2134", CustomerCountry: "US" })).toBe(
      'portform.CustomerPostalCode "2134" looks like a US ZIP code that lost its leading zeros (the spreadsheet stored it as a number): write 02134, and format the column as text so it keeps them',
    );
    expect(await one({ CustomerProvince: "MA", CustomerPostalCode: "2134.0", CustomerCountry: "US" })).toMatch(/"2134\.0" looks like a US ZIP code that lost its leading zeros.*write 02134/);
  });

  it("refuses a ZIP for a Canadian address, and a code that is neither", async () => {
    expect(await one({ CustomerPostalCode: "12345" })).toBe(
      'portform.CustomerPostalCode "12345" is a US ZIP code, but portform.CustomerCountry is CA: give a Canadian postal code such as M5H 1J9, or fix the country',
    );
    // Canada Post never uses O: an O typed for a 0 is refused.
    expect(await one({ CustomerPostalCode: "M5H 1JO" })).toBe('portform.CustomerPostalCode "M5H 1JO" is not a Canadian postal code (give a Canadian postal code such as M5H 1J9)');
  });
});

describe("e-mail addresses", () => {
  it("refuses an address whose domain has no dot, in EmailAddress and in each of AdditionalEmailAddresses", async () => {
    expect(await one({ EmailAddress: "it@acme" })).toBe('portform.EmailAddress "it@acme" is not a deliverable e-mail address (its domain "acme" has no dot): give one like it@example.com');
    expect(await one({ EmailAddress: "it.acme.ca" })).toBe('portform.EmailAddress "it.acme.ca" is not a deliverable e-mail address (it has no @): give one like it@example.com');
    expect(await one({ AdditionalEmailAddresses: "billing@acme.ca; front desk@acme.ca" })).toBe(
      'portform.AdditionalEmailAddresses "front desk@acme.ca" is not a deliverable e-mail address (it is not an address): give one like it@example.com',
    );
    expect(await one({ EmailAddress: "Jean.Tremblay@acme.qc.ca", AdditionalEmailAddresses: "o'brien@acme.com" })).toBe("valid");
  });
});

describe("RequestedPortDate", () => {
  it("refuses a date in the past, a Saturday, a Sunday and a service holiday; takes today and a business day", async () => {
    const dates = ["2024-01-15", "2026-11-24", "2026-11-28", "2026-11-29", "2026-12-25", TODAY, "2026-12-24"];
    const rows = await check(dates.map((d) => ({ RequestedPortDate: d })));
    expect(rows.map(verdict)).toEqual([
      'portform.RequestedPortDate "2024-01-15" is in the past (today is 2026-11-25, Eastern time): give a business day from today on',
      'portform.RequestedPortDate "2026-11-24" is in the past (today is 2026-11-25, Eastern time): give a business day from today on',
      'portform.RequestedPortDate "2026-11-28" is a Saturday: ports are done on business days; give a weekday that is not a service holiday',
      'portform.RequestedPortDate "2026-11-29" is a Sunday: ports are done on business days; give a weekday that is not a service holiday',
      'portform.RequestedPortDate "2026-12-25" is Christmas Day, a day the service ports nothing: give another business day',
      "valid",
      "valid",
    ]);
  });

  it("asks for the service's holidays once however many rows give a date, and never when none does", async () => {
    const cal = calendar();
    await check(["2026-12-01", "2026-12-02", "2026-12-03"].map((d, i) => ({ RequestedPortDate: d, CustomerName: `Customer ${i}` })), cal);
    // One answer, held: later rows read it without asking again.
    expect(cal.asked).toBe(1);
    const none = calendar();
    await check([{ CustomerName: "A" }, { CustomerName: "B" }], none);
    expect(none.asked).toBe(0);
  });

  it("takes today as the machine's date in Eastern time", () => {
    // 03:30 UTC on 1 December is still 30 November in Toronto.
    expect(easternToday(new Date("2026-12-01T03:30:00Z"))).toBe("2026-11-30");
    expect(easternToday(new Date("2026-12-01T05:30:00Z"))).toBe("2026-12-01");
    // In summer time, 04:30 UTC is already the next day in Toronto; in winter, not yet.
    expect(easternToday(new Date("2026-07-01T04:30:00Z"))).toBe("2026-07-01");
    expect(easternToday(new Date("2026-12-01T04:30:00Z"))).toBe("2026-11-30");
  });

  it("gives the date ICU gives in America/Toronto at every quarter hour of two years, changes of clock included", () => {
    const toronto = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Toronto", year: "numeric", month: "2-digit", day: "2-digit" });
    const wrong: string[] = [];
    for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2028, 0, 1); at += 15 * 60_000) {
      const now = new Date(at);
      if (easternToday(now) !== toronto.format(now)) wrong.push(now.toISOString());
    }
    expect(wrong).toEqual([]);
  });
});

describe("every problem of a row, and --defaults", () => {
  it("names each disputed value of a row in one message", async () => {
    expect(await one({ CustomerProvince: "XX", EmailAddress: "it@acme", RequestedPortDate: "2026-11-28" })).toBe(
      'portform.CustomerProvince "XX" is not a province, territory or state (give a Canadian province or territory: AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name); ' +
        'portform.EmailAddress "it@acme" is not a deliverable e-mail address (its domain "acme" has no dot): give one like it@example.com; ' +
        'portform.RequestedPortDate "2026-11-28" is a Saturday: ports are done on business days; give a weekday that is not a service holiday',
    );
  });

  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "portin-carrier-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const load = async (portForm: Members) => {
    const path = join(dir, "customer.defaults.json");
    await writeFile(path, JSON.stringify({ portForm }));
    return loadDefaults(await readDefaultsFile(path), LOOKUPS.providers, calendar());
  };

  it("normalises --defaults values the same way, and refuses the file for a value a carrier would dispute", async () => {
    expect((await load({ CustomerProvince: "ontario", CustomerPostalCode: "m5h1j9", CustomerCountry: "Canada" })).portForm).toEqual({ CustomerProvince: "ON", CustomerPostalCode: "M5H 1J9", CustomerCountry: "CA" });
    const error = await load({ CustomerProvince: "Ontaroi", EmailAddress: "it@acme", RequestedPortDate: "2026-12-25" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `--defaults file ${JSON.stringify(join(dir, "customer.defaults.json"))}: ` +
        'portForm.CustomerProvince "Ontaroi" is not a province, territory or state (give a Canadian province or territory: AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name; or a US state by its two-letter code (NY, CA, …) or its name); ' +
        'portForm.EmailAddress "it@acme" is not a deliverable e-mail address (its domain "acme" has no dot): give one like it@example.com; ' +
        'portForm.RequestedPortDate "2026-12-25" is Christmas Day, a day the service ports nothing: give another business day',
    );
  });

  it("checks a row's country against a province that came from --defaults", async () => {
    const rows = await check([{ CustomerCountry: "US", CustomerPostalCode: "10001" }]);
    expect(verdict(rows[0])).toMatch(/^portform\.CustomerProvince "ON" is a Canadian province or territory, but portform\.CustomerCountry is US/);
  });
});
