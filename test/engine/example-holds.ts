import type { AccountHold } from "../../src/engine/verdict.js";

/**
 * One example of each thing the account's order list can say of a number (engine/verdict.ts
 * `AccountHold`), named as docs/verdicts.md names them: the verdict table and the one-story
 * test walk the same list. The rejected order was sent for the end user "Acme".
 */
export const EXAMPLE_HOLDS = {
  nothing: undefined,
  "an open order, ticket known": { kind: "open", orderId: "O-7", ticket: "PI-000007", status: "SUBMITTED", why: "", portDate: "" },
  "an open order, no ticket yet": { kind: "open", orderId: "O-7", ticket: "", status: "", why: "PortInStatus does not show it yet", portDate: "" },
  "a closed order that ported it": { kind: "ported", orderId: "O-8", ticket: "PI-000008", status: "COMPLETED" },
  "a closed order the carrier rejected": {
    kind: "rejected",
    orderId: "O-9",
    ticket: "PI-000009",
    status: "REJECTED",
    order: { ticket: "PI-000009", status: "REJECTED", reason: "name does not match", summary: "", details: "", at: "t" },
    sentWith: { accountNumber: "", endUserName: "Acme" },
  },
} satisfies Record<string, AccountHold | undefined>;
