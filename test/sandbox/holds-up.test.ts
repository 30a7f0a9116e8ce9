/**
 * The built-in sandbox holds up under large and odd requests (docs/sandbox.md). It keeps
 * what it needs of a request, not its attachment bytes; serves its log in bounded pages;
 * refuses a body past its limit with a 413 naming it; and no request takes it down.
 */
import { createHash } from "node:crypto";
import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DEFAULT_PAGE_SIZE } from "../../src/sandbox/log.js";
import { DRAIN_MS, MAX_BODY_BYTES } from "../../src/sandbox/http.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { operationById } from "../../src/catalog/operations.js";
import type { Operation } from "../../src/catalog/operations.js";
import { buildBody } from "../../src/service/body.js";
import { PORT_FORM } from "../support/port-form.js";

const DIDS = operationById("dids") as Operation;

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const auth = () => `Basic ${Buffer.from(`${sandbox.user}:${sandbox.password}`).toString("base64")}`;

/** A DIDs body for one number on the account's first trunk, with a letter of authorization. */
function didsWithLoa(number: string, loa: Buffer): Record<string, unknown> {
  const file = { FileName: "loa.pdf", ContentType: "application/pdf", Base64Contents: loa.toString("base64") };
  return buildBody({ operation: DIDS, target: "4165550100", portForm: { ...PORT_FORM, FileLetterOfAuthorization: [file] }, request: {}, numbers: [{ number, item: {} }] });
}

async function post(body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(sandbox.url + DIDS.path, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json", ...headers }, body });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

async function log(query = "") {
  const res = await fetch(`${sandbox.url}/_sandbox/requests${query}`);
  const text = await res.text();
  return { status: res.status, link: res.headers.get("link"), text, json: JSON.parse(text) as unknown };
}

describe("many requests with a large attachment", () => {
  test("50 requests with a 2 MB letter each are kept without its bytes, and the log reads back in pages", async () => {
    const loa = Buffer.alloc(2_000_000, "%PDF-1.4 scanned letter ");
    const sha256 = createHash("sha256").update(loa).digest("hex");
    const numbers = Array.from({ length: 50 }, (_, i) => `416555${String(3000 + i)}`);
    for (const number of numbers) {
      const res = await post(JSON.stringify(didsWithLoa(number, loa)));
      expect(res.json["Reply"], number).toBe(1);
    }

    // What the sandbox holds, in-process: no request keeps the 2.7 MB of base64.
    expect(JSON.stringify(sandbox.received()).length).toBeLessThan(200_000);
    expect(JSON.stringify(sandbox.accepted()).length).toBeLessThan(200_000);

    const first = await log();
    expect(first.status).toBe(200);
    expect(first.link).toBeNull();
    const all = first.json as { seq: number; numbers: string[]; body: { PortForm: Record<string, unknown> } }[];
    expect(all.map((r) => r.numbers[0])).toEqual(numbers);
    expect(all[0]?.body.PortForm["FileLetterOfAuthorization"]).toEqual([{ FileName: "loa.pdf", ContentType: "application/pdf", Bytes: 2_000_000, Sha256: sha256 }]);
    expect(first.text).not.toContain("Base64Contents");
    expect(first.text.length).toBeLessThan(200_000);

    // Pages of 20 follow their Link headers to the end.
    const seen: number[] = [];
    let next: string | null = "?limit=20";
    const links: (string | null)[] = [];
    while (next !== null) {
      const page = await log(next);
      seen.push(...(page.json as { seq: number }[]).map((r) => r.seq));
      links.push(page.link);
      next = page.link === null ? null : (/<[^?]*(\?[^>]*)>; rel="next"/.exec(page.link)?.[1] ?? null);
    }
    expect(links).toEqual(['</_sandbox/requests?after=20&limit=20>; rel="next"', '</_sandbox/requests?after=40&limit=20>; rel="next"', null]);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  }, 240_000);

  test(`serves ${DEFAULT_PAGE_SIZE} requests a page unless asked, and refuses a page size it does not serve`, async () => {
    for (let i = 0; i < DEFAULT_PAGE_SIZE + 1; i++) expect((await post(JSON.stringify(didsWithLoa(`416555${String(4000 + i)}`, Buffer.from("x"))))).status).toBe(200);
    const first = await log();
    expect((first.json as unknown[]).length).toBe(DEFAULT_PAGE_SIZE);
    expect(first.link).toBe(`</_sandbox/requests?after=${DEFAULT_PAGE_SIZE}&limit=${DEFAULT_PAGE_SIZE}>; rel="next"`);
    expect(((await log(`?after=${DEFAULT_PAGE_SIZE}`)).json as { seq: number }[]).map((r) => r.seq)).toEqual([DEFAULT_PAGE_SIZE + 1]);
    expect((await log("?after=500")).json).toEqual([]);
    const bad = await log("?limit=5000");
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ ID: "BadRequest", Message: 'limit must be a whole number from 1 to 1000 (requests per page), not "5000"' });
    expect((await log("?after=-1")).status).toBe(400);
  });
});

