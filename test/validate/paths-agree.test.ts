/**
 * The validator judges a row on its fast path and words an invalid row's message on the path
 * that lists every problem (docs/contract.md §3 "Invalid rows"). The two
 * must never disagree: for any row, the fast path finds it valid exactly when the full list is
 * empty, and the rule the fast path stopped at is among those the message names. Rows are
 * checked in sequence through one validator, so rows meeting the shared-record caches are
 * judged as well as rows converted in full.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { matchColumns } from "../../src/input/columns.js";
import type { SheetRow } from "../../src/input/types.js";
import type { Defaults, Lookups } from "../../src/validate/types.js";
import { createValidatorPaths } from "../../src/validate/validator.js";
import { NO_HOLIDAYS } from "../../src/validate/port-date.js";
import { PORT_FORM, TOLL_FREE_PORT_FORM } from "../support/port-form.js";
import { fuzzParams, testTimeout } from "../fuzz/settings.js";

const LOOKUPS: Lookups = {
  trunks: [{ pilotNumber: "4165550000", label: "HQ" }, { pilotNumber: "4165550001", label: "Branch" }],
  offerings: [
    { offeringId: "GP-1", type: 1, name: "General" },
    { offeringId: "RES-3", type: 3, name: "Home line" },
    { offeringId: "BL-4", type: 4, name: "Business line" },
    { offeringId: "PCF-5", type: 5, name: "Forward" },
    { offeringId: "FAX-7", type: 7, name: "Fax" },
    { offeringId: "ODD-9", type: 9, name: "Mystery" },
  ],
  providers: [{ id: 17, name: "Bell Canada" }, { id: 12, name: "Rogers" }],
};

/** Member columns a sheet may have: some for one number kind or one operation only, so refusals happen. */
const MEMBER_HEADERS = [
  "portform.CustomerName",
  "portform.CurrentProvider",
  "portform.CustomerProvince",
  "portform.CustomerPostalCode",
  "portform.EmailAddress",
  "portform.RequestedPortDate",
  "portform.NumbersToRemain",
  "portform.CustomerReferenceNumber",
  "request.ParentSubscriptionID",
  "request.FaxEmail",
  "item.Account",
  "item.Enabled",
  "item.Locale",
  "item.ForwardingTN",
  "item.Label",
];

const NUMBERS = ["", "4165550123", "(416) 555-0199", "+1 613 555 0142", "8005550100", "8885550123", "123", "4165550100-4165550110", "1115550100"];
const PILOTS = ["", "", "4165550000", "416-555-0001", "6135550000", "pilot"];
const OFFERINGS = ["", "", "GP-1", "gp-1", "RES-3", "BL-4", "PCF-5", "FAX-7", "ODD-9", "GP1"];
/** Member cells: each valid for some member types and not for others. */
const MEMBER_CELLS = ["12", "x", "yes", "ON", "Ontario", "Zz", "M5X 1A9", "12345", "a@b.example", "Bell Canada", "Nobody Telecom", "4165550123", "2026-12-15", "2020-01-01", "en", "4165550123;6135550142"];

const DEFAULTS: readonly Defaults[] = [
  { portForm: PORT_FORM, request: {}, item: {} },
  { portForm: TOLL_FREE_PORT_FORM, request: {}, item: {} },
  { portForm: {}, request: {}, item: {} },
  { portForm: PORT_FORM, request: { ParentSubscriptionID: "S-1", FaxEmail: "fax@acme.example" }, item: { Account: 1, Enabled: true, Locale: "en" } },
];

const sheetArb = fc
  .record({
    members: fc.shuffledSubarray(MEMBER_HEADERS, { maxLength: 6 }),
    defaults: fc.constantFrom(...DEFAULTS),
    rows: fc.integer({ min: 1, max: 8 }),
  })
  .chain(({ members, defaults, rows }) => {
    const cell = fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 3, arbitrary: fc.constantFrom(...MEMBER_CELLS) });
    // Mostly a number and one target that resolve, so that rows get as far as their members.
    const number = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NUMBERS.slice(1, 6)) }, fc.constantFrom(...NUMBERS));
    const target = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...PILOTS.slice(2, 4)).map((pilot) => [pilot, ""] as const) },
      { weight: 3, arbitrary: fc.constantFrom(...OFFERINGS.slice(2, 8)).map((offering) => ["", offering] as const) },
      fc.tuple(fc.constantFrom(...PILOTS), fc.constantFrom(...OFFERINGS)),
    );
    const rowArb = fc.tuple(number, target, fc.tuple(...members.map(() => cell)));
    return fc.record({
      header: fc.constant(["number", "pilot_number", "offering_id", ...members]),
      defaults: fc.constant(defaults),
      rows: fc.array(rowArb.map(([n, [pilot, offering], rest]) => [n, pilot, offering, ...rest]), { minLength: rows, maxLength: rows }),
    });
  });

const RUNS = 300;
const RUN_TIMEOUT_MS = 5_000;

it(
  "finds a row valid on its fast path exactly when the full problem list is empty, and names the rule it stopped at",
  async () => {
    let invalidSeen = 0;
    let validSeen = 0;
    await fc.assert(
      fc.asyncProperty(sheetArb, async (sheet) => {
        const paths = createValidatorPaths({
          layout: { source: "sheet.csv", baseDir: "/nowhere", delimiter: ",", header: sheet.header, columns: matchColumns("sheet.csv", sheet.header) },
          lookups: LOOKUPS,
          defaults: sheet.defaults,
          calendar: { today: "2026-11-02", holidays: () => NO_HOLIDAYS },
        });
        for (const [index, cells] of sheet.rows.entries()) {
          const row: SheetRow = { index, line: index + 2, cells };
          const first = await paths.firstProblem(row);
          const list = await paths.everyProblem(row);
          expect(list).not.toBeNull();
          if (list === null) return;
          expect(list.number).toBe(first.number);
          expect(list.numberKind).toBe(first.numberKind);
          if (first.valid) {
            validSeen++;
            expect(list.problems).toEqual([]);
            expect(list.operation).toBe(first.operation);
          } else {
            invalidSeen++;
            expect(list.problems.length).toBeGreaterThan(0);
            // The carrier's disputes of one PortForm are one reason on the fast path, several entries here.
            expect(list.problems.join("; ")).toContain(first.reason);
            if (first.operation !== null) expect(list.operation).toBe(first.operation);
          }
        }
      }),
      fuzzParams(RUNS, RUN_TIMEOUT_MS),
    );
    // The generator must reach both verdicts, or the property says nothing.
    expect(validSeen).toBeGreaterThan(50);
    expect(invalidSeen).toBeGreaterThan(50);
  },
  testTimeout(RUNS, RUN_TIMEOUT_MS),
);
