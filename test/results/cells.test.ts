import { describe, expect, it } from "vitest";
import { isPasswordHeader, resultsHeader, rowShaper } from "../../src/results/cells.js";
import { escapeFormula } from "../../src/results/formula.js";
import { RESULT_COLUMN_NAMES } from "../../src/results/columns.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";

const submitted: RowOutcome = {
  status: "submitted",
  number: "4165550101",
  numberType: "regular",
  operation: "POST /v2/NumberPorts/Inbound/DIDs",
  sequence: 3,
  ticket: "T-1",
  httpStatus: 200,
  message: "",
};

describe("escapeFormula", () => {
  it.each([
    ["=SUM(A1)", "'=SUM(A1)"],
    ["+cmd", "'+cmd"],
    ["-cmd", "'-cmd"],
    ["@x", "'@x"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["\uFF1DSUM(A1)", "'\uFF1DSUM(A1)"],
  ])("prefixes %j with a quote so a spreadsheet shows it instead of running it", (value, escaped) => {
    expect(escapeFormula(value)).toBe(escaped);
  });

  it.each(["+1 (416) 555-0101", "-5", "+14165550101", "-1.5", "1-416-555-0101"])(
    "leaves the phone-number-like value %j alone",
    (value) => {
      expect(escapeFormula(value)).toBe(value);
    },
  );

  it.each(["plain", "", "a=b", "4165550101", "'=already"])("leaves %j alone: it does not start a formula", (value) => {
    expect(escapeFormula(value)).toBe(value);
  });

  it("escapes a tab before digits: a tab is not one of the phone-number characters", () => {
    expect(escapeFormula("\t123")).toBe("'\t123");
  });

  it("defuses a cell exactly when its first character, normalized as Apple Numbers does, is a trigger, whatever that character is", () => {
    // The plain rule, for every UTF-16 unit (the fast path skips the checks for most of them).
    for (let code = 0; code <= 0xffff; code++) {
      const value = `${String.fromCharCode(code)}cmd`;
      const runs = /^[=+\-@\t\r]/.test(String.fromCodePoint(value.codePointAt(0) ?? 0).normalize("NFKC"));
      expect(escapeFormula(value), `U+${code.toString(16)}`).toBe(runs ? `'${value}` : value);
    }
  });
});

describe("isPasswordHeader", () => {
  it.each(["item.SipPassword", "WebSelfCare Password", "item.web-self-care_password", " PASSWORD ", "password_"])(
    "treats %j as a password column",
    (header) => {
      expect(isPasswordHeader(header)).toBe(true);
    },
  );

  it.each(["password hint", "passwords", "note", "item.Label"])("does not treat %j as a password column", (header) => {
    expect(isPasswordHeader(header)).toBe(false);
  });
});

describe("rowShaper", () => {
  it("puts the result cells after the input's own cells, in RESULT_COLUMN_NAMES order", () => {
    const shape = rowShaper(["number", "note"]);
    expect(shape(["4165550101", "hello"], submitted)).toEqual([
      "4165550101",
      "hello",
      "submitted",
      "4165550101",
      "regular",
      "POST /v2/NumberPorts/Inbound/DIDs",
      "3",
      "T-1",
      "200",
      "",
    ]);
    expect(resultsHeader(["number", "note"])).toEqual(["number", "note", ...RESULT_COLUMN_NAMES]);
  });

  it("writes absent number type, batch and HTTP status as empty cells", () => {
    const shape = rowShaper(["number"]);
    const invalid: RowOutcome = { ...submitted, status: "invalid", number: "", numberType: null, operation: "", sequence: null, ticket: "", httpStatus: null, message: "no number" };
    expect(shape(["x"], invalid)).toEqual(["x", "invalid", "", "", "", "", "", "", "no number"]);
  });

  it("pads a short ragged row with empty cells so the result columns stay under their headers", () => {
    const shape = rowShaper(["number", "a", "b"]);
    expect(shape(["4165550101"], submitted).slice(0, 4)).toEqual(["4165550101", "", "", "submitted"]);
  });

  it("cuts a long ragged row to the header's width", () => {
    const shape = rowShaper(["number", "a"]);
    expect(shape(["4165550101", "x", "extra", "more"], submitted).slice(0, 3)).toEqual(["4165550101", "x", "submitted"]);
  });

  it("masks non-empty cells of password columns and keeps empty ones empty", () => {
    const shape = rowShaper(["number", "item.SipPassword", "WebSelfCare Password"]);
    expect(shape(["4165550101", "s3cret", ""], submitted).slice(0, 3)).toEqual(["4165550101", "***", ""]);
  });

  it("does not mask a password-looking value in a column that is not a password column", () => {
    const shape = rowShaper(["number", "note"]);
    expect(shape(["4165550101", "password=hunter2"], submitted)[1]).toBe("password=hunter2");
  });

  it("escapes formulas in input cells and in the result message, but not phone numbers", () => {
    const shape = rowShaper(["number", "note"]);
    const record = shape(["+1 (416) 555-0101", "=HYPERLINK(\"x\")"], { ...submitted, message: "-rejected by @carrier" });
    expect(record[0]).toBe("+1 (416) 555-0101");
    expect(record[1]).toBe("'=HYPERLINK(\"x\")");
    expect(record[record.length - 1]).toBe("'-rejected by @carrier");
  });

  it("escapes formulas in the header cells", () => {
    expect(resultsHeader(["number", "=cmd"])[1]).toBe("'=cmd");
  });
});
