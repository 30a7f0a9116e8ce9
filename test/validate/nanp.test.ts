import { parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { TOLL_FREE_AREA_CODES } from "../../src/catalog/operations.js";
import { parseNanp } from "../../src/validate/nanp.js";

describe("parseNanp", () => {
  it.each([
    "4165550101",
    "416-555-0101",
    "1-416-555-0101",
    "+1 (416) 555-0101",
    "416.555.0101",
    "(416) 555 0101",
    "  4165550101  ",
    "+14165550101",
    "1 416 555 0101",
  ])("reads %j as the regular number 4165550101", (text) => {
    expect(parseNanp(text)).toEqual({ ok: true, digits: "4165550101", kind: "regular" });
  });

  it("accepts the fictional 555-01XX numbers the sandbox and fixtures use", () => {
    for (const line of ["0100", "0150", "0199"]) expect(parseNanp(`416-555-${line}`).ok).toBe(true);
  });

  it("refuses a number outside NANP, saying only +1 numbers are accepted", () => {
    expect(parseNanp("+44 20 7946 0958")).toEqual({
      ok: false,
      reason: '"+44 20 7946 0958" is not a NANP number: only NANP (+1) numbers are accepted',
    });
  });

  it("names the value and its digit count when the length is wrong", () => {
    expect(parseNanp("416-555-010")).toEqual({ ok: false, reason: '"416-555-010" is not a valid NANP number (9 digits)' });
    expect(parseNanp("41655501011")).toEqual({ ok: false, reason: '"41655501011" is not a valid NANP number (11 digits)' });
    expect(parseNanp("+1 416 555 010")).toEqual({
      ok: false,
      reason: '"+1 416 555 010" is not a valid NANP number (9 digits after +1)',
    });
    expect(parseNanp("1-416-555-010")).toEqual({
      ok: false,
      reason: '"1-416-555-010" is not a valid NANP number (area code 141 cannot start with 1)',
    });
    expect(parseNanp("")).toEqual({ ok: false, reason: '"" is not a valid NANP number (0 digits)' });
  });

  it("refuses letters, extensions and other characters, naming the first one", () => {
    expect(parseNanp("416-555-CALL")).toEqual({ ok: false, reason: '"416-555-CALL" is not a valid NANP number (unexpected "C")' });
    expect(parseNanp("416-555-0101 x12")).toMatchObject({ ok: false, reason: expect.stringContaining("it ends in an extension (x 12)") as unknown });
  });

  it("refuses area codes and exchanges that start with 0 or 1", () => {
    expect(parseNanp("016-555-0101")).toEqual({ ok: false, reason: '"016-555-0101" is not a valid NANP number (area code 016 cannot start with 0)' });
    expect(parseNanp("416-155-0101")).toEqual({ ok: false, reason: '"416-155-0101" is not a valid NANP number (exchange 155 cannot start with 1)' });
  });

  it("refuses area codes not in service, such as 311 and 555", () => {
    expect(parseNanp("311-555-0101")).toEqual({
      ok: false,
      reason: '"311-555-0101" is not a valid NANP number (area code 311 with exchange 555 is not in service)',
    });
    expect(parseNanp("555-555-0101").ok).toBe(false);
  });

  it("classifies exactly the area codes 800 833 844 855 866 877 888 as toll-free", () => {
    expect([...TOLL_FREE_AREA_CODES].sort()).toEqual(["800", "833", "844", "855", "866", "877", "888"]);
    for (const npa of TOLL_FREE_AREA_CODES) {
      expect(parseNanp(`1-${npa}-555-0101`)).toEqual({ ok: true, digits: `${npa}5550101`, kind: "toll-free" });
    }
    expect(parseNanp("900-555-0101")).toMatchObject({ ok: true, kind: "regular" });
    expect(parseNanp("822-555-0101")).toMatchObject({ ok: false });
  });

  it("agrees with libphonenumber-js on random numbers, so caching its verdict per NPA-NXX loses nothing", () => {
    let seed = 20240601;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let block = 0; block < 400; block++) {
      const prefix = `${200 + (next() % 800)}${200 + (next() % 800)}`;
      for (let line = 0; line < 8; line++) {
        const digits = `${prefix}${String(next() % 10000).padStart(4, "0")}`;
        const library = parsePhoneNumberFromString(`+1${digits}`)?.isValid() ?? false;
        expect(parseNanp(digits).ok, digits).toBe(library);
      }
    }
  });
});

describe("numbers as spreadsheets and people write them (docs/contract.md §3)", () => {
  it.each(["4.16556E+09", "5,14556E+09"])("explains %j as scientific notation that lost digits, with either decimal mark", (text) => {
    expect(parseNanp(text)).toEqual({
      ok: false,
      reason: `${JSON.stringify(text)} is not a valid NANP number: a spreadsheet wrote it in scientific notation and dropped its last digits; format the column as Text and type the numbers again`,
    });
  });

  it.each([
    ["416-555-0101 ext. 22", "ext. 22"],
    ["416-555-0101 x22", "x 22"],
    ["416-555-0101, poste 22", "poste 22"],
    ["(416) 555-0101 extension 4410", "extension 4410"],
  ])("explains %j as a number with an extension, in English or French", (text, extension) => {
    const parsed = parseNanp(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toContain(`it ends in an extension (${extension}); a port moves the whole number`);
  });

  it("says nothing of an extension when the part before it is no number", () => {
    const parsed = parseNanp("555-0101 poste 22");
    expect(parsed.ok ? "" : parsed.reason).not.toContain("extension");
  });
});
