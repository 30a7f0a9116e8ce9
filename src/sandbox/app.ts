/**
 * The sandbox's answers: one function from a request to an answer, in the order the real
 * service works — route, method, credentials, faults (POSTs only), body, rules, business
 * refusals, acceptance.
 */
import type { IncomingMessage } from "node:http";
import { REPLY, ticketResponseJson } from "../service/answers.js";
import type { SandboxAccount } from "./account.js";
import type { Fault, FaultInjector } from "./faults.js";
import { THROTTLE_RETRY_AFTER_SECONDS } from "./faults.js";
import type { Answer, Credentials } from "./http.js";
import { authorized, bodyTooLarge, exception, isJsonContentType, jsonBody } from "./http.js";
import type { V911Database } from "./v911.js";
import { answerTrunkDid, answerV911 } from "./v911-answers.js";
import { requestsPage } from "./log.js";
import type { SandboxClock } from "./clock.js";
import type { Ledger } from "./ledger.js";
import { orderListJson } from "./order-list.js";
import { npaNxxText } from "./portability.js";
import { sandboxHolidays } from "./holidays.js";
import type { Route } from "./routes.js";
import { matchRoute, SANDBOX_PATHS } from "./routes.js";
import { portalOrderSchema } from "./portal.js";
import { describeIssues } from "../service/zod-issues.js";
import { checkBody } from "./validate.js";

export interface SandboxContext {
  readonly account: SandboxAccount;
  readonly ledger: Ledger;
  readonly faults: FaultInjector;
  readonly credentials: Credentials;
  readonly clock: SandboxClock;
  /** `--order-list-down`: the order list answers 500, as a service whose dashboard is down. */
  readonly orderList: { down: boolean };
  /** The 9-1-1 database and which numbers are on their trunks (docs/contract.md §1.5). */
  readonly v911: V911Database;
  /** A refused POST names only its first refused number, as a service that stops at the first does; default every one. */
  readonly namesFirstRefusalOnly?: boolean;
}

/** A POST as received, for RunningSandbox.received(): the parsed body, or the raw text when it is not JSON. */
export interface Received {
  readonly answer: Answer;
  readonly body: unknown;
}

const UNAUTHORIZED_HEADERS = { "WWW-Authenticate": 'Basic realm="Port-In Request Service sandbox"' };
// Both 500s read the same, so that a client cannot tell a hidden acceptance from a plain failure.
const INTERNAL_ERROR = exception(500, "InternalServerError", "The server encountered an error processing the request");

/** `text` is the body read from a POST (null when too large), "" for other methods. */
export function answer(ctx: SandboxContext, req: IncomingMessage, pathname: string, text: string | null): Received {
  const route = matchRoute(pathname);
  if (!route) return { answer: exception(404, "NotFound", `no such resource: ${pathname}`), body: text };
  const allowed = route.kind === "clock" ? ["GET", "POST"] : route.kind === "v911-record" ? ["GET", "PUT"] : [route.method];
  if (!allowed.includes(req.method ?? "")) {
    return {
      answer: exception(405, "MethodNotAllowed", `${pathname} takes ${allowed.join(" or ")}, not ${req.method ?? "?"}`, { Allow: allowed.join(", ") }),
      body: text,
    };
  }
  if (!pathname.startsWith(SANDBOX_PATHS) && !authorized(req, ctx.credentials)) {
    return {
      answer: exception(401, "Unauthorized", "the user name or password is incorrect", UNAUTHORIZED_HEADERS),
      body: text,
    };
  }
  if (route.kind === "operation") return post(ctx, req, route, text);
  if (route.kind === "npanxx-check") return { answer: checkNpaNxx(ctx, req, text), body: parseOrRaw(text) };
  if (route.kind === "clock") return { answer: clock(ctx, req, text), body: undefined };
  if (route.kind === "portal-order") return { answer: portalOrder(ctx, req, text), body: parseOrRaw(text) };
  if (route.kind === "v911-verify" || route.kind === "v911-register" || route.kind === "v911-record") return { answer: answerV911(ctx, req, route, text), body: parseOrRaw(text) };
  if (route.kind === "trunk-did") return { answer: answerTrunkDid(ctx, route), body: undefined };
  return { answer: get(ctx, route, new URL(req.url ?? "/", "http://sandbox").searchParams), body: undefined };
}

function get(ctx: SandboxContext, route: Exclude<Route, { kind: "operation" | "npanxx-check" | "clock" | "portal-order" | "v911-verify" | "v911-register" | "v911-record" | "trunk-did" }>, query: URLSearchParams): Answer {
  switch (route.kind) {
    case "requests":
      return requestsPage(ctx.ledger.list(), query);
    case "lookup":
      return { status: 200, body: ctx.account[route.lookup] };
    case "status": {
      const status = ctx.ledger.status(route.number);
      if (status) return { status: 200, body: status };
      return exception(404, "NotFound", `${route.number} has no port-in`);
    }
    case "ticket-status": {
      const status = ctx.ledger.ticketStatus(route.ticket);
      if (status) return { status: 200, body: status };
      return exception(404, "NotFound", `there is no port-in ticket ${route.ticket}`);
    }
    case "npanxx":
      return { status: 200, body: ctx.ledger.portability.list };
    case "order-list":
      if (ctx.orderList.down) return exception(500, "InternalServerError", "the port-in dashboard is unavailable");
      return { status: 200, body: orderListJson(ctx.ledger.held(), (order) => ctx.ledger.phase(order)) };
    case "holidays":
      return { status: 200, body: sandboxHolidays(ctx.clock) };
  }
}

