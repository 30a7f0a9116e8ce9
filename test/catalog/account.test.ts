import { describe, expect, it } from "vitest";
import { portInPhase } from "../../src/catalog/account.js";

describe("portInPhase: which of the service's Status words end an order (docs/contract.md §6)", () => {
  it.each([
    ["REJECTED", "ended"],
    ["Cancelled", "ended"],
    ["CANCELED", "ended"],
    ["FAILED", "ended"],
    ["EXPIRED", "ended"],
    ["COMPLETE", "completed"],
    [" COMPLETED ", "completed"],
    ["SUBMITTED", "open"],
    ["CONFIRMED", "open"],
    ["CANCEL_PENDING", "open"],
    ["", "open"],
  ])("%j is %s", (status, phase) => {
    expect(portInPhase(status)).toBe(phase);
  });
});
