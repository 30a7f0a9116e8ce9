import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { derivePriorState } from "../../src/journal/prior.js";
import type { HeldState } from "../../src/journal/prior.js";
import type { JournalRecord } from "../../src/journal/records.js";

/** What a state says, with members never set and members set to undefined alike (as every reader takes them). */
const said = (state: HeldState | undefined): unknown => (state === undefined ? undefined : JSON.parse(JSON.stringify(state)));

const number = fc.integer({ min: 0, max: 40 }).map((n) => `41655501${String(n).padStart(2, "0")}`);
// A real digest (22 characters of base64url), and the odd ones older or edited journals hold.
const fingerprint = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), fc.constantFrom("", "short", "é-not-ascii-but-22-long"), fc.constant(undefined));
const state: fc.Arbitrary<HeldState> = fc.oneof(
  fc.record({ kind: fc.constant("submitted" as const), ticket: fc.constantFrom("PI-1", "PI-2", ""), requestId: fc.constantFrom("A", "B"), fingerprint }),
  fc.record({ kind: fc.constant("submitted" as const), ticket: fc.constant("PI-9"), requestId: fc.constant(""), outside: fc.constant(true as const), fingerprint }),
  fc.record({ kind: fc.constant("pending" as const), requestId: fc.constantFrom("A", "C"), fingerprint, after: fc.constantFrom(undefined, "PI-3") }),
  fc.record({ kind: fc.constant("unknown" as const), requestId: fc.constant("D"), message: fc.constantFrom("timeout", "502"), fingerprint }),
  fc.record({
    kind: fc.constant("rejected" as const),
    requestId: fc.constant("E"),
    message: fc.constantFrom("bad name", "not portable"),
    httpStatus: fc.constantFrom(400, null),
    fingerprint: fc.constantFrom("", "abcdefghijklmnopqrstuv"),
    order: fc.constantFrom(undefined, { ticket: "PI-4", status: "REJECTED", reason: "r", summary: "s", details: "d", at: "t" }),
  }),
);
const step = fc.oneof(
  fc.record({ op: fc.constant("set" as const), number, state }),
  fc.record({ op: fc.constant("delete" as const), number }),
);