describe("bodies past the limit", () => {
  const tooLarge = {
    ID: "RequestEntityTooLarge",
    Message: "the request body passes 30,000,000 bytes, the most the service takes: send fewer or smaller attachments in one request",
  };

  test("refuses a body one byte past 30,000,000 with a 413 naming the limit, and takes one at the limit", async () => {
    const body = JSON.stringify(didsWithLoa("4165553100", Buffer.from("letter")));
    const atLimit = Buffer.alloc(MAX_BODY_BYTES, " ");
    atLimit.write(body);
    expect((await post(atLimit)).json["Reply"]).toBe(1);
    const over = Buffer.alloc(MAX_BODY_BYTES + 1, " ");
    over.write(JSON.stringify(didsWithLoa("4165553101", Buffer.from("letter"))));
    const res = await post(over);
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(sandbox.accepted().map((r) => r.numbers)).toEqual([["4165553100"]]);
  });

  /**
   * Streams `megabytes` of spaces without a Content-Length; resolves with the answer, or with
   * the error that cut the connection when `deaf` (a client that sends on, whatever the answer).
   */
  function stream(megabytes: number, deaf = false): Promise<{ status?: number; body?: string; error?: string; sent: number }> {
    let sent = 0;
    return new Promise((resolve) => {
      const req = request(`${sandbox.url}${DIDS.path}`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => {
          if (deaf) return;
          resolve({ status: res.statusCode ?? 0, body: text, sent });
          // The answer is in: stop sending, so the sandbox can close without waiting on this connection.
          req.destroy();
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, sent }));
      // Node reports no error for a connection closed after the answer came in, only the close.
      req.on("close", () => resolve({ error: "closed", sent }));
      const chunk = Buffer.alloc(1024 * 1024, " ");
      const more = (): void => {
        while (sent < megabytes && !req.destroyed && req.write(chunk)) sent++;
        if (req.destroyed) return;
        if (sent < megabytes) req.once("drain", more);
        else req.end();
      };
      more();
    });
  }

  test("refuses a body sent without a Content-Length once it passes the limit, holding none of it", async () => {
    const answer = await stream(60);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body ?? "")).toEqual(tooLarge);
    expect(sandbox.received().at(-1)).toEqual({ path: DIDS.path, status: 413, body: null });
  });

  test("cuts a connection that goes on sending past the limit without reading its 413, and serves on", async () => {
    const started = performance.now();
    const answer = await stream(100_000, true);
    // Cut DRAIN_MS after the 413: the client's 100 GB were never read.
    expect(answer.error).toMatch(/^(ECONNRESET|EPIPE|closed)$/);
    expect(answer.sent).toBeLessThan(100_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    expect((await post(JSON.stringify(didsWithLoa("4165553102", Buffer.from("letter"))))).json["Reply"]).toBe(1);
  }, 180_000);
});

describe("odd requests", () => {
  test("a client that hangs up halfway through its body has nothing accepted, and the sandbox serves on", async () => {
    const body = JSON.stringify(didsWithLoa("4165553103", Buffer.from("letter")));
    const held = sandbox.accepted().length;
    const served = sandbox.served().length;
    await new Promise<void>((resolve) => {
      const req = request(sandbox.url + DIDS.path, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json", "Content-Length": String(body.length) } });
      req.on("error", () => resolve());
      req.write(body.slice(0, body.length / 2), () => setTimeout(() => req.destroy(), 20));
    });
    await expect.poll(() => sandbox.served().length).toBe(served + 1);
    expect(sandbox.served().at(-1)?.status).toBe(500);
    expect(sandbox.accepted()).toHaveLength(held);
    expect((await post(body)).json["Reply"]).toBe(1);
  });

  test("a body nested 100,000 deep is answered, kept to 32 levels, and the sandbox serves on", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const res = await post(deep);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(sandbox.received())).toContain("nested deeper than 32 levels; not kept");
    expect((await post(JSON.stringify(didsWithLoa("4165553200", Buffer.from("x"))))).json["Reply"]).toBe(1);
    expect(((await log()).json as unknown[]).length).toBe(1);
  });

  test("a body that is not JSON is kept only to its first 64 Ki characters", async () => {
    const res = await post("x".repeat(1_000_000));
    expect(res.status).toBe(400);
    const body = sandbox.received().at(-1)?.body as string;
    expect(body).toHaveLength(64 * 1024 + "… (1,000,000 characters; the rest not kept)".length);
    expect(body.endsWith("… (1,000,000 characters; the rest not kept)")).toBe(true);
  });
});
