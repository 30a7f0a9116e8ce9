import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { newRequestId, openJournal, readJournal } from "../../src/journal/journal.js";
import { journalService } from "../../src/journal/read.js";
import type { JournalIdentity } from "../../src/journal/journal.js";
import { BASE_URL, IDENTITY, identityAt, journalLines, statePath } from "./helpers.js";
import { numbersIn } from "../support/states.js";

describe("the journal file", () => {
  it("starts with one header naming the tool, base URL and user, and adds one run record per run", async () => {
    const path = await statePath();
    for (let run = 0; run < 3; run++) await (await openJournal(path, IDENTITY)).close();

    const lines = await journalLines(path);
    expect(lines.filter((line) => line.type === "header")).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "header", version: 1, tool: "portin/9.9.9", baseUrl: BASE_URL, user: "migrations" });
    expect(lines.filter((line) => line.type === "run")).toEqual([
      expect.objectContaining({ pid: process.pid }),
      expect.objectContaining({ pid: process.pid }),
      expect.objectContaining({ pid: process.pid }),
    ]);
  });

  it("never writes a password, even when the caller's identity object carries one", async () => {
    const path = await statePath();
    const careless = { ...IDENTITY, password: "s3cret-Pa55" } as JournalIdentity;
    const journal = await openJournal(path, careless);
    await journal.intent("r1", "dids", ["4165550101"]);
    await journal.outcome("r1", { status: "submitted", ticket: "T-1", httpStatus: 200, message: "Accepted" });
    await journal.close();

    const text = await readFile(path, "utf8");
    expect(text).not.toContain("s3cret-Pa55");
    expect(text.toLowerCase()).not.toContain("password");
  });

  it("refuses a journal written for another base URL, naming both URLs and users", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();

    const other = identityAt("https://staging.thinktel.ca/rest.svc");
    const refusal = await openJournal(path, other).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect(refusal).toMatchObject({ exitCode: 2 });
    expect((refusal as Error).message).toBe(
      `state file ${path} was written for https://api.thinktel.ca/rest.svc as user 'migrations', ` +
        "but this run is for https://staging.thinktel.ca/rest.svc as user 'migrations': run against the service the journal was written for " +
        "(--base-url https://api.thinktel.ca/rest.svc --user migrations) (a new --state path would start a fresh journal and send every number again)",
    );
  });

  it("refuses a journal written for another user", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();

    await expect(openJournal(path, { ...IDENTITY, user: "someone-else" })).rejects.toThrow(
      /as user 'migrations', but this run is for https:\/\/api\.thinktel\.ca\/rest\.svc as user 'someone-else'/,
    );
    await expect(readJournal(path, { ...IDENTITY, user: "someone-else" })).rejects.toBeInstanceOf(StateError);
  });

  it.each([
    ["https://api.thinktel.ca/rest.svc", "https://API.thinktel.ca/rest.svc/"],
    ["https://api.thinktel.ca/rest.svc", "https://api.thinktel.ca:443/REST.svc"],
    ["http://127.0.0.1:4711", "http://localhost:4711/"],
    ["http://localhost:80/rest.svc", "http://[::1]/rest.svc"],
  ])("takes %s and %s for the same service", async (written, given) => {
    const path = await statePath();
    await (await openJournal(path, identityAt(written))).close();

    await (await openJournal(path, identityAt(given))).close();
    await expect(readJournal(path, identityAt(given))).resolves.toBeDefined();
  });

  it.each([
    ["http://127.0.0.1:4711", "http://127.0.0.1:4712"],
    ["https://api.thinktel.ca/rest.svc", "http://api.thinktel.ca/rest.svc"],
    ["https://api.thinktel.ca/rest.svc", "https://api.thinktel.ca/v2/rest.svc"],
    ["http://127.0.0.1:4711", "http://127.0.0.2:4711"],
  ])("refuses %s as another service than %s", async (written, given) => {
    const path = await statePath();
    await (await openJournal(path, identityAt(written))).close();

    await expect(openJournal(path, identityAt(given))).rejects.toBeInstanceOf(StateError);
  });

  it("releases the lock when it refuses a journal, so the right identity can open it next", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();
    await expect(openJournal(path, { ...IDENTITY, user: "other" })).rejects.toBeInstanceOf(StateError);

    await (await openJournal(path, IDENTITY)).close();
  });
});

