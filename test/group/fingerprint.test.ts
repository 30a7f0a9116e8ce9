/**
 * Every row sent is fingerprinted (its intent records it), so rowFingerprint builds its text
 * from cached parts; it must give exactly what the plain form gives, which journals already
 * on disk hold beside their rejections.
 */
import { describe, expect, it } from "vitest";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import type { MemberValue, Members } from "../../src/catalog/members.js";
import { plainRowFingerprint, rowFingerprint } from "../../src/group/fingerprint.js";
import type { ValidRow } from "../../src/validate/types.js";

const DIDS = operationById("dids") as Operation;
const FAXES = operationById("virtual-faxes") as Operation;

function row(number: string, portForm: Members, item: Members = {}, operation = DIDS, request: Members = {}): ValidRow {
  return { valid: true, index: 0, line: 2, number, numberKind: "regular", operation, target: "4165550100", group: "", portForm, request, item };
}

const FORM = Object.freeze({
  CustomerName: 'Acme "Plumbing", Ltd.',
  CurrentProvider: 17,
  AdditionalEmailAddresses: ["a@acme.ca", "b@acme.ca"],
  ExtraDetails: [{ Key: "Site", Value: "Front St" }],
  FileLetterOfAuthorization: [{ FileName: "loa.pdf", ContentType: "application/pdf", Base64Contents: "JVBERi0xLjQK" }],
  ContactMeBLIF: true,
});

describe("a row's fingerprint", () => {
  it("is the plain form's, for shared frozen records, per-row items, nested lists and attachments", () => {
    const rows = [
      row("4165550101", FORM),
      row("4165550102", FORM, { Label: "ext 2", CallerID: 4165550100 }),
      row("4165550103", Object.freeze({ ...FORM, CustomerName: "Other" }), Object.freeze({ Label: "ext 3" })),
      row("4165550104", {}, {}, FAXES, Object.freeze({ FaxEmail: "fax@acme.ca" })),
      row("4165550105", { ["Quote\u2028Key"]: "line\nbreak" }),
    ];
    for (const r of rows) expect(rowFingerprint(r)).toBe(plainRowFingerprint(r));
    expect(new Set(rows.map(rowFingerprint)).size).toBe(rows.length);
  });

  it("follows a record that is not frozen when it changes, rather than a cached text", () => {
    const form: Record<string, MemberValue> = { CustomerName: "Acme" };
    const r = row("4165550101", form);
    const before = rowFingerprint(r);
    form["CustomerName"] = "Acme Ltd";
    expect(rowFingerprint(r)).not.toBe(before);
    expect(rowFingerprint(r)).toBe(plainRowFingerprint(r));
  });
});
