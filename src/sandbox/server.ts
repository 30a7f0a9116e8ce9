/**
 * The built-in sandbox: a strict simulator of the Port-In Request Service (docs/contract.md §1) over
 * real HTTP, for `portin sandbox`, for runs without --base-url, and for tests.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UsageError } from "../errors.js";
import type { OperationId } from "../catalog/operations.js";
import { loadAccount } from "./account.js";
import { answer } from "./app.js";
import type { SandboxContext } from "./app.js";
import { Carrier } from "./carrier.js";
import { SandboxClock } from "./clock.js";
import { FaultInjector } from "./faults.js";
import { exception, readBody, sleep, writeAnswer } from "./http.js";
import type { Answer } from "./http.js";
import { kept } from "./keep.js";
import { Ledger } from "./ledger.js";
import type { AcceptedRequest } from "./ledger.js";
import { mulberry32 } from "./prng.js";
import { SANDBOX_PATHS } from "./routes.js";
import { loadSavedSandbox, saveSandbox } from "./saved-orders.js";
import type { SandboxAccount } from "./account.js";
import { V911Database } from "./v911.js";
import type { V911Faults } from "./v911.js";
import { monotonicMs } from "../monotonic.js";

export type { AcceptedRequest, OperationId };

/** The port `portin sandbox` listens on unless told otherwise (docs/contract.md §2). */
export const DEFAULT_SANDBOX_PORT = 4010;
export const DEFAULT_SANDBOX_USER = "sandbox";
export const DEFAULT_SANDBOX_PASSWORD = "sandbox";
/** Share of accepted orders the sandbox's carriers reject a business day later (docs/contract.md §2). */
export const DEFAULT_REJECT_RATE = 0.2;

export interface SandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Defaults "sandbox"/"sandbox". */
  user?: string;
  password?: string;
  /** Default fixtures/sandbox-account.json. */
  accountFile?: string;
  /** Time from each request's arrival to its answer, GETs too. Default 0. */
  latencyMs?: number;
  /** Share of port-in POSTs answered 500, 0..1. Default 0. */
  failRate?: number;
  /** Share of port-in POSTs answered 429 with Retry-After, 0..1. Default 0. */
  throttleRate?: number;
  /** Seed of the fault PRNG, and of the carriers' rejections. Default random (see RunningSandbox.seed). */
  seed?: number;
  /** Share of accepted orders the losing carrier rejects, 0..1. Default DEFAULT_REJECT_RATE. */
  rejectRate?: number;
  /** Real seconds per sandbox day; 0 (default): days pass only when advanced. */
  daySeconds?: number;
  /** YYYY-MM-DD of the sandbox's first day. Default today (UTC). */
  startDate?: string;
  /** The order list answers 500 (`--order-list-down`). Default false. */
  orderListDown?: boolean;
  /** Real seconds an accepted order stays out of PortInStatus while the order list shows it (`--status-lag`). Default 0. */
  statusLagSeconds?: number;
  /** A refused POST names only its first refused number, as some services do. Default false: every one. */
  namesFirstRefusalOnly?: boolean;
  /** 9-1-1 faults (docs/sandbox.md "9-1-1 and trunks"): cities the database refuses (city -> the one it suggests). */
  e911RefusedCities?: Readonly<Record<string, string>>;
  /** Share of 9-1-1 registrations (POST, PUT) answered 500 after the record was made, 0..1. Default 0. */
  e911FailRate?: number;
  /** Numbers a completed port leaves off their trunk. */
  offTrunk?: readonly string[];
  /**
   * A file that keeps the sandbox's orders between runs (saved-orders.ts): read at start, its
   * calendar then following the real one from the first run's day; written at close() when
   * the sandbox took an order. The account file's orders are placed only when it holds none.
   */
  keepOrdersIn?: string;
  /** Called with one line per answered request; never with credentials. */
  log?: (line: string) => void;
  /**
   * Whether received() keeps a copy of every POST; default true. `portin sandbox` keeps none:
   * nothing outside its process can ask for them (GET /_sandbox/requests serves the ledger's
   * own copies), and copying each body a second time was CPU taken from the client beside it.
   */
  keepReceived?: boolean;
}

export interface ReceivedPost {
  path: string;
  status: number;
  /** The parsed body (or its text), as kept: each attachment as its size and SHA-256 (keep.ts). */
  body: unknown;
}

