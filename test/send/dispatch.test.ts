import { open } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { PortRequest } from "../../src/group/requests.js";
import { dispatch, WITHDRAWN } from "../../src/send/dispatch.js";
import { openJournal, readJournal } from "../../src/journal/journal.js";
import { stateOf } from "../../src/journal/prior.js";
import { IDENTITY, journalLines, statePath } from "../journal/helpers.js";
import type { DispatchJournal } from "../../src/send/dispatch.js";
import { OPERATIONS } from "../../src/catalog/operations.js";
import type { SubmitOutcome } from "../../src/service/outcome.js";
import type { ValidRow } from "../../src/validate/types.js";

const DIDS = OPERATIONS[0] as (typeof OPERATIONS)[number];

function requests(count: number): PortRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const row: ValidRow = {
      valid: true,
      index: i,
      line: i + 2,
      number: `416555${String(i).padStart(4, "0")}`,
      numberKind: "regular",
      operation: DIDS,
      target: "4165550000",
      group: "",
      portForm: {},
      request: {},
      item: {},
    };
    return { sequence: i + 1, operation: DIDS, target: "4165550000", group: "", portForm: {}, request: {}, numbers: [row] };
  });
}

const ACCEPTED: SubmitOutcome = { kind: "accepted", httpStatus: 200, reply: 1, ticket: "T", message: "Accepted" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A timer may fire up to a millisecond before performance.now() says its delay is up (libuv's clock is coarser). */
const TIMER_SLACK_MS = 5;
let ids = 0;
const base = { newRequestId: () => `r${ids++}`, ratePerSecond: null, signal: new AbortController().signal };

describe("dispatch", () => {
  it.each([
    [2, "Deferred: awaiting the losing carrier"],
    [3, "Conditional: awaiting the losing carrier"],
  ] as const)("marks Reply %i submitted with a message that says which", async (reply, message) => {
    const report = await dispatch(requests(1), {
      ...base,
      journal: null,
      concurrency: 1,
      submit: () => Promise.resolve({ kind: "accepted", httpStatus: 200, reply, ticket: "PI-9", message: "awaiting the losing carrier" }),
    });
    expect(report.results.get(1)).toMatchObject({ status: "submitted", httpStatus: 200, ticket: "PI-9", message, named: null, resentAs: null });
  });

  it("settles with a rejection the other numbers othersHeld finds held, and sends again only the rest", async () => {
    const [request] = requests(1) as [PortRequest];
    const rows = [0, 1, 2, 3].map((i) => ({ ...(request.numbers[0] as ValidRow), index: i, number: `416555000${i}` }));
    const sent: string[][] = [];
    const asked: { named: string[]; others: string[] }[] = [];
    const report = await dispatch([{ ...request, numbers: rows }], {
      ...base,
      journal: null,
      concurrency: 1,
      submit: (r) => {
        sent.push(r.numbers.map((row) => row.number));
        return Promise.resolve(
          sent.length === 1 ? { kind: "rejected", httpStatus: 200, message: "4165550000 already has a pending port-in" } : ACCEPTED,
        );
      },
      othersHeld: (named, others) => {
        asked.push({ named: [...named.keys()], others: [...others] });
        return Promise.resolve(new Map([["4165550001", "in the same order"], ["4165550002", "in the same order"]]));
      },
    });
    expect(asked).toEqual([{ named: ["4165550000"], others: ["4165550001", "4165550002", "4165550003"] }]);
    expect(sent).toEqual([["4165550000", "4165550001", "4165550002", "4165550003"], ["4165550003"]]);
    const result = report.results.get(1);
    expect([...(result?.named ?? [])]).toEqual([
      ["4165550000", "4165550000 already has a pending port-in"],
      ["4165550001", "in the same order"],
      ["4165550002", "in the same order"],
    ]);
    expect(result?.resentAs?.numbers.map((row) => row.number)).toEqual(["4165550003"]);
    expect(report.results.get(2)).toMatchObject({ status: "submitted" });
  });

  it("starts no more than --rate requests a second, evenly spaced", async () => {
    const starts: number[] = [];
    const before = performance.now();
    await dispatch(requests(6), {
      ...base,
      ratePerSecond: 20,
      journal: null,
      concurrency: 6,
      submit: () => (starts.push(performance.now()), Promise.resolve(ACCEPTED)),
    });
    // 20 a second is one every 50 ms: the sixth start is five intervals after the schedule began,
    // at the earliest; a busy machine only makes it later. Measured from before the first start,
    // not from it, nor gap by gap: a late start shortens the gap after it. Without a rate all six
    // start within a millisecond.
    expect((starts.at(-1) as number) - before).toBeGreaterThanOrEqual(5 * 50 - TIMER_SLACK_MS);
  });

  it("takes a fractional --rate: 2.5 a second is one start every 400 ms", async () => {
    const starts: number[] = [];
    const before = performance.now();
    await dispatch(requests(3), {
      ...base,
      ratePerSecond: 2.5,
      journal: null,
      concurrency: 3,
      submit: () => (starts.push(performance.now()), Promise.resolve(ACCEPTED)),
    });
    // The third start, two intervals in: 800 ms at 2.5 a second, where 3 a second would take 667.
    expect(starts).toHaveLength(3);
    expect((starts.at(-1) as number) - before).toBeGreaterThanOrEqual(2 * 400 - TIMER_SLACK_MS);
  });

  it("never has more than --concurrency requests in flight, and sends every request once", async () => {
    let inFlight = 0;
    let most = 0;
    const sent: number[] = [];
    const report = await dispatch(requests(40), {
      ...base,
      journal: null,
      concurrency: 4,
      submit: async (request) => {
        sent.push(request.sequence);
        most = Math.max(most, ++inFlight);
        await sleep(2);
        inFlight--;
        return ACCEPTED;
      },
    });
    expect(most).toBe(4);
    expect(sent.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(report.results.size).toBe(40);
  });

  it("starts the next request once an answer is in, without waiting for its outcome to reach the disk, and returns only after every outcome has", async () => {
    const events: string[] = [];
    const pendingOutcomes: (() => void)[] = [];
    // The third outcome asked for, not a clock, says the run got that far; the fallback only keeps a failure from hanging.
    let thirdOutcome = () => {};
    const third = new Promise<void>((resolve) => (thirdOutcome = resolve));
    const journal: DispatchJournal = {
      intent: (id) => {
        events.push(`intent ${id}`);
        return Promise.resolve();
      },
      outcome: (id) => {
        events.push(`outcome ${id}`);
        if (pendingOutcomes.length === 2) thirdOutcome();
        return new Promise<void>((resolve) => pendingOutcomes.push(resolve));
      },
    };
    ids = 0;
    let finished = false;
    const running = dispatch(requests(3), { ...base, journal, concurrency: 1, submit: () => Promise.resolve(ACCEPTED) }).then((report) => {
      finished = true;
      return report;
    });
    await Promise.race([third, sleep(2_000)]);
    await sleep(20);
    expect(events).toEqual(["intent r0", "outcome r0", "intent r1", "outcome r1", "intent r2", "outcome r2"]);
    expect(finished).toBe(false);
    for (const resolve of pendingOutcomes) resolve();
    expect((await running).results.size).toBe(3);
  });

  it("writes a waiting request's intent while the requests ahead of it are in flight, and sends none before its own intent is on disk", async () => {
    const durable = new Set<string>();
    const events: string[] = [];
    const journal: DispatchJournal = {
      intent: async (_id, _operation, numbers) => {
        events.push("intent");
        await sleep(5);
        for (const number of numbers) durable.add(number);
      },
      outcome: () => Promise.resolve(),
    };
    const early: string[] = [];
    const report = await dispatch(requests(8), {
      ...base,
      journal,
      concurrency: 2,
      writeAhead: () => true,
      submit: async (request) => {
        const number = request.numbers[0]?.number ?? "";
        if (!durable.has(number)) early.push(number);
        await sleep(20);
        events.push("answer");
        return ACCEPTED;
      },
    });
    expect(early).toEqual([]);
    expect(report.results.size).toBe(8);
    // Before the first answer: the intents of the two requests in flight and of the two waiting for a slot, no more.
    expect(events.slice(0, events.indexOf("answer"))).toEqual(["intent", "intent", "intent", "intent"]);
  });

  it("makes the intents of the first requests in flight durable in an fsync of their own, not after those of the requests waiting behind them", async () => {
    const path = await statePath();
    /** How many intents each fsync found written. */
    const synced: number[] = [];
    let written = "";
    const journal = await openJournal(path, IDENTITY, {
      openAppend: async (file) => {
        const handle = await open(file, "a");
        return {
          write: async (data) => {
            await handle.writeFile(data);
            written += data;
          },
          sync: async () => {
            await handle.datasync();
            synced.push(written.split('"type":"intent"').length - 1);
          },
          close: () => handle.close(),
        };
      },
    });
    /** How many intents were durable as each request left. */
    const durableAtSend: number[] = [];
    const report = await dispatch(requests(8), {
      ...base,
      journal,
      concurrency: 4,
      writeAhead: () => true,
      submit: async () => {
        durableAtSend.push(synced.at(-1) ?? 0);
        await sleep(10);
        return ACCEPTED;
      },
    });
    await journal.close();
    expect(report.results.size).toBe(8);
    // The first four leave once their own four intents are on disk; the four waiting for a slot follow in the next fsync.
    expect(durableAtSend.slice(0, 4)).toEqual([4, 4, 4, 4]);
    expect(synced).toContain(8);
  });

  it.each([
    [10, 4],
    [2, 2],
  ])("with %i requests, opens connections for %i while the first intents are made durable, once, and sends nothing before they are", async (count, connections) => {
    const events: string[] = [];
    // The first intents stay in flight until the connections are asked for (or 2 s pass): a
    // connect that waited for them would come after "durable", whatever the machine's speed.
    let connected = () => {};
    const connecting = new Promise<void>((resolve) => (connected = resolve));
    const journal: DispatchJournal = {
      intent: async () => {
        events.push("intent");
        await Promise.race([connecting, sleep(2_000)]);
        events.push("durable");
      },
      outcome: () => Promise.resolve(),
    };
    await dispatch(requests(count), {
      ...base,
      journal,
      concurrency: 4,
      writeAhead: () => true,
      connect: (n) => (events.push(`connect ${n}`), connected()),
      submit: () => {
        events.push("submit");
        return Promise.resolve(ACCEPTED);
      },
    });
    expect(events.filter((event) => event.startsWith("connect"))).toEqual([`connect ${connections}`]);
    expect(events.indexOf(`connect ${connections}`)).toBeGreaterThan(events.indexOf("intent"));
    expect(events.indexOf(`connect ${connections}`)).toBeLessThan(events.indexOf("durable"));
    expect(events.indexOf("submit")).toBeGreaterThan(events.indexOf("durable"));
  });

  it("writes no intent ahead for a request writeAhead refuses: its intent waits for its turn", async () => {
    const events: string[] = [];
    const journal: DispatchJournal = {
      intent: (_id, _operation, numbers) => (events.push(`intent ${numbers[0] ?? ""}`), Promise.resolve()),
      outcome: () => Promise.resolve(),
    };
    const list = requests(3);
    await dispatch(list, {
      ...base,
      journal,
      concurrency: 1,
      writeAhead: (request) => request.sequence !== 2,
      submit: async (request) => {
        await sleep(5);
        events.push(`answer ${request.numbers[0]?.number ?? ""}`);
        return ACCEPTED;
      },
    });
    const [one, two, three] = list.map((request) => request.numbers[0]?.number ?? "");
    // Request 2's intent only once request 1's answer freed the slot; request 3's while request 2 is in flight.
    expect(events.indexOf(`intent ${two}`)).toBeGreaterThan(events.indexOf(`answer ${one}`));
    expect(events.indexOf(`intent ${three}`)).toBeLessThan(events.indexOf(`answer ${two}`));
    expect(events).toHaveLength(6);
  });

  it("withdraws the intents written ahead as soon as the run stops: a failed outcome each, so the next run sends their numbers", async () => {
    const path = await statePath();
    const real = await openJournal(path, IDENTITY);
    // The answers wait for the two withdrawals, not for a clock: withdrawals that waited for a
    // slot instead would hold the answers until the fallback, and land after them.
    let withdrawn = 0;
    let bothWithdrawn = () => {};
    const withdrawals = new Promise<void>((resolve) => (bothWithdrawn = resolve));
    const journal: DispatchJournal = {
      intent: (...args) => real.intent(...args),
      outcome: (requestId, outcome) => {
        const written = real.outcome(requestId, outcome);
        if (outcome.message === WITHDRAWN && ++withdrawn === 2) bothWithdrawn();
        return written;
      },
    };
    const interrupt = new AbortController();
    const list = requests(6);
    const report = await dispatch(list, {
      ...base,
      signal: interrupt.signal,
      journal,
      concurrency: 2,
      writeAhead: () => true,
      submit: async () => {
        interrupt.abort("SIGINT");
        await Promise.race([withdrawals, sleep(2000)]);
        return ACCEPTED;
      },
    });
    await real.close();
    expect(report.stopped).toMatchObject({ kind: "signal" });
    expect([...report.results.keys()].sort()).toEqual([1, 2]);
    const lines = (await journalLines(path)) as { type: string; status?: string; message?: string }[];
    expect(lines.filter((line) => line.type === "intent")).toHaveLength(4);
    expect(lines.filter((line) => line.type === "outcome").map((line) => [line.status, line.message])).toEqual([
      ["failed", WITHDRAWN],
      ["failed", WITHDRAWN],
      ["submitted", "Accepted"],
      ["submitted", "Accepted"],
    ]);
    const prior = await readJournal(path, IDENTITY);
    expect(list.map((request) => stateOf(prior, request.numbers[0]?.number ?? "").kind)).toEqual(["submitted", "submitted", "none", "none", "none", "none"]);
  });

  it("withdraws the intents written ahead when the service refuses the credentials, as on a signal", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    const list = requests(6);
    const report = await dispatch(list, {
      ...base,
      journal,
      concurrency: 2,
      writeAhead: () => true,
      submit: async () => {
        await sleep(10);
        return { kind: "auth", httpStatus: 401, message: "the service refused user sandbox" };
      },
    });
    await journal.close();
    expect(report.stopped).toMatchObject({ kind: "auth" });
    const lines = (await journalLines(path)) as { type: string; status?: string; message?: string }[];
    const outcomes = lines.filter((line) => line.type === "outcome");
    // Every intent on disk has its outcome, and every withdrawn one leaves its numbers free for the next run.
    expect(outcomes).toHaveLength(lines.filter((line) => line.type === "intent").length);
    expect(outcomes.filter((line) => line.message === WITHDRAWN).length).toBeGreaterThan(0);
    const prior = await readJournal(path, IDENTITY);
    expect(list.map((request) => stateOf(prior, request.numbers[0]?.number ?? "").kind).filter((kind) => kind !== "none")).toEqual([]);
  });

  it("stops starting requests when an outcome cannot be recorded, and says why", async () => {
    const journal: DispatchJournal = {
      intent: () => Promise.resolve(),
      outcome: () => Promise.reject(new Error("disk full")),
    };
    const submitted: number[] = [];
    const report = await dispatch(requests(20), {
      ...base,
      journal,
      concurrency: 1,
      submit: async (request) => {
        submitted.push(request.sequence);
        await sleep(1);
        return ACCEPTED;
      },
    });
    expect(report.stopped).toMatchObject({ kind: "journal" });
    expect(submitted.length).toBeLessThan(20);
  });

  it("rejects with a bug thrown while sending, after the requests in flight have ended", async () => {
    let ended = 0;
    // Request 2 throws once all three are in flight; 1 and 3 end only after it has: promises,
    // not clocks, order them (a 1 ms and a 5 ms sleep let a busy machine end request 1 first).
    let started = 0;
    let allInFlight = () => {};
    const inFlight = new Promise<void>((resolve) => (allInFlight = resolve));
    let bugThrown = () => {};
    const thrown = new Promise<void>((resolve) => (bugThrown = resolve));
    const running = dispatch(requests(10), {
      ...base,
      journal: null,
      concurrency: 3,
      submit: async (request) => {
        if (++started === 3) allInFlight();
        if (request.sequence === 2) {
          await Promise.race([inFlight, sleep(2_000)]);
          bugThrown();
          throw new Error("bug");
        }
        await Promise.race([thrown, sleep(2_000)]);
        await sleep(1);
        ended++;
        return ACCEPTED;
      },
    });
    await expect(running).rejects.toThrow("bug");
    expect(ended).toBe(2);
  });
});
