import { open, readFile, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { OutputError } from "../../src/errors.js";
import { openJournal, readJournal } from "../../src/journal/journal.js";
import type { AppendTarget } from "../../src/journal/journal.js";
import { IDENTITY, journalLines, statePath } from "./helpers.js";
import { numbersIn } from "../support/states.js";

/** A real append handle that records what each fsync covered, and can be told to fail or to stall. */
function instrumented() {
  const log = {
    writes: 0,
    syncs: 0,
    written: "",
    /** What the latest fsync made durable. */
    durable: "",
    syncDelayMs: 0,
    onWrite: (): void => undefined,
    /** Set to make the next write put this many bytes of the batch on disk, then fail like a full disk. */
    failAfterBytes: null as number | null,
  };
  const openAppend = async (path: string): Promise<AppendTarget> => {
    const handle = await open(path, "a");
    return {
      async write(data) {
        log.writes++;
        log.onWrite();
        if (log.failAfterBytes !== null) {
          await handle.writeFile(data.slice(0, log.failAfterBytes));
          throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
        }
        await handle.writeFile(data);
        log.written += data;
      },
      async sync() {
        if (log.syncDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, log.syncDelayMs));
        await handle.datasync();
        log.syncs++;
        log.durable = log.written;
      },
      close: () => handle.close(),
    };
  };
  return { log, openAppend };
}

const numberFor = (i: number): string => `41655${String(i).padStart(5, "0")}`;

describe("group commit", () => {
  it("covers 50 intents started in one tick with one write and one fsync, resolving each only after it", async () => {
    const path = await statePath();
    const { log, openAppend } = instrumented();
    const journal = await openJournal(path, IDENTITY, { openAppend });
    const [writesBefore, syncsBefore] = [log.writes, log.syncs];

    const durableAtResolve = new Map<string, string>();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        journal.intent(`R${i}`, "dids", [numberFor(i)]).then(() => durableAtResolve.set(`R${i}`, log.durable)),
      ),
    );

    expect(log.writes - writesBefore).toBe(1);
    expect(log.syncs - syncsBefore).toBe(1);
    for (const [requestId, durable] of durableAtResolve) expect(durable).toContain(`"requestId":"${requestId}"`);
    await journal.close();
    expect(numbersIn(await readJournal(path, IDENTITY), "pending").size).toBe(50);
  });

  it("puts records that arrive during a flush into the next batch, resolved only by the next fsync", async () => {
    const path = await statePath();
    const { log, openAppend } = instrumented();
    const journal = await openJournal(path, IDENTITY, { openAppend });
    log.syncDelayMs = 30;
    const syncsBefore = log.syncs;

    const late: Promise<void>[] = [];
    log.onWrite = () => {
      log.onWrite = () => undefined;
      // The first batch is being written: these ten must not ride on its fsync.
      for (let i = 1; i <= 10; i++) {
        late.push(journal.intent(`late${i}`, "dids", [numberFor(i)]).then(() => expect(log.syncs - syncsBefore).toBe(2)));
      }
    };
    await journal.intent("first", "dids", [numberFor(0)]).then(() => expect(log.syncs - syncsBefore).toBe(1));
    await Promise.all(late);

    expect(log.syncs - syncsBefore).toBe(2);
    await journal.close();
  });
});

describe("a full disk", () => {
  it("rejects the records it could not write with an OutputError naming the path and the cause, and refuses later ones", async () => {
    const path = await statePath();
    const { log, openAppend } = instrumented();
    const journal = await openJournal(path, IDENTITY, { openAppend });
    await journal.intent("R1", "dids", ["4165550101"]);
    await journal.outcome("R1", { status: "submitted", ticket: "T-1" });

    log.failAfterBytes = 25;
    const [failed, alsoFailed] = await Promise.allSettled([
      journal.intent("R2", "dids", ["4165550102"]),
      journal.intent("R3", "dids", ["4165550103"]),
    ]);
    expect(failed).toMatchObject({ status: "rejected", reason: expect.any(OutputError) as unknown });
    expect(alsoFailed).toMatchObject({ status: "rejected" });
    const error = (failed as PromiseRejectedResult).reason as OutputError;
    expect(error.message).toBe(
      `cannot write state file ${path} (ENOSPC: no space left on device, write); nothing more is sent: ` +
        "free the space or fix the permissions, then run again with the same --state",
    );
    expect(error.exitCode).toBe(2);

    log.failAfterBytes = null;
    await expect(journal.intent("R4", "dids", ["4165550104"])).rejects.toThrow(
      `state file ${path} accepts no more records after an earlier write failed: cannot write state file ${path} (ENOSPC`,
    );
    await journal.close();
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });

    // The torn batch is on disk, half written; the next run reads past it and keeps what was confirmed.
    expect(await readFile(path, "utf8")).not.toMatch(/\n$/);
    const next = await openJournal(path, IDENTITY);
    expect(numbersIn(next.prior, "submitted").get("4165550101")).toEqual({ ticket: "T-1", requestId: "R1" });
    expect(numbersIn(next.prior, "pending").size).toBe(0);
    await next.close();
    await journalLines(path);
  });

  it("refuses to open a journal whose header cannot be written, leaving no lock behind", async () => {
    const path = await statePath();
    const { log, openAppend } = instrumented();
    log.failAfterBytes = 0;

    await expect(openJournal(path, IDENTITY, { openAppend })).rejects.toBeInstanceOf(OutputError);
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reports a real ENOSPC from /dev/full as an OutputError naming the path", async () => {
    const path = await statePath();
    // Linux's /dev/full answers every write with ENOSPC; elsewhere a plain error stands in for it.
    const devFull = await stat("/dev/full").then(
      () => true,
      () => false,
    );
    const openAppend = async (): Promise<AppendTarget> => {
      if (!devFull) return { write: () => Promise.reject(new Error("ENOSPC: no space left on device, write")), sync: async () => {}, close: async () => {} };
      const handle = await open("/dev/full", "a");
      return { write: (data) => handle.writeFile(data), sync: () => handle.datasync().catch(() => undefined), close: () => handle.close() };
    };

    await expect(openJournal(path, IDENTITY, { openAppend })).rejects.toThrow(`cannot write state file ${path} (ENOSPC: no space left on device`);
  });
});
