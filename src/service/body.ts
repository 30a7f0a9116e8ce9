/**
 * The body of a port-in request, docs/contract.md §1.2: where the target, the request members and each
 * number go for an operation. buildBody is the one place a body is laid out; the readers
 * below find the numbers again. It reads the plan's own request type: bodies are built
 * after planning, so service/ may know plan/'s types and plan/ knows nothing of the wire.
 */
import type { PortRequest } from "../group/requests.js";
import type { ValidRow } from "../validate/types.js";

/**
 * The parts of a planned request that reach the wire. The rest (its sequence number and group, each
 * row's line and kind) does not, so tests can build bodies from plain objects.
 */
type BodySource = Pick<PortRequest, "operation" | "target" | "portForm" | "request"> & {
  readonly numbers: readonly Pick<ValidRow, "number" | "item">[];
};

/** Builds the JSON body of one port-in request. `PortForm.NumbersToPort` is always portin's. */
export function buildBody(input: BodySource): Record<string, unknown> {
  const { operation: op } = input;
  const numbersToPort = input.numbers.map((n) => Number(n.number));
  const body: Record<string, unknown> = { PortForm: { ...input.portForm, NumbersToPort: numbersToPort } };
  if (op.targetMember === "PilotNumber") body["PilotNumber"] = Number(input.target);
  if (op.targetMember === "OfferingID") body["OfferingID"] = input.target;
  for (const name of op.requestMembers) {
    const value = input.request[name];
    if (value !== undefined) body[name] = value;
  }
  const items = op.items;
  if (items) {
    body[items.listMember] = input.numbers.map((n, i) => {
      const item: Record<string, unknown> = { ...n.item };
      const num = numbersToPort[i];
      if (items.numberAt === "Number") item["Number"] = num;
      if (items.numberAt === "NestedNumber") item["Number"] = { Number: num };
      if (items.numberAt === "TN") item["TN"] = num;
      if (items.planId) item["PlanID"] = input.target;
      return item;
    });
  }
  return body;
}
