import { describe, expect, it } from "vitest";
import { groupRequests } from "../../src/group/requests.js";
import { operationById, type OperationId } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import type { ValidRow } from "../../src/validate/types.js";

const FORM = { CustomerName: "Maple Dental", CustomerCountry: "CA", CurrentProvider: 17 };

function row(index: number, overrides: Partial<Omit<ValidRow, "operation">> & { op?: OperationId } = {}): ValidRow {
  const op = operationById(overrides.op ?? "dids");
  if (!op) throw new Error("unknown op");
  return {
    valid: true,
    index,
    line: index + 2,
    number: String(4165550000 + index),
    numberKind: op.numberKind,
    operation: op,
    target: "4165550100",
    group: "",
    portForm: FORM,
    request: {},
    item: {},
    ...overrides,
  };
}

const rows = (n: number, make: (i: number) => ValidRow = (i) => row(i)) => Array.from({ length: n }, (_, i) => make(i));

describe("groupRequests", () => {
  it("cuts 250 numbers for one trunk into requests of 100, 100 and 50, in input order", () => {
    const requests = groupRequests(rows(250), 100);
    expect(requests.map((r) => r.numbers.length)).toEqual([100, 100, 50]);
    expect(requests.map((r) => r.sequence)).toEqual([1, 2, 3]);
    expect(requests.flatMap((r) => r.numbers.map((n) => n.index))).toEqual(rows(250).map((r) => r.index));
  });

  it("puts exactly N numbers in one request and N+1 in two", () => {
    expect(groupRequests(rows(100), 100)).toHaveLength(1);
    expect(groupRequests(rows(101), 100).map((r) => r.numbers.length)).toEqual([100, 1]);
  });

  it("never mixes regular and toll-free numbers, even for one trunk", () => {
    const mixed = rows(4, (i) => row(i, { op: i % 2 ? "tollfree-dids" : "dids" }));
    const requests = groupRequests(mixed, 100);
    expect(requests.map((r) => [r.operation.id, r.numbers.map((n) => n.index)])).toEqual([
      ["dids", [0, 2]],
      ["tollfree-dids", [1, 3]],
    ]);
  });

  it("gives each target, group label and PortForm its own request", () => {
    const sheet = [
      row(0),
      row(1, { target: "5145550100" }),
      row(2, { group: "phase-2" }),
      row(3, { portForm: { ...FORM, CustomerName: "Other Co" } }),
      row(4),
    ];
    expect(groupRequests(sheet, 100).map((r) => r.numbers.map((n) => n.index))).toEqual([[0, 4], [1], [2], [3]]);
  });

  it("treats PortForms with the same members in another order as identical", () => {
    const reordered: Members = { CurrentProvider: 17, CustomerCountry: "CA", CustomerName: "Maple Dental" };
    expect(groupRequests([row(0), row(1, { portForm: reordered })], 100)).toHaveLength(1);
  });

  it("separates requests whose request members differ", () => {
    const a = row(0, { op: "virtual-faxes", target: "OFF-FAX", request: { FaxEmail: "a@example.com" } });
    const b = row(1, { op: "virtual-faxes", target: "OFF-FAX", request: { FaxEmail: "b@example.com" } });
    expect(groupRequests([a, b], 100)).toHaveLength(2);
  });

  it("treats attachments with the same name, type and contents as identical, whichever object holds them", () => {
    const loa = { FileName: "loa.pdf", ContentType: "application/pdf", Base64Contents: "JVBERi0=" };
    const withLoa = (index: number, file: typeof loa) => row(index, { portForm: { ...FORM, FileLetterOfAuthorization: [file] } });
    // The --defaults file and a cell naming loa.pdf read it separately: two equal objects.
    expect(groupRequests([withLoa(0, loa), withLoa(1, { ...loa }), withLoa(2, loa)], 100)).toHaveLength(1);
    expect(groupRequests([withLoa(0, loa), withLoa(1, { ...loa, Base64Contents: "JVBERi1=" })], 100)).toHaveLength(2);
    expect(groupRequests([withLoa(0, loa), withLoa(1, { ...loa, FileName: "loa-2.pdf" })], 100)).toHaveLength(2);
    expect(groupRequests([withLoa(0, loa), withLoa(1, { ...loa, ContentType: "image/png" })], 100)).toHaveLength(2);
  });

  it("yields the same requests for the same input every time", () => {
    const sheet = rows(30, (i) => row(i, { group: `g${i % 3}`, op: i % 5 === 0 ? "tollfree-dids" : "dids" }));
    const once = groupRequests(sheet, 4).map((r) => [r.sequence, r.operation.id, r.group, r.numbers.map((n) => n.index)]);
    const twice = groupRequests(sheet, 4).map((r) => [r.sequence, r.operation.id, r.group, r.numbers.map((n) => n.index)]);
    expect(twice).toEqual(once);
  });

  it("keeps apart PortForms, requests and groups whose numbers in the grouping key differ only above 65,535", () => {
    // Each distinct PortForm, request and (operation, target, group) gets a number in the key,
    // two UTF-16 units wide: the 65,537th must not meet the first.
    const count = 65_540;
    const byForm = groupRequests(rows(count, (i) => row(i, { portForm: { ...FORM, CustomerReferenceNumber: `R${i}` } })), 100);
    expect(byForm).toHaveLength(count);
    const byRequest = groupRequests(rows(count, (i) => row(i, { op: "virtual-faxes", target: "FAX-1", request: { FaxEmail: `f${i}@x.example` } })), 100);
    expect(byRequest).toHaveLength(count);
    const byGroup = groupRequests(rows(count, (i) => row(i, { group: `g${i}` })), 100);
    expect(byGroup).toHaveLength(count);
    const again = groupRequests([...rows(count, (i) => row(i, { group: `g${i}` })), row(count, { group: "g1" }), row(count + 1, { group: `g${count - 1}` })], 100);
    expect(again).toHaveLength(count);
    expect(again[1]?.numbers.map((n) => n.index)).toEqual([1, count]);
    expect(again[count - 1]?.numbers.map((n) => n.index)).toEqual([count - 1, count + 1]);
  });
});
