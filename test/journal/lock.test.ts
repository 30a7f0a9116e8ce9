import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { openJournal } from "../../src/journal/journal.js";
import { lockHolder } from "../../src/journal/lock.js";
import { IDENTITY, statePath } from "./helpers.js";

const FS_EXT = createRequire(import.meta.url).resolve("fs-ext");
const NOTHING_TO_DELETE = "wait for it to finish, then run again (a run that has ended holds no lock, so there is nothing to delete)";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/**
 * Another process that takes the flock on `lockPath` and writes `owner` into it, as a portin
 * run does; resolves once it holds the lock.
 */
async function holderProcess(lockPath: string, owner: object): Promise<ChildProcess> {
  const script = `
    const fs = require("node:fs");
    const fd = fs.openSync(${JSON.stringify(lockPath)}, "a+");
    require(${JSON.stringify(FS_EXT)}).flockSync(fd, "exnb");
    fs.writeFileSync(${JSON.stringify(lockPath)}, ${JSON.stringify(JSON.stringify(owner))});
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`lock holder exited with ${String(code)}`)));
  });
  return child;
}

async function lockOwner(path: string): Promise<{ pid: number; hostname: string; startedAt: string }> {
  return JSON.parse(await readFile(`${path}.lock`, "utf8")) as { pid: number; hostname: string; startedAt: string };
}

describe("the journal lock", () => {
  it("holds <state>.lock (mode 0600) with this process's pid, host and start time while the journal is open, and removes it on close", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    expect(await lockOwner(path)).toMatchObject({ pid: process.pid, hostname: hostname(), startedAt: expect.any(String) as unknown });
    expect((await stat(`${path}.lock`)).mode & 0o777).toBe(0o600);

    await journal.close();
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a second open of a journal that is open, naming the pid that holds it and never advising to delete the lock", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    const { startedAt } = await lockOwner(path);

    const refusal = await openJournal(path, IDENTITY).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect(refusal).toMatchObject({ exitCode: 2 });
    expect((refusal as Error).message).toBe(`another portin run (pid ${process.pid}, started ${startedAt}) holds ${path}.lock; ${NOTHING_TO_DELETE}`);
    // The refused open must not have taken the first run's lock away.
    expect(await lockOwner(path)).toMatchObject({ pid: process.pid, startedAt });
    await journal.close();
  });

  it("refuses a lock another live process holds, naming its host when it is another", async () => {
    const path = await statePath();
    const owner = { pid: 4242, hostname: "cron-box-2", startedAt: "2025-06-01T02:00:00.000Z" };
    await holderProcess(`${path}.lock`, owner);

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(
      `another portin run (pid 4242 on host cron-box-2, started 2025-06-01T02:00:00.000Z) holds ${path}.lock; ${NOTHING_TO_DELETE}`,
    );
  });

  it("takes over at once the lock of a run killed with SIGKILL while it held it", async () => {
    const path = await statePath();
    const holder = await holderProcess(`${path}.lock`, { pid: 1, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" });
    await expect(openJournal(path, IDENTITY)).rejects.toBeInstanceOf(StateError);
    await new Promise((resolve) => {
      holder.once("exit", resolve);
      holder.kill("SIGKILL");
    });

    const journal = await openJournal(path, IDENTITY);
    expect((await lockOwner(path)).pid).toBe(process.pid);
    await journal.close();
  });

  it("takes over a lock file naming a live process of this host that holds no lock (a pid reused by another program)", async () => {
    const path = await statePath();
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(other);
    await new Promise((resolve) => other.once("spawn", resolve));
    await writeFile(`${path}.lock`, JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" }));

    const journal = await openJournal(path, IDENTITY);
    expect((await lockOwner(path)).pid).toBe(process.pid);
    await journal.close();
  });

  it("takes over a lock file it cannot read that nobody holds", async () => {
    const path = await statePath();
    await writeFile(`${path}.lock`, "\0\0garbage", { mode: 0o644 });

    const journal = await openJournal(path, IDENTITY);
    expect((await lockOwner(path)).pid).toBe(process.pid);
    expect((await stat(`${path}.lock`)).mode & 0o777).toBe(0o600);
    await journal.close();
  });

  it("lets the next run open the journal once the first has closed it", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();
    await (await openJournal(path, IDENTITY)).close();
  });
});

describe("lockHolder (plan beside a running submit, docs/contract.md §5)", () => {
  it("names the run holding the lock, finds nobody once it is gone, and never keeps the lock itself", async () => {
    const path = await statePath();
    expect(lockHolder(`${path}.lock`)).toBeNull();
    const owner = { pid: 4242, hostname: hostname(), startedAt: "2026-03-02T00:00:00.000Z" };
    const child = await holderProcess(`${path}.lock`, owner);
    expect(lockHolder(`${path}.lock`)).toEqual({ owner });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    // The file the dead run left names a pid, but nobody holds its flock.
    expect(lockHolder(`${path}.lock`)).toBeNull();
    // Looking left the lock free: a run takes it at once.
    const journal = await openJournal(path, IDENTITY);
    expect(lockHolder(`${path}.lock`)?.owner?.pid).toBe(process.pid);
    await journal.close();
  });
});
