import { describe, expect, it } from "vitest";
import { letterFingerprint, letterGroups, numberRuns } from "../../src/group/letters.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import type { ValidRow } from "../../src/validate/types.js";

const PROVIDERS = [
  { id: 17, name: "Bell Canada" },
  { id: 42, name: "Vidéotron" },
];
const FORM: Members = {
  CustomerName: "Maple Dental",
  CustomerAccountNumber: "7741",
  CustomerStreetNumber: "120",
  CustomerStreetName: "King St W",
  CustomerCity: "Toronto",
  CustomerProvince: "ON",
  CustomerPostalCode: "M5H 1J9",
  CustomerCountry: "CA",
  EmailAddress: "it@maple.ca",
  CurrentProvider: 17,
  RequestedPortDate: "2030-12-10",
};

function row(number: string, overrides: Partial<ValidRow> = {}): ValidRow {
  const op = operationById("dids");
  if (!op) throw new Error("unknown op");
  return { valid: true, index: 0, line: 2, number, numberKind: "regular", operation: op, target: "4165550100", group: "", portForm: FORM, request: {}, item: {}, ...overrides };
}

describe("letterGroups", () => {
  it("gives one letter to a customer's rows on two trunks and in two groups, and another to the same customer at another carrier", () => {
    const rows = [
      row("4165550101"),
      row("5145550101", { target: "5145550100", group: "phase-2" }),
      row("4165550102", { portForm: { ...FORM, CurrentProvider: 42 } }),
    ];
    const letters = letterGroups(rows, PROVIDERS);
    expect(letters.map((l) => [l.content.carrier, l.content.numbers])).toEqual([
      ["Bell Canada", ["4165550101", "5145550101"]],
      ["Vidéotron", ["4165550102"]],
    ]);
  });

  it("tells customers apart by name and by account number", () => {
    const letters = letterGroups([row("4165550101"), row("4165550102", { portForm: { ...FORM, CustomerAccountNumber: "7742" } }), row("4165550103", { portForm: { ...FORM, CustomerName: "Maple Dental Inc." } })], PROVIDERS);
    expect(letters).toHaveLength(3);
  });

  it("lists each number once, in order, and every port date the rows ask for", () => {
    const [letter] = letterGroups([row("4165550103"), row("4165550101"), row("4165550101"), row("4165550102", { portForm: { ...FORM, RequestedPortDate: "2030-12-11" } })], PROVIDERS);
    expect(letter?.content.numbers).toEqual(["4165550101", "4165550102", "4165550103"]);
    expect(letter?.content.portDates).toEqual(["2030-12-10", "2030-12-11"]);
  });

  it("writes a customer's letter in French when every row that gives a Locale gives FrenchCA (5)", () => {
    const french = (numbers: readonly string[], locales: readonly (number | undefined)[]): boolean | undefined =>
      letterGroups(numbers.map((n, at) => row(n, { item: locales[at] === undefined ? {} : { Locale: locales[at] } })), PROVIDERS)[0]?.content.french;
    expect(french(["4165550101", "4165550102"], [5, 5])).toBe(true);
    expect(french(["4165550101", "4165550102"], [5, undefined])).toBe(true);
    expect(french(["4165550101", "4165550102"], [5, 2])).toBe(false);
    expect(french(["4165550101"], [undefined])).toBe(false);
  });
});

describe("letterFingerprint", () => {
  const fingerprint = (rows: ValidRow[]): string => letterFingerprint((letterGroups(rows, PROVIDERS)[0] as { content: Parameters<typeof letterFingerprint>[0] }).content);
  const base = [row("4165550101"), row("4165550102")];

  it("is the same for the same numbers and values, whatever the rows' order or the columns never printed", () => {
    expect(fingerprint([...base].reverse())).toBe(fingerprint(base));
    expect(fingerprint(base.map((r) => ({ ...r, portForm: { ...FORM, EmailAddress: "new@maple.ca" }, target: "5145550100" })))).toBe(fingerprint(base));
  });

  it("changes when a number is added or taken away, or a printed value changes", () => {
    const was = fingerprint(base);
    expect(fingerprint([...base, row("4165550103")])).not.toBe(was);
    expect(fingerprint([row("4165550101")])).not.toBe(was);
    const changes: Members[] = [{ CustomerAccountNumber: "7741-1" }, { CustomerPostalCode: "M5H 1J8" }, { RequestedPortDate: "2030-12-11" }, { CurrentProvider: 42 }, { CustomerUnit: "300" }];
    for (const change of changes) {
      expect(fingerprint(base.map((r) => ({ ...r, portForm: { ...FORM, ...change } }))), JSON.stringify(change)).not.toBe(was);
    }
  });
});

describe("numberRuns", () => {
  it("writes consecutive numbers as one run and a number alone as itself", () => {
    expect(numberRuns(["4165550100", "4165550101", "4165550102", "4165550104", "4165550199", "4165550200"])).toEqual([
      { first: "4165550100", last: "4165550102", count: 3 },
      { first: "4165550104", last: "4165550104", count: 1 },
      { first: "4165550199", last: "4165550200", count: 2 },
    ]);
    expect(numberRuns([])).toEqual([]);
  });
});
