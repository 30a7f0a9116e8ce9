import { describe, expect, it } from "vitest";
import type { LetterContent } from "../../src/group/letters.js";
import { letterFileNames } from "../../src/letters/file-names.js";

const letter = (customer: string, account: string, carrier = "Bell Canada"): LetterContent => ({
  customer,
  account,
  carrier,
  address: {},
  numbers: ["4165550101"],
  portDates: [],
  french: false,
});

describe("letterFileNames", () => {
  it("names a letter after its customer and account, accents kept as their letters", () => {
    expect(letterFileNames([letter("Boulangerie Éclair", "BE-77")])).toEqual(["Boulangerie Eclair - BE-77.pdf"]);
  });

  it("leaves out what a file system or a File… cell cannot hold: separators, ';', control characters, a trailing dot", () => {
    expect(letterFileNames([letter("A/B: C;D\u0007 Inc.", "12\\34")])).toEqual(["A B C D Inc - 12 34.pdf"]);
    expect(letterFileNames([letter("../..", "")])).toEqual(["customer.pdf"]);
  });

  it("tells apart one account at two carriers by the carrier, then names that differ only in case by a number", () => {
    expect(letterFileNames([letter("Acme", "1"), letter("Acme", "1", "Vidéotron"), letter("ACME", "1", "Rogers")])).toEqual([
      "Acme - 1 - Bell Canada.pdf",
      "Acme - 1 - Videotron.pdf",
      "ACME - 1 - Rogers.pdf",
    ]);
    expect(letterFileNames([letter("Acme", "1"), letter("ACME", "1")])).toEqual(["Acme - 1 - Bell Canada.pdf", "ACME - 1 - Bell Canada (2).pdf"]);
  });
});
