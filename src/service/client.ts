/**
 * The HTTP client of the Port-In Request Service, on got. It knows no path of its own:
 * lookups come from answers.ts, port-in operations from catalog/operations.ts.
 */
import * as e911Words from "../messages/e911.js";
import { Agent as HttpAgent } from "node:http";
import { got } from "got";
import type { z } from "zod";
import type { Got, RetryOptions } from "got";
import { LookupError, UsageError } from "../errors.js";
import * as commandLine from "../messages/command-line.js";
import * as serviceWords from "../messages/service.js";
import type { Operation } from "../catalog/operations.js";
import type { SubmitOutcome } from "./outcome.js";
import { HOLIDAYS_PATH, holidayListSchema, LOOKUPS, NPANXX_CHECK_PATH, NPANXX_PATH, npaNxxListSchema, ORDER_LIST_PATH, orderListSchema, portabilityReplySchema, portInStatusPath, portInStatusSchema, ticketStatusPath } from "./answers.js";
import type { AccountOrder, Holiday, Offering, PortabilityReply, PortInStatus, Provider, Trunk } from "../catalog/account.js";
import { checkBaseUrl } from "./base-url.js";
import type { BaseUrl } from "./base-url.js";
import { answerTooLarge, fromError, fromResponse, passwordValuesIn, scrubberFor, valuesScrubber } from "./exchange.js";
import type { Exchange, Scrub } from "./exchange.js";
import { DEFAULT_BACKOFF_LIMIT_MS, retryPolicy } from "./retry-policy.js";
import { submitOutcome } from "./submit-outcome.js";
import { lookupAnswer } from "./lookup-answer.js";
import { openAhead } from "./connections.js";
import { MAX_ORDER_LIST_BYTES, readOrderList } from "./order-stream.js";
import { trunkDidPath, trunkDidSchema, v911AnswerSchema, v911Body, v911RecordPath, v911RecordSchema, V911_PATH, V911_VERIFY_PATH } from "./v911.js";
import type { E911Address, V911Reply } from "./v911.js";
import { v911Outcome } from "./v911-outcome.js";
import type { V911Outcome } from "./v911-outcome.js";

/**
 * Largest answer portin reads whole from the service. The largest real answers are the lookup
 * lists: an account's offerings or the providers run to thousands of entries of 100-200
 * bytes, well under 1 MiB. Past 8 MiB the base URL is not the service (a file server, a
 * proxy's error loop): reading on would only fill memory. The account's order list, which
 * grows with the account past this, is read as it arrives instead (order-stream.ts, with a
 * cap of its own). Counted after decompression, so a small gzip of a huge body is stopped too.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** docs/contract.md §2: `--timeout MS`, per request. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** docs/contract.md §2: `--retries N`. */
export const DEFAULT_RETRIES = 5;

/**
 * A connection idle this long is closed by portin, well before a server would close it:
 * Node's own servers close idle connections after 5 s, Apache after 5 s, nginx after 75 s,
 * IIS after 120 s, and Node shortens it further to a server's `Keep-Alive: timeout=N` hint.
 * During a run the gaps between requests are milliseconds, so sockets stay reused.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 1_000;

/**
 * Connections are kept alive: a new connection per request cost a third of portin's CPU per
 * request and kept dispatch from filling --concurrency (`npm run bench`). The hazard is a server
 * closing an idle connection just as a POST is written on it: the POST then fails as a
 * "connection cut". Nothing on the client's side can prove that such a request never reached
 * the service, so it stays `unknown` (docs/contract.md §4) and is never resent on its own; the short idle
 * timeout above makes it rare. The agent's timeout only ever closes *idle* sockets: on a
 * socket in use it emits an event that nothing here listens to, and --timeout still governs.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS } as const;

export interface ClientOptions {
  baseUrl: string;
  user: string;
  password: string;
  timeoutMs: number;
  /** Automatic retries of what docs/contract.md §4 calls retryable; 0 turns them off. */
  retries: number;
  allowInsecureHttp: boolean;
  userAgent: string;
  /** Longest single backoff wait; default 30 s. Tests shorten it. */
  backoffLimitMs?: number;
  /** Told of each automatic retry as it is made: for a progress display. */
  onRetry?: () => void;
  /** Largest order list read; default MAX_ORDER_LIST_BYTES (order-stream.ts). Tests shorten it. */
  maxOrderListBytes?: number;
}

/**
 * Told of each attempt of a question as it fails, before got would try it again: what lets a
 * caller count attempts rather than questions (engine/port-in-status.ts's breaker) and stop the
 * retries of questions in flight once the service is known to be down.
 */