export interface RunningSandbox {
  /** "http://127.0.0.1:4010": the base URL to give portin. */
  url: string;
  user: string;
  password: string;
  /** The fault seed in use, so that a run with random faults can be replayed. */
  seed: number;
  close(): Promise<void>;
  accepted(): readonly AcceptedRequest[];
  /** Every POST received but the sandbox's own (/_sandbox/…), accepted or not, in order of answer; none when started with keepReceived false. */
  received(): readonly ReceivedPost[];
  /** Changes the fault rates from the next POST on, e.g. for a service that recovers between runs. */
  setFaults(rates: { failRate: number; throttleRate: number }): void;
  /** Moves the sandbox's calendar on, as `POST /_sandbox/clock {"advanceDays": n}` does. */
  advanceDays(days: number): void;
  /** Changes the share of orders the carriers reject, from the next order accepted on. */
  setRejectRate(rate: number): void;
  /** Takes the order list down (it answers 500) or brings it back. */
  setOrderListDown(down: boolean): void;
  /** Changes the 9-1-1 faults from the next request on; those not given stay as they were. */
  setE911Faults(faults: { refusedCities?: Readonly<Record<string, string>>; failRate?: number; offTrunk?: readonly string[] }): void;
  /** Every request answered, in order: method, path and status (the sandbox's own routes included). */
  served(): readonly ServedRequest[];
}

