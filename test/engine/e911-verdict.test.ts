/**
 * What a number's 9-1-1 registration calls for (engine/verdict.ts e911VerdictOf,
 * e911AfterAsking; docs/verdicts.md "9-1-1 records"), every journal state against the address now.
 */
import { describe, expect, it } from "vitest";
import { e911AfterAsking, e911VerdictOf } from "../../src/engine/verdict.js";
import type { E911State } from "../../src/journal/prior.js";

const NOW = "address-now";

describe("a number's 9-1-1 verdict", () => {
  it.each([
    ["nothing recorded", undefined, "register"],
    ["registered with this address", { kind: "registered", address: NOW }, "registered"],
    ["registered with another address", { kind: "registered", address: "before" }, "replace"],
    ["an intent alone, or an unknown, refused or failed outcome", { kind: "unsure", address: NOW, message: "" }, "ask"],
  ] as const)("%s: %s", (_, state: E911State | undefined, kind) => {
    expect(e911VerdictOf(state, NOW).kind).toBe(kind);
  });

  it.each([
    ["the service has no record", null, "register"],
    ["it holds this address", NOW, "registered"],
    ["it holds another", "before", "replace"],
  ] as const)("after asking, when %s", (_, record, kind) => {
    expect(e911AfterAsking(record, NOW).kind).toBe(kind);
  });
});