export interface AttemptWatch {
  /** An attempt is being sent: the first, or a retry (got's beforeRequest hook, run for each). */
  sent(): void;
  /** A failed attempt (no answer, a 5xx or a 429); returns the wait before the next attempt, at most `waitMs`; 0 tries no more. */
  failed(waitMs: number): number;
}

export interface ServiceClient {
  trunks(): Promise<Trunk[]>;
  offerings(): Promise<Offering[]>;
  providers(): Promise<Provider[]>;
  /** Null when the number has no port-in (404). */
  portInStatus(tenDigits: string, watch?: AttemptWatch): Promise<PortInStatus | null>;
  /** One order's status by its ticket; null when there is no such ticket (404). */
  ticketStatus(ticketId: string, watch?: AttemptWatch): Promise<PortInStatus | null>;
  /** Every port-in order on the account, however placed (docs/contract.md §5). Throws LookupError, AuthError. */
  portInOrders(watch?: AttemptWatch): Promise<AccountOrder[]>;
  /** The NPA-NXX prefixes the service ports in, as 6-digit numbers. */
  portableNpaNxx(): Promise<number[]>;
  /** The days on which the service ports nothing (GET /Holidays). */
  holidays(): Promise<Holiday[]>;
  /** Whether the service ports in `digits` (an NPA-NXX, up to a whole number). */
  checkNpaNxx(digits: string): Promise<PortabilityReply>;
  /** Never throws for an HTTP outcome: every answer and transport failure is a SubmitOutcome. */
  submit(op: Operation, body: Record<string, unknown>): Promise<SubmitOutcome>;
  /** docs/contract.md §1.5: does the 9-1-1 database know this address? A question: retried like a GET. Throws LookupError, AuthError. */
  verifyE911(tenDigits: string, address: E911Address): Promise<V911Reply>;
  /** Registers (POST) or replaces (PUT) a number's 9-1-1 record; never throws for an HTTP outcome. */
  registerE911(method: "POST" | "PUT", tenDigits: string, address: E911Address): Promise<V911Outcome>;
  /** The number's 9-1-1 record, or null when it has none (404). */
  e911Record(tenDigits: string, watch?: AttemptWatch): Promise<E911Address | null>;
  /** Whether the number is on the trunk (GET /SipTrunks/{pilot}/Dids/{number}; 404: it is not). */
  onTrunk(pilot: string, tenDigits: string, watch?: AttemptWatch): Promise<boolean>;
  /**
   * The service's clock, as the `Date` header of its latest answer gave it; null before any
   * answer carried one. "Today" for a port date is the service's (docs/contract.md §3).
   */
  serviceDate(): Date | null;
  /** Opens the connections `count` requests sent at once would need, ahead of them; none carries anything until a request is sent (connections.ts). */
  connect(count: number): void;
}

