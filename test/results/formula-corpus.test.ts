/**
 * Every results cell (docs/contract.md §6, "Formula defusing") checked against a corpus of
 * formula-injection payloads, through each way a cell is made: the input's own cells and
 * header, and the result_* cells, written by the plain path and the fast one alike.
 */
import { describe, expect, it } from "vitest";
import { resultsHeader, resultTail, rowShaper, verbatimTest } from "../../src/results/cells.js";
import { escapeFormula } from "../../src/results/formula.js";
import type { RowOutcome } from "../../src/results/row-outcome.js";
import { FORMULA_PAYLOADS, runsAsFormula } from "../support/formula-payloads.js";

const outcome = (text: string): RowOutcome => ({
  status: "rejected",
  number: "",
  numberType: null,
  operation: "",
  sequence: null,
  ticket: text,
  httpStatus: 422,
  message: text,
});

describe.each(FORMULA_PAYLOADS)("the payload %j", ({ text, phoneLike }) => {
  const expected = phoneLike ? text : `'${text}`;

  it(phoneLike ? "is left alone: SPEC exempts phone-number characters" : "is prefixed with a quote", () => {
    expect(escapeFormula(text)).toBe(expected);
    expect(runsAsFormula(escapeFormula(text))).toBe(false);
  });

  it("is defused as an input cell, a header cell, a ticket and a message", () => {
    const header = ["number", text];
    expect(resultsHeader(header)[1]).toBe(expected);
    const cells = rowShaper(header)(["4165550101", text], outcome(text));
    expect(cells[1]).toBe(expected);
    expect(cells.filter(runsAsFormula)).toEqual([]);
    // The fast path's tail, as text: parsed back, its cells are the same.
    const tail = resultTail(outcome(text), ",", "\n");
    expect(tail).toContain(expected.includes('"') || expected.includes(",") || /[\r\n]/.test(expected) ? `"${expected.replaceAll('"', '""')}"` : expected);
  });

  it(phoneLike ? "may be copied from the input as it stands" : "is never copied from the input as it stands", () => {
    expect(verbatimTest(["number", "note"])(["4165550101", text])).toBe(phoneLike);
  });
});