/** A number or NPA-NXX as the Check takes it: 6 to 10 digits. */
const CHECKABLE = /^[2-9]\d{2}[2-9]\d{2}\d{0,4}$/;

/** POST /NumberPorts/LNP/NPANXX/Check: the body is a JSON string, nothing else (docs/contract.md §1.4). */
function checkNpaNxx(ctx: SandboxContext, req: IncomingMessage, text: string | null): Answer {
  const parsed = jsonBody(req, text);
  if ("answer" in parsed) return parsed.answer;
  const given = parsed.value;
  if (typeof given !== "string" || !CHECKABLE.test(given)) {
    return exception(400, "BadRequest", `the body must be a JSON string holding an NPA-NXX or a number, e.g. "416555", not ${JSON.stringify(given)}`);
  }
  const portable = ctx.ledger.portability.isPortable(given);
  const message = `NPA-NXX ${npaNxxText(given)} is ${portable ? "" : "not "}portable to this service`;
  return { status: 200, body: { Number: given, Reply: portable ? 1 : 0, Message: message } };
}

/** Whole days the sandbox's calendar may be moved at once: ten years. */
const MAX_ADVANCE_DAYS = 3650;

/** GET /_sandbox/clock reads the sandbox's calendar; POST {"advanceDays": n} moves it on. */
function clock(ctx: SandboxContext, req: IncomingMessage, text: string | null): Answer {
  if (req.method === "POST") {
    const parsed = jsonBody(req, text);
    if ("answer" in parsed) return parsed.answer;
    const days = (parsed.value as { advanceDays?: unknown } | null)?.advanceDays;
    if (typeof days !== "number" || !Number.isInteger(days) || days < 0 || days > MAX_ADVANCE_DAYS) {
      return exception(400, "BadRequest", `give {"advanceDays": n}, n a whole number of days from 0 to ${MAX_ADVANCE_DAYS}`);
    }
    ctx.clock.advance(days);
  }
  return { status: 200, body: ctx.clock.describe() };
}

/**
 * POST /_sandbox/orders {"numbers": [...], "status"?, "ticket"?}: an order placed in the web
 * portal. Refused (409) as a POST would be when an order holds a number or it cannot be ported.
 */
function portalOrder(ctx: SandboxContext, req: IncomingMessage, text: string | null): Answer {
  const parsed = jsonBody(req, text);
  if ("answer" in parsed) return parsed.answer;
  const order = portalOrderSchema.safeParse(parsed.value);
  if (!order.success) return exception(400, "BadRequest", `give {"numbers": ["4165550301", "4165550100-0199"], "status"?: "SUBMITTED"}: ${describeIssues(order.error)}`);
  const placed = ctx.ledger.place(order.data);
  if ("refusals" in placed) return exception(409, "Conflict", placed.refusals.join("; "));
  return { status: 200, body: { TicketMask: placed.ticket } };
}

function post(ctx: SandboxContext, req: IncomingMessage, route: Extract<Route, { kind: "operation" }>, text: string | null): Received {
  const fault: Fault | null = ctx.faults.next();
  if (fault === "throttle") {
    const answer = exception(429, "TooManyRequests", `too many requests: retry after ${THROTTLE_RETRY_AFTER_SECONDS} second(s)`, {
      "Retry-After": String(THROTTLE_RETRY_AFTER_SECONDS),
    });
    return { answer, body: parseOrRaw(text) };
  }
  if (fault === "fail-before") return { answer: INTERNAL_ERROR, body: parseOrRaw(text) };
  const handled = portIn(ctx, req, route, text);
  return fault === "fail-after" ? { answer: INTERNAL_ERROR, body: handled.body } : handled;
}

function portIn(ctx: SandboxContext, req: IncomingMessage, route: Extract<Route, { kind: "operation" }>, text: string | null): Received {
  if (text === null) return { answer: bodyTooLarge(), body: null };
  if (!isJsonContentType(req)) {
    const given = req.headers["content-type"] ?? "none";
    return { answer: exception(415, "UnsupportedMediaType", `Content-Type must be application/json, not ${given}`), body: text };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { answer: exception(400, "BadRequest", `the body is not valid JSON: ${(error as Error).message}`), body: text };
  }
  const checked = checkBody(route.operation, raw, ctx.account);
  if (!checked.ok) return { answer: exception(400, "BadRequest", checked.message), body: raw };

  const refusals = ctx.ledger.refusals(checked.numbers);
  if (refusals.length > 0) {
    const named = ctx.namesFirstRefusalOnly === true ? refusals.slice(0, 1) : refusals;
    const body = ticketResponseJson({ ticketMask: "", reply: REPLY.Rejected, message: named.join("; ") });
    return { answer: { status: 200, body }, body: raw };
  }
  const accepted = ctx.ledger.accept(route.operation.id, route.operation.path, checked.numbers, checked.body);
  const body = ticketResponseJson({ ticketMask: accepted.ticket, reply: REPLY.Accepted, message: "Accepted" });
  return { answer: { status: 200, body }, body: raw };
}

function parseOrRaw(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