/** Throws UsageError for a base URL or user portin will not send credentials to or with. */
export function createClient(options: ClientOptions): ServiceClient {
  const base = checkBaseUrl(options.baseUrl, options.allowInsecureHttp);
  checkUser(options.user);
  const scrub = scrubberFor(options.user, options.password);
  const backoffLimitMs = options.backoffLimitMs ?? DEFAULT_BACKOFF_LIMIT_MS;
  const origin = new URL(base.href);
  // One agent, for the base URL's protocol: redirects are not followed, so no request leaves it.
  // node:https (and TLS's modules with it) is loaded only for a service reached over https,
  // not for the built-in sandbox (~5 ms of start-up, docs/contract.md §8).
  const agents = origin.protocol === "https:" ? { https: new (process.getBuiltinModule("node:https").Agent)(KEEP_ALIVE) } : { http: new HttpAgent(KEEP_ALIVE) };
  const connect = openAhead(agents.https ?? agents.http, origin);
  const http = got.extend({
    prefixUrl: base.href,
    headers: {
      authorization: `Basic ${Buffer.from(`${options.user}:${options.password}`).toString("base64")}`,
      accept: "application/json",
      "user-agent": options.userAgent,
    },
    timeout: { request: options.timeoutMs },
    // Statuses are docs/contract.md §4's to map, not got's to throw.
    throwHttpErrors: false,
    // A redirect could carry the Authorization header to another host.
    followRedirect: false,
    responseType: "text",
    agent: agents,
    ...(options.onRetry === undefined ? {} : { hooks: { beforeRetry: [() => options.onRetry?.()] } }),
  });
  // One got instance per method, retry policy and body, with those options merged into its
  // defaults once: got merges every option a call passes into a fresh copy of its defaults,
  // which for a retry policy and a header on every POST was CPU that dispatch at concurrency
  // 64 runs short of (bench/README.md).
  const instances = new Map<string, Got>();
  const instanceFor = (method: "GET" | "POST" | "PUT", idempotent: boolean, body: boolean): Got => {
    const key = `${method} ${String(idempotent)} ${String(body)}`;
    let instance = instances.get(key);
    if (instance === undefined) {
      instance = http.extend({
        method,
        retry: retryPolicy(method, options.retries, backoffLimitMs, idempotent),
        ...(body ? { headers: { "content-type": "application/json" } } : {}),
      });
      instances.set(key, instance);
    }
    return instance;
  };
  let serviceDate: number | null = null;
  const exchange = async (method: "GET" | "POST" | "PUT", path: string, body?: unknown, idempotent = method === "GET", watch?: AttemptWatch): Promise<Exchange> => {
    const policy = watch === undefined ? undefined : watched(retryPolicy(method, options.retries, backoffLimitMs, idempotent), watch);
    const hooks = watch === undefined ? undefined : sentHooks(watch);
    const answered = await send(instanceFor(method, idempotent, body !== undefined), { path, body, policy, hooks, base, scrub, timeoutMs: options.timeoutMs });
    if (answered.kind === "answer" && answered.serviceDate != null) serviceDate = answered.serviceDate;
    return answered;
  };

  const lookup = async <S extends z.ZodType>(spec: { path: string; what: string; schema: S; oversize?: string; watch?: AttemptWatch | undefined }): Promise<z.output<S>> => {
    const { path, what, schema } = spec;
    const answer = lookupAnswer(await exchange("GET", path, undefined, true, spec.watch), schema, { path, what: `a list of ${what}`, base, user: options.user, scrub, oversize: spec.oversize, askedOnce: true });
    // Never null: only portInStatus takes a 404 as an answer.
    return answer as z.output<S>;
  };

  return {
    trunks: () => lookup(LOOKUPS.trunks),
    offerings: () => lookup(LOOKUPS.offerings),
    providers: () => lookup(LOOKUPS.providers),
    async portInStatus(tenDigits, watch) {
      const path = portInStatusPath(tenDigits);
      const context = { path, what: "a PortInStatus", base, user: options.user, scrub };
      return lookupAnswer(await exchange("GET", path, undefined, true, watch), portInStatusSchema(), context, true);
    },
    async ticketStatus(ticketId, watch) {
      const path = ticketStatusPath(ticketId);
      const context = { path, what: "a PortInStatus", base, user: options.user, scrub };
      return lookupAnswer(await exchange("GET", path, undefined, true, watch), portInStatusSchema(), context, true);
    },
    async portInOrders(watch) {
      // Read as it arrives, not whole (order-stream.ts): the list grows with the account.
      const policy = watch === undefined ? undefined : watched(retryPolicy("GET", options.retries, backoffLimitMs, true), watch);
      const maxBytes = options.maxOrderListBytes ?? MAX_ORDER_LIST_BYTES;
      const read = await readOrderList(instanceFor("GET", true, false), { path: ORDER_LIST_PATH, policy, base, scrub, timeoutMs: options.timeoutMs, maxBytes });
      const name = `GET ${ORDER_LIST_PATH}`;
      switch (read.kind) {
        case "orders":
          return read.orders;
        case "not-json":
          throw new LookupError(serviceWords.orderListNotJson(name, read.start));
        case "no-list":
          throw new LookupError(serviceWords.orderListWithoutOrders(name));
        case "exchange": {
          const context = { path: ORDER_LIST_PATH, what: "port-in orders", base, user: options.user, scrub, oversize: serviceWords.ORDER_LIST_TOO_LARGE_NEXT };
          // An answer other than a 200 list: refused in the words of every lookup (lookup-answer.ts).
          lookupAnswer(read.exchange, orderListSchema, context);
          throw new LookupError(serviceWords.orderListNotAList(name));
        }
      }
    },
    portableNpaNxx: () => lookup({ path: NPANXX_PATH, what: "NPA-NXX prefixes", schema: npaNxxListSchema() }),
    holidays: () => lookup({ path: HOLIDAYS_PATH, what: "holidays", schema: holidayListSchema }),
    async checkNpaNxx(digits) {
      // A question, not an order: retried like a GET.
      const answered = await exchange("POST", NPANXX_CHECK_PATH, digits, true);
      const context = { path: NPANXX_CHECK_PATH, what: "a portability reply", base, user: options.user, scrub };
      return lookupAnswer(answered, portabilityReplySchema(), context, false, "POST") as PortabilityReply;
    },
    async verifyE911(tenDigits, address) {
      const answered = await exchange("POST", V911_VERIFY_PATH, v911Body(tenDigits, address, true), true);
      const context = { path: V911_VERIFY_PATH, what: "a V911 answer", base, user: options.user, scrub };
      return lookupAnswer(answered, v911AnswerSchema(), context, false, "POST") as V911Reply;
    },
    async registerE911(method, tenDigits, address) {
      // PUT replaces the record with the same one when resent: retried like a GET. A POST is not.
      const path = method === "POST" ? V911_PATH : v911RecordPath(tenDigits);
      return v911Outcome(await exchange(method, path, v911Body(tenDigits, address, true), method === "PUT"), options.user, scrub);
    },
    async e911Record(tenDigits, watch) {
      const path = v911RecordPath(tenDigits);
      const context = { path, what: "a V911 record", base, user: options.user, scrub };
      return lookupAnswer(await exchange("GET", path, undefined, true, watch), v911RecordSchema(), context, true);
    },
    async onTrunk(pilot, tenDigits, watch) {
      const path = trunkDidPath(pilot, tenDigits);
      const context = { path, what: e911Words.NUMBER_ON_TRUNK, base, user: options.user, scrub };
      return lookupAnswer(await exchange("GET", path, undefined, true, watch), trunkDidSchema(), context, true) !== null;
    },
    async submit(op, body) {
      // The request's own item passwords join the credentials in what is scrubbed from the answer.
      const secrets = passwordValuesIn(body);
      const hide = secrets.length === 0 ? scrub : (text: string) => valuesScrubber(secrets)(scrub(text));
      return submitOutcome(await exchange(op.method, op.path, body), options.user, hide);
    },
    connect,
    serviceDate: () => (serviceDate === null ? null : new Date(serviceDate)),
  };
}

