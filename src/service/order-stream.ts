/**
 * The account's order list (docs/contract.md §5), read as it arrives rather than whole: it grows
 * with the account, and an account of 30,000 orders answers some 8 MiB, past what portin reads
 * of any other answer (client.ts MAX_ANSWER_BYTES). Each entry of its `Orders` is turned into
 * the orders portin keeps (answers.ts accountOrdersOf) as soon as it is parsed, and its text
 * dropped: memory holds the orders read, never the answer's text.
 *
 * The JSON is read by @streamparser/json, which emits each value of the paths it is given and,
 * without keepStack, drops it from its parent: JSON.parse needs the whole text in memory first.
 */
import { JSONParser } from "@streamparser/json";
import { HTTPError } from "got";
import type { Got, RetryOptions } from "got";
import type { AccountOrder } from "../catalog/account.js";
import * as serviceWords from "../messages/service.js";
import { accountOrdersOf } from "./answers.js";
import { fromError, fromResponse } from "./exchange.js";
import type { Exchange, Scrub } from "./exchange.js";
import type { BaseUrl } from "./base-url.js";

/**
 * Largest order list portin reads, after decompression: about 500,000 orders of the service's
 * some 260 bytes each. Past it the base URL is not the service (a proxy's loop, an endless
 * answer), or the account is far past anything a migration of its numbers needs read.
 */
export const MAX_ORDER_LIST_BYTES = 128 * 1024 * 1024;

/** How many bytes of an answer that is not JSON the error quotes. */
const QUOTED = 40;

export interface OrderListRequest {
  readonly path: string;
  /** The retry policy of a watched question, in place of the instance's own. */
  readonly policy: Partial<RetryOptions> | undefined;
  readonly base: BaseUrl;
  readonly scrub: Scrub;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** What reading the list came to: its orders, an answer or failure for lookup-answer.ts to judge, or why the body is no list. */
export type ReadList =
  | { readonly kind: "orders"; readonly orders: AccountOrder[] }
  | { readonly kind: "exchange"; readonly exchange: Exchange }
  /** A 200 whose body is not JSON: `start` is its first bytes. */
  | { readonly kind: "not-json"; readonly start: string }
  /** JSON without an `Orders` list. */
  | { readonly kind: "no-list" };

/** Reads the list through `http` (the GET instance), under got's retry policy: a retry starts the reading afresh. */
export function readOrderList(http: Got, o: OrderListRequest): Promise<ReadList> {
  return new Promise((resolve) => {
    const read = (stream: ReturnType<Got["stream"]>): void => {
      const list = new OrderListParser();
      let bytes = 0;
      let over = false;
      const done = (outcome: ReadList): void => {
        if (over) return;
        over = true;
        stream.destroy();
        resolve(outcome);
      };
      // Statuses are lookup-answer.ts's to judge, but a stream throws them to be retried: got retries a stream only with a listener.
      stream.once("retry", (_count: number, _error: unknown, again: () => ReturnType<Got["stream"]>) => {
        over = true;
        read(again());
      });
      stream.on("response", (response: { statusCode: number; headers: Record<string, unknown>; retryCount: number }) => {
        if (response.statusCode !== 200) done({ kind: "exchange", exchange: fromResponse({ ...response, body: "" }, o.scrub) });
      });
      stream.on("data", (chunk: Buffer) => {
        if (over) return;
        bytes += chunk.length;
        if (bytes > o.maxBytes) return done({ kind: "exchange", exchange: { kind: "transport", reachedService: true, timedOut: false, text: tooLarge(o.maxBytes), oversize: true, retries: 0 } });
        if (!list.write(chunk)) done({ kind: "not-json", start: o.scrub(list.start) });
      });
      stream.on("end", () => done(list.end(o.scrub)));
      stream.on("error", (error: unknown) => {
        if (error instanceof HTTPError) done({ kind: "exchange", exchange: fromResponse({ statusCode: error.response.statusCode, body: "", headers: error.response.headers, retryCount: error.request.retryCount }, o.scrub) });
        else done({ kind: "exchange", exchange: fromError(error, o.base, o.timeoutMs, o.scrub) });
      });
    };
    read(http.stream(o.path.replace(/^\//, ""), { throwHttpErrors: true, ...(o.policy === undefined ? {} : { retry: o.policy }) }));
  });
}

function tooLarge(maxBytes: number): string {
  return serviceWords.answerTooLarge(maxBytes / (1024 * 1024));
}

/** The list's `Orders` (any case), entry by entry, as a JSON text arrives in chunks. */
class OrderListParser {
  readonly #parser = new JSONParser({ paths: ["$.*", "$.*.*"], keepStack: false });
  readonly #orders: AccountOrder[] = [];
  #listed = false;
  /** The first bytes of the answer, for an error that quotes them. */
  start = "";

  constructor() {
    this.#parser.onValue = ({ value, key, stack }) => {
      // An entry of a top-level member: kept when that member is the list.
      if (stack.length === 2 && isOrders(stack[1]?.key)) this.#orders.push(...accountOrdersOf(value));
      else if (stack.length === 1 && isOrders(key) && Array.isArray(value)) this.#listed = true;
    };
  }

  /** False when the text is not JSON. */
  write(chunk: Buffer): boolean {
    if (this.start.length < QUOTED) this.start = (this.start + chunk.subarray(0, QUOTED).toString("utf8")).replace(/\s+/g, " ").slice(0, QUOTED);
    try {
      // Whitespace after the answer's one value is no value.
      if (this.#parser.isEnded) return chunk.toString("utf8").trim() === "";
      this.#parser.write(chunk);
      return true;
    } catch {
      return false;
    }
  }

  end(scrub: Scrub): ReadList {
    if (!this.#parser.isEnded) return { kind: "not-json", start: scrub(this.start) };
    return this.#listed ? { kind: "orders", orders: this.#orders } : { kind: "no-list" };
  }
}

function isOrders(key: unknown): boolean {
  return typeof key === "string" && /^orders$/i.test(key);
}
