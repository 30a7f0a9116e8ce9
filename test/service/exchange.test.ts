import { describe, expect, it } from "vitest";
import { scrubberFor } from "../../src/service/exchange.js";

describe("scrubbing credentials from the service's text", () => {
  it("replaces a long password wherever it appears, and both base64 forms", () => {
    const scrub = scrubberFor("acme", "Tr0ub4dor&3");
    const basic = Buffer.from("acme:Tr0ub4dor&3").toString("base64");
    expect(scrub(`echo: Basic ${basic}; pw=Tr0ub4dor&3; xTr0ub4dor&3x`)).toBe("echo: Basic ***; pw=***; x***x");
  });

  it("leaves tickets alone when a short password occurs inside them, but not the password standing alone", () => {
    const scrub = scrubberFor("acme", "0");
    expect(scrub("ticket PI-000001 accepted; password 0 rejected")).toBe("ticket PI-000001 accepted; password *** rejected");
  });

  it("treats a password's regex characters literally", () => {
    expect(scrubberFor("acme", "a.b")("a.b and axb")).toBe("*** and axb");
  });
});
