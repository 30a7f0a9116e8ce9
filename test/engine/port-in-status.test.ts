/**
 * Asking PortInStatus about many orders (engine/port-in-status.ts): one question per request
 * when the answer lists the order's numbers, and a breaker when the service keeps failing.
 */
import { describe, expect, it } from "vitest";
import type { PortInStatus } from "../../src/catalog/account.js";
import { AuthError, LookupError } from "../../src/errors.js";
import { askByNumber, BREAK_AFTER_FAILURES, RETRY_WAIT_LIMIT_MS, StatusAsker, UNAVAILABLE } from "../../src/engine/port-in-status.js";

const group = (first: number, count: number): string[] => Array.from({ length: count }, (_, i) => String(4165550000 + first + i));

function found(ticketId: string, numbersToPort: readonly string[], status = "SUBMITTED"): PortInStatus {
  return { ticketId, status, portDate: "", rejectReason: "", rejectSummary: "", rejectDetails: [], numbersToPort, accountNumber: "", endUserName: "" };
}

const asker = (concurrency = 4, signal = new AbortController().signal) => new StatusAsker({ concurrency, signal });

describe("asking by number", () => {
  it("settles three requests of 100 with three questions, each number taking its order's ticket", async () => {
    const requests = [group(0, 100), group(100, 100), group(200, 100)];
    const asked: string[] = [];
    const answers = await askByNumber(requests, asker(), (number) => {
      asked.push(number);
      const i = requests.findIndex((r) => r.includes(number));
      return Promise.resolve(found(`PI-${i}`, requests[i]!));
    });
    expect(asked).toEqual([requests[0]![0], requests[1]![0], requests[2]![0]]);
    expect(answers.size).toBe(300);
    expect(answers.get(requests[2]![99]!)).toMatchObject({ kind: "found", status: { ticketId: "PI-2" } });
  });

  it("asks every other number of a request whose first number has no port-in, or whose order ended", async () => {
    const missing = group(0, 3);
    const ended = group(10, 3);
    const asked: string[] = [];
    const answers = await askByNumber([missing, ended], asker(1), (number) => {
      asked.push(number);
      return Promise.resolve(ended.includes(number) ? found("PI-9", ended, "REJECTED") : null);
    });
    expect(asked).toEqual([missing[0], ended[0], missing[1], missing[2], ended[1], ended[2]]);
    expect(answers.get(missing[2]!)).toMatchObject({ kind: "missing" });
  });

  it("asks a number its request's order does not list", async () => {
    const request = group(0, 3);
    const asked: string[] = [];
    await askByNumber([request], asker(1), (number) => {
      asked.push(number);
      return Promise.resolve(found("PI-1", request.slice(0, 2)));
    });
    expect(asked).toEqual([request[0], request[2]]);
  });
});

describe("the breaker", () => {
  it("stops after eight failed attempts in a row: the rest are not asked, and say PortInStatus is unavailable", async () => {
    let asked = 0;
    const a = asker(4);
    const answers = await a.run(group(0, 300), () => {
      asked++;
      return Promise.reject(new LookupError("GET … answered 500 Internal Server Error"));
    });
    // The four in flight together, then one at a time while failing, until the eighth.
    expect(asked).toBe(BREAK_AFTER_FAILURES);
    expect(a.broken).toBe(true);
    expect([...answers.values()].filter((x) => x.kind === "failed" && x.reason === UNAVAILABLE)).toHaveLength(300 - BREAK_AFTER_FAILURES);
  });

  it("counts attempts, not questions: the retries of four questions in flight open it, and are cut short once it is open", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const a = asker(4);
    const answers = await a.run(group(0, 5), async (_key, watch) => {
      // got's retries, as the client makes them: each failed attempt told, each wait asked for.
      for (let attempt = 0; attempt <= 5; attempt++) {
        attempts++;
        const wait = watch.failed(2 ** attempt * 1000);
        if (wait === 0) break;
        waits.push(wait);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      throw new LookupError("GET … answered 500 Internal Server Error after 1 retry");
    });
    // The eighth opens it; a question already waiting to retry makes at most the one attempt it was waiting for.
    expect(attempts).toBeGreaterThanOrEqual(BREAK_AFTER_FAILURES);
    expect(attempts).toBeLessThanOrEqual(BREAK_AFTER_FAILURES + 3);
    expect(a.broken).toBe(true);
    expect(Math.max(...waits)).toBeLessThanOrEqual(RETRY_WAIT_LIMIT_MS);
    expect([...answers.values()].filter((x) => x.kind === "failed" && x.reason === UNAVAILABLE)).toHaveLength(1);
  });

  it("asks one at a time while questions fail, and goes on at full width once one succeeds", async () => {
    // Four fail together, two more fail alone, then the service is back.
    const fails = [true, true, true, true, true, true];
    let inFlight = 0;
    const widths: number[] = [];
    const a = new StatusAsker({ concurrency: 4, signal: new AbortController().signal, breakAfter: 10 });
    const answers = await a.run(group(0, 30), async () => {
      const fail = fails.shift() ?? false;
      widths.push(++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      if (fail) throw new LookupError("down");
      return null;
    });
    expect(widths.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(widths.slice(4, 7)).toEqual([1, 1, 1]);
    expect(Math.max(...widths.slice(7))).toBe(4);
    expect([...answers.values()].filter((x) => x.kind === "missing")).toHaveLength(24);
  });

  it("does not open for failures that successes interrupt", async () => {
    let n = 0;
    const answers = await asker(1).run(group(0, 9), () => (n++ % 3 === 2 ? Promise.resolve(null) : Promise.reject(new LookupError("flaky"))));
    expect([...answers.values()].filter((x) => x.kind === "failed" && x.reason === "flaky")).toHaveLength(6);
  });

  it("throws the refusal of the credentials once the questions in flight are done", async () => {
    await expect(asker(2).run(group(0, 5), () => Promise.reject(new AuthError("the service refused user 'u' (401)")))).rejects.toBeInstanceOf(AuthError);
  });

  it("says the run was interrupted for the questions a signal kept from being asked", async () => {
    const stop = new AbortController();
    const answers = await asker(1, stop.signal).run(group(0, 3), () => {
      stop.abort("SIGINT");
      return Promise.resolve(null);
    });
    expect([...answers.values()].map((x) => (x.kind === "failed" ? x.reason : x.kind))).toEqual(["missing", "not checked: run interrupted by SIGINT", "not checked: run interrupted by SIGINT"]);
  });
});