function checkUser(user: string): void {
  // RFC 7617: the user-id of Basic authentication cannot contain a colon.
  if (user.includes(":")) throw new UsageError(commandLine.colonInUser(user));

}

interface SendOptions {
  path: string;
  /** Sent as JSON: an object for a port-in, a string for a portability Check. */
  body: unknown;
  /** The retry policy of a watched question, in place of its instance's own. */
  policy: Partial<RetryOptions> | undefined;
  /** A watched question's hooks, added to its instance's own. */
  hooks: { beforeRequest: (() => void)[] } | undefined;
  base: BaseUrl;
  scrub: Scrub;
  timeoutMs: number;
}

/** What a watch is told of: an attempt without an answer, or answered 5xx or 429 (a 404 or 4xx is an answer). */
function failedAttempt(error: { response?: { statusCode: number } | undefined }): boolean {
  const status = error.response?.statusCode;
  return status === undefined || status >= 500 || status === 429;
}

/** got asks calculateDelay after every attempt that did not end in a 2xx: the watch hears of the failed ones and may stop the retries. */
function watched(policy: Partial<RetryOptions>, watch: AttemptWatch): Partial<RetryOptions> {
  return { ...policy, calculateDelay: ({ error, computedValue }) => (failedAttempt(error) ? watch.failed(computedValue) : computedValue) };
}

/** got runs beforeRequest hooks before each attempt, retries included: the watch hears of every request made. */
function sentHooks(watch: AttemptWatch): { beforeRequest: (() => void)[] } {
  return { beforeRequest: [() => watch.sent()] };
}

/** `http`: the instance of the request's method, retry policy and body (createClient's instanceFor). */
async function send(http: Got, o: SendOptions): Promise<Exchange> {
  const request = http(o.path.replace(/^\//, ""), {
    ...(o.body === undefined ? {} : { json: o.body }),
    ...(o.policy === undefined ? {} : { retry: o.policy }),
    ...(o.hooks === undefined ? {} : { hooks: o.hooks }),
  });
  // got has no size limit of its own; its documented way is to cancel on downloadProgress,
  // whose `total` is the announced Content-Length (refused before reading) and `transferred`
  // what has been read so far.
  let oversize = false;
  void request.on("downloadProgress", (progress) => {
    if (oversize || (progress.transferred <= MAX_ANSWER_BYTES && (progress.total ?? 0) <= MAX_ANSWER_BYTES)) return;
    oversize = true;
    request.cancel();
  });
  try {
    return fromResponse(await request, o.scrub);
  } catch (error) {
    if (oversize) return answerTooLarge(MAX_ANSWER_BYTES);
    // got's error holds the request options, Authorization header included: keep only text.
    return fromError(error, o.base, o.timeoutMs, o.scrub);
  }
}
