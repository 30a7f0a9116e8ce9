import { describe, expect, it } from "vitest";
import { rejectionsByNumber } from "../../src/send/rejection.js";

const REQUEST = ["4165550101", "4165550102", "8665550199"];

describe("rejectionsByNumber", () => {
  it("gives each named number the clause about it, and nothing to the numbers not named", () => {
    const parts = rejectionsByNumber("8665550199 is not portable: out of area; 4165550101 already has a pending port-in (ticket PI-000001)", REQUEST);
    expect(parts).toEqual(
      new Map([
        ["8665550199", "8665550199 is not portable: out of area"],
        ["4165550101", "4165550101 already has a pending port-in (ticket PI-000001)"],
      ]),
    );
  });

  it.each(["1-866-555-0199 is not portable", "(866) 555-0199 is not portable", "+1 866.555.0199 is not portable", "Number 18665550199 is not portable."])(
    "reads the number however the message writes it: %s",
    (message) => {
      expect([...(rejectionsByNumber(message, REQUEST)?.keys() ?? [])]).toEqual(["8665550199"]);
    },
  );

  it("splits sentences and lines, and keeps a clause naming two numbers for both", () => {
    const parts = rejectionsByNumber("Request refused. 4165550101 and 4165550102 belong to another customer.\nContact support.", REQUEST);
    expect(parts).toEqual(
      new Map([
        ["4165550101", "4165550101 and 4165550102 belong to another customer."],
        ["4165550102", "4165550101 and 4165550102 belong to another customer."],
      ]),
    );
  });

  it("is null when the message names none of the request's numbers, so the whole request stands rejected", () => {
    expect(rejectionsByNumber("PortForm.CustomerName is required", REQUEST)).toBeNull();
    expect(rejectionsByNumber("4165559999 is not portable", REQUEST)).toBeNull();
    expect(rejectionsByNumber("account 41655501012 is closed", REQUEST)).toBeNull();
  });
});
