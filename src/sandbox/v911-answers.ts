/**
 * The sandbox's answers to the 9-1-1 endpoints and to "is this number on that trunk?"
 * (docs/contract.md §1.5), as strict as its port-in answers: a record missing a required
 * member or of a wrong type is a 400 naming it.
 */
import type { IncomingMessage } from "node:http";
import type { SandboxAccount } from "./account.js";
import { checkV911Shape } from "./body-schemas.js";
import type { Answer } from "./http.js";
import { exception, jsonBody } from "./http.js";
import type { Ledger } from "./ledger.js";
import type { Route } from "./routes.js";
import type { V911Database } from "./v911.js";
import { v911AnswerJson } from "./v911.js";
import { NANP } from "./body-schemas.js";

/** What these answers read of the sandbox. */
export interface V911Context {
  readonly v911: V911Database;
  readonly ledger: Ledger;
  readonly account: SandboxAccount;
}

type V911Route = Extract<Route, { kind: "v911-verify" | "v911-register" | "v911-record" }>;

// As for a port-in (app.ts): a 500 after the record was made reads as any other 500.
const INTERNAL_ERROR = exception(500, "InternalServerError", "The server encountered an error processing the request");

export function answerV911(ctx: V911Context, req: IncomingMessage, route: V911Route, text: string | null): Answer {
  if (route.kind === "v911-record" && !NANP.test(route.number)) return exception(404, "NotFound", `${route.number} is not a 10-digit telephone number`);
  if (route.kind === "v911-record" && req.method === "GET") {
    const record = ctx.v911.get(route.number);
    return record === undefined ? exception(404, "NotFound", `${route.number} has no 9-1-1 record`) : { status: 200, body: record };
  }
  const parsed = jsonBody(req, text);
  if ("answer" in parsed) return parsed.answer;
  const shaped = checkV911Shape(parsed.value);
  if (!shaped.ok) return exception(400, "BadRequest", shaped.message);
  const record = shaped.record;
  const number = String(record.Number);
  if (route.kind === "v911-record" && number !== route.number) {
    return exception(400, "BadRequest", `Number: ${number} is not the number in the path, ${route.number}`);
  }
  const errors = ctx.v911.verify(record);
  if (errors.length > 0) return { status: 200, body: v911AnswerJson(record.Number, errors, errors.map((e) => e.ErrorMessage).join("; ")) };
  if (route.kind === "v911-verify") return { status: 200, body: v911AnswerJson(record.Number, [], "the address is valid") };

  const phase = ctx.ledger.portPhase(number);
  const refusal =
    phase === null || phase === "REJECTED" || phase === "CANCELLED"
      ? `${number} is neither on this account nor pending a port-in to it`
      : phase !== "COMPLETED" && record.PendingPort !== true
        ? `${number} is pending a port-in: send PendingPort: true`
        : null;
  if (refusal !== null) return { status: 200, body: v911AnswerJson(record.Number, [], refusal, false) };
  if (route.kind === "v911-register" && ctx.v911.has(number)) {
    return { status: 200, body: v911AnswerJson(record.Number, [], `${number} already has a 9-1-1 record: replace it with PUT`, false) };
  }
  if (route.kind === "v911-record" && !ctx.v911.has(number)) return exception(404, "NotFound", `${number} has no 9-1-1 record: register one with POST`);
  const failAfter = ctx.v911.keep(record);
  if (failAfter) return INTERNAL_ERROR;
  return { status: 200, body: v911AnswerJson(record.Number, [], route.kind === "v911-register" ? "registered" : "replaced") };
}

/** GET /SipTrunks/{pilot}/Dids/{number}: 200 once a completed port put the number on that trunk, unless a fault left it off. */
export function answerTrunkDid(ctx: V911Context, route: Extract<Route, { kind: "trunk-did" }>): Answer {
  if (!ctx.account.trunks.some((t) => String(t.Number) === route.pilot)) return exception(404, "NotFound", `there is no SIP trunk ${route.pilot} on this account`);
  const onTrunk = ctx.ledger.trunkOf(route.number) === route.pilot && !ctx.v911.leftOffTrunk(route.number);
  if (!onTrunk) return exception(404, "NotFound", `${route.number} is not on trunk ${route.pilot}`);
  return { status: 200, body: { Number: Number(route.number), Label: "", AdditionalLabel: "", TranslatedNumber: 0 } };
}