describe("a journal of the built-in sandbox", () => {
  /** As every portin so far has written it: the sandbox named by text, since its port changes every run. */
  const SANDBOX_HEADER = { type: "header", version: 1, tool: "portin/0.1.0", baseUrl: "the built-in sandbox", user: "sandbox", createdAt: "2026-03-02T09:00:00.000Z" };
  const SANDBOX: JournalIdentity = { service: { kind: "sandbox" }, user: "sandbox", version: "9.9.9" };

  async function writtenBefore(): Promise<string> {
    const path = await statePath();
    const records = [
      SANDBOX_HEADER,
      { type: "run", pid: 1, startedAt: "2026-03-02T09:00:00.000Z" },
      { type: "intent", requestId: "A", operation: "dids", numbers: ["4165550101"], at: "2026-03-02T09:00:01.000Z" },
      { type: "outcome", requestId: "A", status: "submitted", ticket: "PI-7", httpStatus: 200, message: "Accepted", at: "2026-03-02T09:00:02.000Z" },
    ];
    await writeFile(path, records.map((record) => `${JSON.stringify(record)}\n`).join(""));
    return path;
  }

  it("is read for a run on the sandbox, whatever port it listens on, with what it recorded", async () => {
    const path = await writtenBefore();
    expect([...numbersIn(await readJournal(path, SANDBOX), "submitted")]).toEqual([["4165550101", { ticket: "PI-7", requestId: "A" }]]);
    const journal = await openJournal(path, SANDBOX);
    await journal.close();
    expect([...numbersIn(journal.prior, "submitted")]).toEqual([["4165550101", { ticket: "PI-7", requestId: "A" }]]);
    expect(await journalService(path)).toEqual({ kind: "sandbox" });
    expect((await journalLines(path))[0]).toEqual(SANDBOX_HEADER);
  });

  it("is written with the same header, so an older portin still reads it", async () => {
    const path = await statePath();
    await (await openJournal(path, SANDBOX)).close();
    expect((await journalLines(path))[0]).toMatchObject({ type: "header", baseUrl: "the built-in sandbox", user: "sandbox" });
    expect(await journalService(path)).toEqual({ kind: "sandbox" });
  });

  it("is refused for a real service, saying how to run on the sandbox again", async () => {
    const path = await writtenBefore();
    const refusal = await openJournal(path, { ...IDENTITY, user: "sandbox" }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect((refusal as Error).message).toBe(
      `state file ${path} was written for the built-in sandbox as user 'sandbox', but this run is for ${BASE_URL} as user 'sandbox': ` +
        "run against the service the journal was written for (leave out --base-url and PORTIN_BASE_URL) (a new --state path would start a fresh journal and send every number again)",
    );
  });

  it("is not the sandbox's when a real service wrote it", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();
    expect(await journalService(path)).toEqual({ kind: "remote", baseUrl: BASE_URL });
    await expect(openJournal(path, { ...SANDBOX, user: "migrations" })).rejects.toThrow(
      `was written for ${BASE_URL} as user 'migrations', but this run is for the built-in sandbox as user 'migrations'`,
    );
  });
});

describe("what a re-run learns from earlier runs", () => {
  it("knows submitted numbers with their ticket, pending and unknown ones, and forgets failed and rejected ones", async () => {
    const path = await statePath();
    const first = await openJournal(path, IDENTITY);
    expect(numbersIn(first.prior, "submitted").size + numbersIn(first.prior, "pending").size + numbersIn(first.prior, "unknown").size).toBe(0);
    await Promise.all([
      first.intent("A", "dids", ["4165550101", "4165550102"]),
      first.intent("B", "dids", ["4165550103"]),
      first.intent("C", "dids", ["4165550104"]),
      first.intent("D", "dids", ["4165550105"]),
      first.intent("E", "dids", ["4165550106"]),
    ]);
    await first.outcome("A", { status: "submitted", ticket: "T-100", httpStatus: 200, message: "Accepted" });
    await first.outcome("C", { status: "unknown", httpStatus: 502, message: "502 Bad Gateway" });
    await first.outcome("D", { status: "failed", httpStatus: 429, message: "throttled after 5 retries" });
    await first.outcome("E", { status: "rejected", httpStatus: 200, message: "Reply 0: wrong account" });
    await first.close();

    const second = await openJournal(path, IDENTITY);
    const { prior } = second;
    await second.close();
    expect([...numbersIn(prior, "submitted")]).toEqual([
      ["4165550101", { ticket: "T-100", requestId: "A" }],
      ["4165550102", { ticket: "T-100", requestId: "A" }],
    ]);
    expect([...numbersIn(prior, "pending")]).toEqual([["4165550103", { requestId: "B" }]]);
    expect([...numbersIn(prior, "unknown")]).toEqual([["4165550104", { requestId: "C", message: "502 Bad Gateway" }]]);
    for (const map of [numbersIn(prior, "submitted"), numbersIn(prior, "pending"), numbersIn(prior, "unknown")]) {
      expect(map.has("4165550105")).toBe(false);
      expect(map.has("4165550106")).toBe(false);
    }
  });

  it("lets a later run's answer win: a number pending in run 1 and submitted in run 2 is submitted", async () => {
    const path = await statePath();
    const run1 = await openJournal(path, IDENTITY);
    await run1.intent("R1", "dids", ["4165550101", "4165550102"]);
    await run1.close();

    const run2 = await openJournal(path, IDENTITY);
    expect(numbersIn(run2.prior, "pending").get("4165550101")).toEqual({ requestId: "R1" });
    await run2.intent("R2", "dids", ["4165550101"]);
    await run2.outcome("R2", { status: "submitted", ticket: "T-2" });
    await run2.intent("R3", "dids", ["4165550102"]);
    await run2.outcome("R3", { status: "failed", message: "connection refused" });
    await run2.close();

    const prior = await readJournal(path, IDENTITY);
    expect(numbersIn(prior, "submitted").get("4165550101")).toEqual({ ticket: "T-2", requestId: "R2" });
    expect(numbersIn(prior, "pending").size).toBe(0);
    expect(numbersIn(prior, "unknown").size).toBe(0);
  });

  it("keeps a submitted number submitted when a later request holding it is rejected", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    await journal.intent("R1", "dids", ["4165550101"]);
    await journal.outcome("R1", { status: "submitted", ticket: "T-1" });
    await journal.intent("R2", "dids", ["4165550101"]);
    await journal.outcome("R2", { status: "rejected", message: "a port-in already exists for 4165550101" });
    await journal.close();

    expect(numbersIn(await readJournal(path, IDENTITY), "submitted").get("4165550101")).toEqual({ ticket: "T-1", requestId: "R1" });
  });

  it("reads an absent journal as an empty history without creating it", async () => {
    const path = await statePath();
    const prior = await readJournal(path, IDENTITY);
    expect(numbersIn(prior, "submitted").size + numbersIn(prior, "pending").size + numbersIn(prior, "unknown").size).toBe(0);
    await expect(stat(path)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reads a journal while a run holds its lock, as a dry run must", async () => {
    const path = await statePath();
    const running = await openJournal(path, IDENTITY);
    await running.intent("R1", "dids", ["4165550101"]);

    expect(numbersIn(await readJournal(path, IDENTITY), "pending").has("4165550101")).toBe(true);
    await running.close();
  });
});