describe("the compact store of number states (journal/number-states.ts)", () => {
  it("reads back what a Map would, through any run of sets, deletes and revivals", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        // Through derivePriorState's own store: a fold with no records leaves it empty.
        const prior = derivePriorState([]);
        const states = prior.states as unknown as Map<string, HeldState>;
        const model = new Map<string, HeldState>();
        for (const s of steps) {
          if (s.op === "set") {
            states.set(s.number, s.state);
            model.set(s.number, s.state);
          } else {
            expect(states.delete(s.number)).toBe(model.delete(s.number));
          }
          expect(states.size).toBe(model.size);
        }
        for (let n = 0; n <= 40; n++) {
          const key = `41655501${String(n).padStart(2, "0")}`;
          expect(said(states.get(key))).toEqual(said(model.get(key)));
          expect(states.has(key)).toBe(model.has(key));
        }
        expect([...states.entries()].map(([k, v]) => [k, said(v)]).sort()).toEqual([...model.entries()].map(([k, v]) => [k, said(v)]).sort());
        // An order's numbers, grouped without a state read back for each.
        const tickets = new Set(["PI-1", "PI-9"]);
        const expected = new Map<string, string[]>();
        for (const [n, held] of model) if (held.kind === "submitted" && tickets.has(held.ticket)) expected.set(held.ticket, [...(expected.get(held.ticket) ?? []), n]);
        const grouped = prior.submittedUnder(tickets);
        expect([...grouped].map(([t, list]) => [t, [...list].sort()]).sort()).toEqual([...expected].map(([t, list]) => [t, list.sort()]).sort());
      }),
    );
  });

  it("holds a million-scale journal's numbers exactly: every number, its ticket and its fingerprint, past every growth", () => {
    const records: JournalRecord[] = [];
    const requests = 300;
    const perRequest = 100;
    for (let r = 0; r < requests; r++) {
      const numbers = Array.from({ length: perRequest }, (_, i) => String(2_000_000_000 + r * 7919 + i * 104_729).padStart(10, "0"));
      const fingerprints = numbers.map((n) => `${n}${"x".repeat(12)}`);
      records.push({ type: "intent", requestId: `R${r}`, operation: "dids", numbers, fingerprints, at: "t" });
      if (r % 3 !== 0) records.push({ type: "outcome", requestId: `R${r}`, status: "submitted", ticket: `PI-${r}`, at: "t" });
    }
    const { states } = derivePriorState(records);
    expect(states.size).toBe(requests * perRequest);
    for (let r = 0; r < requests; r++) {
      for (let i = 0; i < perRequest; i += 17) {
        const n = String(2_000_000_000 + r * 7919 + i * 104_729).padStart(10, "0");
        const held = states.get(n);
        expect(held?.kind).toBe(r % 3 === 0 ? "pending" : "submitted");
        expect(held?.kind === "submitted" ? held.ticket : "").toBe(r % 3 === 0 ? "" : `PI-${r}`);
        expect(held?.kind === "rejected" ? "" : held?.fingerprint).toBe(`${n}${"x".repeat(12)}`);
      }
    }
    expect(states.get("0000000000")).toBeUndefined();
    expect(derivePriorState(records).submittedUnder(new Set(["PI-1", "PI-299"])).get("PI-1")?.length).toBe(perRequest);
    expect(states.get("not a number")).toBeUndefined();
  });

  it("keeps a number with a leading zero as written", () => {
    const { states } = derivePriorState([
      { type: "intent", requestId: "A", operation: "dids", numbers: ["0165550101"], at: "t" },
      { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-1", at: "t" },
    ]);
    expect([...states.keys()]).toEqual(["0165550101"]);
    expect(states.get("0165550101")?.kind).toBe("submitted");
    expect(states.get("165550101")).toBeUndefined();
  });

  it("reads back each number's fingerprint as its intent gave it, whatever its length", () => {
    const numbers = ["4165550100", "4165550101", "4165550102"];
    const odd = ["abcdefghijklmnopqrstuv", "", "é-not-ascii-but-22-long"];
    const even = ["abcdefghijklmnopqrstuv", "ABCDEFGHIJKLMNOPQRSTUV", "0123456789_-0123456789"];
    for (const fingerprints of [odd, even]) {
      const { states } = derivePriorState([
        { type: "intent", requestId: "R", operation: "dids", numbers, fingerprints, at: "t" },
        { type: "outcome", requestId: "R", status: "submitted", ticket: "PI-1", at: "t" },
      ]);
      expect(numbers.map((n) => { const held = states.get(n); return held?.kind === "submitted" ? held.fingerprint : "?"; })).toEqual(fingerprints);
    }
  });

  it("lets go of a status no number holds any more: forty nights of readings of the same orders hold one night's", () => {
    const records: JournalRecord[] = [];
    const orders = 50;
    const numbersOf = (order: number): string[] => Array.from({ length: 4 }, (_, i) => String(4_165_550_000 + order * 10 + i));
    for (let night = 1; night <= 40; night++) {
      for (let order = 0; order < orders; order++) {
        const at = new Date(Date.UTC(2026, 2, night, 6)).toISOString();
        records.push({ type: "status", ticket: `PI-${order}`, status: night < 40 ? "SUBMITTED" : "CONFIRMED", portDate: null, reason: "", summary: "", details: "", numbers: numbersOf(order), at });
      }
    }
    const { lastStatus } = derivePriorState(records);
    expect(lastStatus.get(numbersOf(7)[2] as string)).toMatchObject({ ticket: "PI-7", status: "CONFIRMED", at: new Date(Date.UTC(2026, 2, 40, 6)).toISOString() });
    expect((lastStatus as unknown as { sharedStates: number }).sharedStates).toBe(orders);
  });
});