export interface ServedRequest {
  method: string;
  path: string;
  status: number;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  const user = options.user ?? DEFAULT_SANDBOX_USER;
  const password = options.password ?? DEFAULT_SANDBOX_PASSWORD;
  const latencyMs = options.latencyMs ?? 0;
  const account = loadAccount(options.accountFile);
  const faults = new FaultInjector({ failRate: options.failRate ?? 0, throttleRate: options.throttleRate ?? 0 }, options.seed);
  const saved = options.keepOrdersIn === undefined ? null : loadSavedSandbox(options.keepOrdersIn);
  const startDate = saved?.startDate ?? options.startDate;
  const clock = new SandboxClock({
    daySeconds: options.daySeconds ?? 0,
    ...(startDate === undefined ? {} : { startDate }),
    ...(options.keepOrdersIn === undefined ? {} : { followsCalendar: true }),
  });
  // The carriers draw from a PRNG of their own, so that adding them left every fault sequence as it was.
  const carrier = new Carrier({
    clock,
    random: mulberry32(faults.seed ^ CARRIER_SEED_MIX),
    rejectRate: options.rejectRate ?? DEFAULT_REJECT_RATE,
    providers: new Map(account.providers.map((p) => [p.ID, p.Name])),
  });
  const ledger = new Ledger(account, { clock, carrier, statusLagMs: (options.statusLagSeconds ?? 0) * 1000 });
  const v911 = new V911Database(
    v911Faults({ refusedCities: options.e911RefusedCities ?? {}, failRate: options.e911FailRate ?? 0, offTrunk: options.offTrunk ?? [] }),
    mulberry32(faults.seed ^ V911_SEED_MIX),
  );
  if (saved) v911.restore(saved.v911);
  const v911AtStart = JSON.stringify(v911.snapshot());
  if (saved) ledger.restore(saved.ledger);
  else placeAccountOrders(ledger, account, options.accountFile);
  const heldAtStart = ledger.size;
  const orderList = { down: options.orderListDown ?? false };
  const ctx: SandboxContext = { account, ledger, faults, credentials: { user, password }, clock, orderList, v911, namesFirstRefusalOnly: options.namesFirstRefusalOnly ?? false };
  const received: ReceivedPost[] = [];
  const keepReceived = options.keepReceived ?? true;
  const served: ServedRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = monotonicMs();
    const pathname = new URL(req.url ?? "/", "http://sandbox").pathname;
    const isPost = req.method === "POST";
    const hasBody = isPost || req.method === "PUT";
    let result: { answer: Answer; body: unknown };
    try {
      const text = hasBody ? await readBody(req) : (req.resume(), "");
      result = answer(ctx, req, pathname, text);
    } catch (error) {
      result = { answer: exception(500, "InternalServerError", `sandbox failure: ${(error as Error).message}`), body: undefined };
    }
    // A service's latency runs from the request's arrival, its own work inside it: the sandbox,
    // one thread where the service has many, would otherwise add a burst's queue to every answer.
    await sleep(Math.max(0, latencyMs - (monotonicMs() - arrived)));
    // Kept without attachment bytes (keep.ts): a long session must not hold every upload.
    if (keepReceived && isPost && !pathname.startsWith(SANDBOX_PATHS)) received.push({ path: pathname, status: result.answer.status, body: kept(result.body) });
    served.push({ method: req.method ?? "?", path: pathname, status: result.answer.status });
    options.log?.(describe(req.method ?? "?", pathname, result.answer));
    // Its calendar's today, not the machine's: `--start-date` rehearses another day (clock.ts).
    res.setHeader("Date", clock.httpDate());
    writeAnswer(res, result.answer);
  }

  /** No request, however odd, may take the sandbox and its ledger down. */
  function handleSafely(req: IncomingMessage, res: ServerResponse): void {
    handle(req, res).catch((error: unknown) => {
      options.log?.(`${req.method ?? "?"} ${req.url ?? ""} failed: ${(error as Error).message}`);
      if (!res.headersSent) writeAnswer(res, exception(500, "InternalServerError", "sandbox failure"));
      else res.destroy();
    });
  }

  const server = createServer(handleSafely);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new UsageError(`port ${port} on ${host} is already in use: pass --port 0 for a free one, or another port`));
      else if (error.code === "EACCES") reject(new UsageError(`not allowed to listen on port ${port} on ${host}: pass --port 0 or a port above 1023`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}`,
    user,
    password,
    seed: faults.seed,
    accepted: () => ctx.ledger.list(),
    received: () => received,
    setFaults: (rates) => faults.setRates(rates),
    advanceDays: (days) => clock.advance(days),
    setRejectRate: (rate) => carrier.setRejectRate(rate),
    setE911Faults: (given) => {
      const changed = v911Faults({ refusedCities: given.refusedCities ?? {}, failRate: given.failRate ?? 0, offTrunk: given.offTrunk ?? [] });
      v911.setFaults({
        ...(given.refusedCities === undefined ? {} : { refusedCities: changed.refusedCities }),
        ...(given.failRate === undefined ? {} : { failAfterRate: changed.failAfterRate }),
        ...(given.offTrunk === undefined ? {} : { offTrunk: changed.offTrunk }),
      });
    },
    served: () => served,
    setOrderListDown: (down) => {
      orderList.down = down;
    },
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would otherwise hold close() open until the client drops them.
        server.closeIdleConnections();
      });
      if (options.keepOrdersIn !== undefined && (ledger.size !== heldAtStart || JSON.stringify(v911.snapshot()) !== v911AtStart)) {
        saveSandbox(options.keepOrdersIn, { startDate: clock.date(0), ledger: ledger.snapshot(), v911: v911.snapshot() });
      }
    },
  };
}

/** The account file's portal orders, placed in the file's order; one the service would refuse makes the file invalid. */
function placeAccountOrders(ledger: Ledger, account: SandboxAccount, file = "fixtures/sandbox-account.json"): void {
  account.orders.forEach((order, i) => {
    const placed = ledger.place(order, { before: true });
    if ("refusals" in placed) throw new UsageError(`sandbox account file '${file}' is not valid: orders.${i}: ${placed.refusals.join("; ")}`);
  });
}

/** The 9-1-1 faults as the database keeps them: cities compared in any case. */
function v911Faults(given: { refusedCities: Readonly<Record<string, string>>; failRate: number; offTrunk: readonly string[] }): V911Faults {
  return {
    refusedCities: new Map(Object.entries(given.refusedCities).map(([city, suggested]) => [city.trim().toLowerCase(), suggested])),
    failAfterRate: given.failRate,
    offTrunk: new Set(given.offTrunk),
  };
}

/** Any odd constant: the 9-1-1 faults draw apart from the port-in faults and the carriers. */
const V911_SEED_MIX = 0x27d4eb2f;

/** Any odd constant: the carriers' PRNG is seeded apart from the faults' one. */
const CARRIER_SEED_MIX = 0x5bd1e995;

/** "POST /v2/NumberPorts/Inbound/DIDs 200 Reply 1 PI-000001 Accepted", for the operator's terminal. */
function describe(method: string, pathname: string, answer: Answer): string {
  const body = (answer.body ?? {}) as { Reply?: number; TicketMask?: string; Message?: string };
  const detail =
    method === "POST" && answer.status === 200
      ? [`Reply ${body.Reply ?? "?"}`, body.TicketMask, body.Message]
      : [answer.status >= 400 ? body.Message : undefined];
  return [method, pathname, String(answer.status), ...detail].filter((part) => part).join(" ");
}