describe("a journal damaged by a crash or an edit", () => {
  async function journalWithOneSubmission(): Promise<string> {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    await journal.intent("R1", "dids", ["4165550101"]);
    await journal.outcome("R1", { status: "submitted", ticket: "T-1" });
    await journal.close();
    return path;
  }

  it("ignores a last line torn mid-write, cuts it away, and appends whole lines after it", async () => {
    const path = await journalWithOneSubmission();
    await appendFile(path, '{"type":"intent","requestId":"R2","operation":"dids","numbers":["41655');

    const journal = await openJournal(path, IDENTITY);
    expect(numbersIn(journal.prior, "submitted").get("4165550101")).toEqual({ ticket: "T-1", requestId: "R1" });
    expect(numbersIn(journal.prior, "pending").size).toBe(0);
    await journal.intent("R3", "dids", ["4165550199"]);
    await journal.close();

    const lines = await journalLines(path);
    expect(lines.map((line) => line.requestId ?? line.type)).toEqual(["header", "run", "R1", "R1", "run", "R3"]);
    expect(numbersIn(await readJournal(path, IDENTITY), "pending").get("4165550199")).toEqual({ requestId: "R3" });
  });

  it("ignores a whole record that lost its newline, since its write was never confirmed", async () => {
    const path = await journalWithOneSubmission();
    await appendFile(path, '{"type":"intent","requestId":"R2","operation":"dids","numbers":["4165550102"],"at":"2025-01-01T00:00:00Z"}');

    const journal = await openJournal(path, IDENTITY);
    expect(numbersIn(journal.prior, "pending").size).toBe(0);
    await journal.close();
    await journalLines(path);
  });

  it("ignores a last line of NUL bytes that a file system can leave after a power cut", async () => {
    const path = await journalWithOneSubmission();
    await appendFile(path, Buffer.alloc(64));

    const journal = await openJournal(path, IDENTITY);
    expect(numbersIn(journal.prior, "submitted").has("4165550101")).toBe(true);
    await journal.close();
    await journalLines(path);
  });

  it("refuses a corrupt line in the middle, naming the file and the line number", async () => {
    const path = await journalWithOneSubmission();
    const lines = (await readFile(path, "utf8")).split("\n");
    lines.splice(2, 0, "this line was typed by hand");
    await writeFile(path, lines.join("\n"));
    const before = await readFile(path, "utf8");

    const refusal = await openJournal(path, IDENTITY).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect((refusal as Error).message).toBe(
      `state file ${path} line 3 is not a journal record; the file may have been edited; ` +
        "move it aside to start afresh, but then numbers submitted earlier would be sent again",
    );
    expect(await readFile(path, "utf8")).toBe(before);
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a file that is not a journal at all and leaves it untouched", async () => {
    const path = await statePath();
    await writeFile(path, "number,pilot_number");

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(
      `state file ${path} is not a portin journal: point --state at this sheet's journal (a new --state path would start a fresh journal and send every number again)`,
    );
    expect(await readFile(path, "utf8")).toBe("number,pilot_number");
  });

  it("refuses a file of valid records that does not start with a header", async () => {
    const path = await statePath();
    await writeFile(path, '{"type":"run","pid":1,"startedAt":"x"}\n');

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(/does not start with a portin journal header/);
  });

  it("starts afresh when the crash tore the very first header", async () => {
    const path = await statePath();
    await writeFile(path, '{"type":"header","vers');

    await (await openJournal(path, IDENTITY)).close();
    expect((await journalLines(path)).map((line) => line.type)).toEqual(["header", "run"]);
  });
});

describe("request ids", () => {
  it("are unique across a thousand calls", () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(1000);
  });
});
