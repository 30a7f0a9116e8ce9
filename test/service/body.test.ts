import { describe, expect, it } from "vitest";
import { operationById, type OperationId } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import { bodySchema } from "../support/body-schema.js";
import { buildBody } from "../../src/service/body.js";
import { describeIssues } from "../../src/service/zod-issues.js";
import { PORT_FORM, TOLL_FREE_PORT_FORM } from "../support/port-form.js";


function body(id: OperationId, target: string, numbers: [string, Members][], request: Members = {}) {
  const operation = operationById(id)!;
  const portForm = operation.numberKind === "toll-free" ? TOLL_FREE_PORT_FORM : PORT_FORM;
  const built = buildBody({ operation, target, portForm, request, numbers: numbers.map(([number, item]) => ({ number, item })) });
  const parsed = bodySchema(operation).safeParse(built);
  return { built, verdict: parsed.success ? "valid" : describeIssues(parsed.error) };
}

describe("buildBody", () => {
  it("puts DIDs under the pilot number, numbers as 10-digit integers", () => {
    const { built, verdict } = body("dids", "4165550100", [["4165550101", { Label: "Reception" }], ["4165550102", {}]]);
    expect(verdict).toBe("valid");
    expect(built).toEqual({
      PortForm: { ...PORT_FORM, NumbersToPort: [4165550101, 4165550102] },
      PilotNumber: 4165550100,
      DIDs: [{ Label: "Reception", Number: 4165550101 }, { Number: 4165550102 }],
    });
  });

  it("builds toll-free DIDs without a provider", () => {
    const { built, verdict } = body("tollfree-dids", "4165550100", [["8885550101", {}]]);
    expect(verdict).toBe("valid");
    expect(built).toEqual({ PortForm: { ...TOLL_FREE_PORT_FORM, NumbersToPort: [8885550101] }, PilotNumber: 4165550100, DIDs: [{ Number: 8885550101 }] });
  });

  it("sends a General Product's numbers only in NumbersToPort, with the OfferingID", () => {
    const { built, verdict } = body("general-products", "OFF-GEN-001", [["4165550101", {}]]);
    expect(verdict).toBe("valid");
    expect(built).toEqual({ PortForm: { ...PORT_FORM, NumbersToPort: [4165550101] }, OfferingID: "OFF-GEN-001" });
  });

  it("adds ParentSubscriptionID for a General Child Product", () => {
    const { built, verdict } = body("general-child-products", "OFF-GCP-001", [["4165550101", {}]], { ParentSubscriptionID: "SUB-9" });
    expect(verdict).toBe("valid");
    expect(built).toEqual({ PortForm: { ...PORT_FORM, NumbersToPort: [4165550101] }, OfferingID: "OFF-GCP-001", ParentSubscriptionID: "SUB-9" });
  });

  it("nests each Residential Line's number and sends the offering as its PlanID", () => {
    const item = { Account: 1001, Enabled: true, Locale: 2, SecondLocale: 5 };
    const { built, verdict } = body("residential-lines", "OFF-RES-001", [["4165550101", item]]);
    expect(verdict).toBe("valid");
    expect(built).toEqual({
      PortForm: { ...PORT_FORM, NumbersToPort: [4165550101] },
      Lines: [{ ...item, Number: { Number: 4165550101 }, PlanID: "OFF-RES-001" }],
    });
  });

  it("builds Business Lines with their business group", () => {
    const item = { Account: 1001, BusinessGroupID: "BG-1", Locale: 2, SecondLocale: 9 };
    const { built, verdict } = body("business-lines", "OFF-BUS-001", [["4165550101", item]]);
    expect(verdict).toBe("valid");
    expect(built["Lines"]).toEqual([{ ...item, Number: { Number: 4165550101 }, PlanID: "OFF-BUS-001" }]);
  });

  it.each(["permanent-call-forwards", "tollfree-permanent-call-forwards"] as const)("builds %s as Forwards with a PlanID", (id) => {
    const number = id.startsWith("tollfree") ? "8005550101" : "4165550101";
    const item = { Account: 1001, CallForwardingNumber: 6135550199, Enabled: true, PCFProvisioningInstructions: "forward all" };
    const { built, verdict } = body(id, "OFF-PCF-001", [[number, item]]);
    expect(verdict).toBe("valid");
    expect(built["Forwards"]).toEqual([{ ...item, Number: { Number: Number(number) }, PlanID: "OFF-PCF-001" }]);
    expect(built).not.toHaveProperty("OfferingID");
  });

  it("puts Business Permanent Call Forwards in ForwardingInstructions by TN", () => {
    const { built, verdict } = body("business-permanent-call-forwards", "OFF-BPCF-001", [["4165550101", { ForwardingTN: 6135550199 }]], {
      BusinessGroupSubscriptionID: "BGS-7",
    });
    expect(verdict).toBe("valid");
    expect(built).toEqual({
      PortForm: { ...PORT_FORM, NumbersToPort: [4165550101] },
      OfferingID: "OFF-BPCF-001",
      BusinessGroupSubscriptionID: "BGS-7",
      ForwardingInstructions: [{ ForwardingTN: 6135550199, TN: 4165550101 }],
    });
  });

  it("adds FaxEmail for a Virtual Fax", () => {
    const { built, verdict } = body("virtual-faxes", "OFF-FAX-001", [["4165550101", {}]], { FaxEmail: "fax@acme.ca" });
    expect(verdict).toBe("valid");
    expect(built).toEqual({ PortForm: { ...PORT_FORM, NumbersToPort: [4165550101] }, OfferingID: "OFF-FAX-001", FaxEmail: "fax@acme.ca" });
  });

  it("is refused by the schema when a starred request member is missing", () => {
    expect(body("virtual-faxes", "OFF-FAX-001", [["4165550101", {}]]).verdict).toMatch(/^FaxEmail: /);
    expect(body("general-child-products", "OFF-GCP-001", [["4165550101", {}]]).verdict).toMatch(/^ParentSubscriptionID: /);
  });

  it("is refused by the schema when a regular form names neither CurrentProvider nor CurrentReseller", () => {
    const operation = operationById("dids")!;
    const built = buildBody({ operation, target: "4165550100", portForm: TOLL_FREE_PORT_FORM, request: {}, numbers: [{ number: "4165550101", item: {} }] });
    const parsed = bodySchema(operation).safeParse(built);
    expect(parsed.success ? "valid" : describeIssues(parsed.error)).toBe(
      "PortForm.CurrentProvider: a regular-number PortForm needs CurrentProvider or CurrentReseller",
    );
  });

  it("keeps toll-free-only and regular-only PortForm members apart", () => {
    const operation = operationById("tollfree-dids")!;
    const built = buildBody({ operation, target: "4165550100", portForm: { ...TOLL_FREE_PORT_FORM, NumbersToRemain: [4165550109] }, request: {}, numbers: [{ number: "8005550101", item: {} }] });
    const parsed = bodySchema(operation).safeParse(built);
    expect(parsed.success ? "valid" : describeIssues(parsed.error)).toBe("PortForm: unknown member NumbersToRemain");
  });
});

describe("item members by kind", () => {
  it("refuses Label and AdditionalLabel on Business Permanent Call Forwards, which SPEC gives to DIDs, lines and forwards only", () => {
    const forwarding = body("business-permanent-call-forwards", "OFF-BPCF-001", [["4165550101", { ForwardingTN: 6135550199, Label: "Desk", AdditionalLabel: "East" }]], {
      BusinessGroupSubscriptionID: "BGS-7",
    });
    expect(forwarding.verdict).toBe("ForwardingInstructions.0: unknown member Label, AdditionalLabel");
    const item = { Account: 1001, CallForwardingNumber: 6135550199, Enabled: true, PCFProvisioningInstructions: "forward all", Label: "Desk", AdditionalLabel: "East" };
    expect(body("permanent-call-forwards", "OFF-PCF-001", [["4165550101", item]]).verdict).toBe("valid");
    expect(body("dids", "4165550100", [["4165550101", { Label: "Desk", AdditionalLabel: "East" }]]).verdict).toBe("valid");
  });
});
