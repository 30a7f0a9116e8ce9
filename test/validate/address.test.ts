/**
 * Splitting one "Service Address" cell (docs/contract.md §3, `{"split": "address"}`): 50
 * Canadian (English and French) and US street lines as customers write them.
 */
import { describe, expect, it } from "vitest";
import { splitAddress } from "../../src/validate/address.js";

/** cell, then number, name, type, direction, unit, floor. */
const ADDRESSES: readonly (readonly [string, string, string, string, string, string, string])[] = [
  ["120 King St W, Suite 400", "120", "King", "St", "W", "400", ""],
  ["100 Queen St W", "100", "Queen", "St", "W", "", ""],
  ["1 Yonge Street, Suite 1801", "1", "Yonge", "Street", "", "1801", ""],
  ["200 Bay St, 32nd Floor", "200", "Bay", "St", "", "", "32"],
  ["5-120 King St W", "120", "King", "St", "W", "5", ""],
  ["Unit 5 120 King St W", "120", "King", "St", "W", "5", ""],
  ["Suite 400 - 120 King St W", "120", "King", "St", "W", "400", ""],
  ["#400 120 King St W", "120", "King", "St", "W", "400", ""],
  ["120 King St W #400", "120", "King", "St", "W", "400", ""],
  ["1250 boul. René-Lévesque O, bureau 300", "1250", "René-Lévesque", "boul.", "O", "300", ""],
  ["8 rue Sainte-Catherine E", "8", "Sainte-Catherine", "rue", "E", "", ""],
  ["1000 rue De La Gauchetière O, bureau 2400", "1000", "De La Gauchetière", "rue", "O", "2400", ""],
  ["2000 avenue McGill College, bureau 500", "2000", "McGill College", "avenue", "", "500", ""],
  ["455 chemin Sainte-Foy", "455", "Sainte-Foy", "chemin", "", "", ""],
  ["1 Place Ville Marie, bureau 3900", "1", "Ville Marie", "Place", "", "3900", ""],
  ["350 Fifth Avenue, Suite 5100", "350", "Fifth", "Avenue", "", "5100", ""],
  ["1600 Pennsylvania Ave NW", "1600", "Pennsylvania", "Ave", "NW", "", ""],
  ["123 N Main St Apt 4B", "123", "Main", "St", "N", "4B", ""],
  ["742 Evergreen Terrace", "742", "Evergreen", "Terrace", "", "", ""],
  ["221B Baker St", "221B", "Baker", "St", "", "", ""],
  ["1 Infinite Loop", "1", "Infinite", "Loop", "", "", ""],
  ["1 Microsoft Way", "1", "Microsoft", "Way", "", "", ""],
  ["410 Terry Ave N", "410", "Terry", "Ave", "N", "", ""],
  ["233 S Wacker Dr, Suite 4400", "233", "Wacker", "Dr", "S", "4400", ""],
  ["55 Water St, Floor 9", "55", "Water", "St", "", "", "9"],
  ["500 W Madison St Ste 1000", "500", "Madison", "St", "W", "1000", ""],
  ["1 Main St", "1", "Main", "St", "", "", ""],
  ["10 Dundas St E", "10", "Dundas", "St", "E", "", ""],
  ["25 Sheppard Ave West", "25", "Sheppard", "Ave", "West", "", ""],
  ["4700 Keele St", "4700", "Keele", "St", "", "", ""],
  ["100 Consilium Pl, Suite 200", "100", "Consilium", "Pl", "", "200", ""],
  ["3300 Bloor St W, Unit 1200", "3300", "Bloor", "St", "W", "1200", ""],
  ["1055 W Georgia St", "1055", "Georgia", "St", "W", "", ""],
  ["200 Granville St, Suite 1600", "200", "Granville", "St", "", "1600", ""],
  ["10180 101 St NW", "10180", "101", "St", "NW", "", ""],
  ["855 2 St SW, Suite 3500", "855", "2", "St", "SW", "3500", ""],
  ["1959 Upper Water St", "1959", "Upper Water", "St", "", "", ""],
  ["360 Main St, Suite 2000", "360", "Main", "St", "", "2000", ""],
  ["1801 Hollis St", "1801", "Hollis", "St", "", "", ""],
  ["99 Bank St", "99", "Bank", "St", "", "", ""],
  ["50 O'Connor St, Suite 1500", "50", "O'Connor", "St", "", "1500", ""],
  ["2500 Boulevard Laurier", "2500", "Laurier", "Boulevard", "", "", ""],
  ["1 Harbourfront Cres", "1", "Harbourfront", "Cres", "", "", ""],
  ["77 Bloor St W Suite 600", "77", "Bloor", "St", "W", "600", ""],
  ["9 Kelly Rd", "9", "Kelly", "Rd", "", "", ""],
  ["1 Penn Plaza", "1", "Penn", "Plaza", "", "", ""],
  ["1200 Sixth Ave, Apt 12C", "1200", "Sixth", "Ave", "", "12C", ""],
  ["600 Congress Ave Ste 1400", "600", "Congress", "Ave", "", "1400", ""],
  ["30 Rockefeller Plaza, 54th Floor", "30", "Rockefeller", "Plaza", "", "", "54"],
  ["700 Louisiana St, Unit 3900", "700", "Louisiana", "St", "", "3900", ""],
];

describe("splitting a Service Address cell", () => {
  it("has 50 addresses to split", () => {
    expect(ADDRESSES).toHaveLength(50);
  });

  it.each(ADDRESSES)("splits %j", (cell, number, name, type, direction, unit, floor) => {
    expect(splitAddress(cell)).toEqual({
      ok: true,
      parts: { CustomerStreetNumber: number, CustomerStreetName: name, CustomerStreetType: type, CustomerStreetDirection: direction, CustomerUnit: unit, CustomerFloor: floor },
    });
  });

  it.each([
    ["King St W, Suite 400", "it does not start with a civic number"],
    ["120 King St W, Toronto, ON", '"Toronto" is neither a unit nor a floor; leave the city, province and postal code to their own columns'],
    ["120", "it has no street name"],
  ])("refuses %j, saying why and how to write it", (cell, why) => {
    const split = splitAddress(cell);
    expect(split.ok).toBe(false);
    expect(split.ok ? "" : split.reason).toBe(`${JSON.stringify(cell)} cannot be split into a street address (${why}); write it as "120 King St W, Suite 400", or use the portform.CustomerStreet… columns`);
  });
});
