/**
 * A row's 9-1-1 address (docs/contract.md §3 `e911.<Member>`, docs/e911.md): its cells over the
 * --defaults "e911" object, held to the carrier-ready rules and the V911 record's required
 * members, and the header and defaults names refused with the closest one.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { roleOf } from "../../src/input/columns.js";
import { matchColumns } from "../../src/input/columns.js";
import type { SheetLayout } from "../../src/input/types.js";
import { loadDefaults } from "../../src/validate/defaults.js";
import { createE911Reader } from "../../src/validate/e911.js";

const HEADER = ["number", "pilot_number", "e911.FirstName", "E911.lastname", "e911 . StreetNumber", "e911.StreetName", "e911.City", "e911.ProvinceState", "e911.PostalZip"];

function layoutOf(header: readonly string[]): SheetLayout {
  return { source: "sheet.csv", baseDir: ".", header, columns: matchColumns("sheet.csv", header), delimiter: "," } as unknown as SheetLayout;
}

const read = (cells: readonly string[], defaults?: Record<string, string>) => createE911Reader(layoutOf(HEADER), defaults).read(["4165550101", "4165550100", ...cells]);

describe("a row's 9-1-1 address", () => {
  it.each([
    ["a whole address, province and postal code written as carriers expect", ["Ada", "Lovelace", "100", "King St W", "Toronto", "ontario", "m5x1a9"], undefined, { kind: "address", address: { FirstName: "Ada", LastName: "Lovelace", StreetNumber: "100", StreetName: "King St W", City: "Toronto", ProvinceState: "ON", PostalZip: "M5X 1A9" } }],
    ["no cell and no defaults: none", ["", "", "", "", "", "", ""], undefined, { kind: "none" }],
    ["the defaults fill the cells a row leaves empty", ["Ada", "Lovelace", "100", "King St W", "", "", ""], { City: "Ottawa", ProvinceState: "ON", PostalZip: "K1A 0B1" }, { kind: "address", address: { City: "Ottawa", PostalZip: "K1A 0B1" } }],
    ["missing members named", ["Ada", "", "100", "King St W", "Toronto", "ON", ""], undefined, { kind: "invalid", reason: "e911.LastName, e911.PostalZip are missing: a 9-1-1 address needs FirstName, LastName, StreetNumber, StreetName, City, ProvinceState, PostalZip" }],
    ["a province that is none", ["Ada", "Lovelace", "100", "King St W", "Toronto", "Ontarioo", "M5X 1A9"], undefined, { kind: "invalid" }],
    ["a US ZIP in a Canadian province", ["Ada", "Lovelace", "100", "King St W", "Toronto", "ON", "10001"], undefined, { kind: "invalid", reason: 'e911.PostalZip "10001" is a US ZIP code, but e911.ProvinceState ON is in Canada: fix one of them' }],
  ] as const)("%s", (_, cells, defaults, expected) => {
    expect(read(cells, defaults)).toMatchObject(expected);
  });

  it("never takes the billing address: a sheet with PortForm.Customer… but no e911 column gives none", () => {
    const layout = layoutOf(["number", "pilot_number", "portform.CustomerStreetNumber", "portform.CustomerCity"]);
    const reader = createE911Reader(layout, undefined);
    expect(reader.given).toBe(false);
    expect(reader.read(["4165550101", "4165550100", "12", "Toronto"])).toEqual({ kind: "none" });
  });

  it("refuses a header naming no 9-1-1 member, with the closest", () => {
    expect(() => roleOf('sheet.csv: column 3 "e911.Citty"', "e911.Citty")).toThrow(new InputError('sheet.csv: column 3 "e911.Citty" names no 9-1-1 address member; did you mean "e911.City"?'));
  });

  it("takes an \"e911\" object in --defaults, and refuses an unknown member in it with the closest", async () => {
    const defaults = await loadDefaults({ path: "d.json", json: { e911: { City: "Toronto", PostalZip: "M5X 1A9" } } }, []);
    expect(defaults.e911).toEqual({ City: "Toronto", PostalZip: "M5X 1A9" });
    await expect(loadDefaults({ path: "d.json", json: { e911: { Cty: "Toronto" } } }, [])).rejects.toThrow("e911.Cty: unknown member (did you mean e911.City?)");
  });
});
