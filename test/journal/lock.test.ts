import { spawn } from "node:child_process";
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { openJournal } from "../../src/journal/journal.js";
import { IDENTITY, statePath } from "./helpers.js";

/** Starts a node process that lives until killed; resolves once it runs. */
async function liveProcess(): Promise<{ pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return { pid: child.pid as number, stop: () => child.kill() };
}

/** The pid of a node process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

async function lockOwner(path: string): Promise<{ pid: number; hostname: string; startedAt: string }> {
  return JSON.parse(await readFile(`${path}.lock`, "utf8")) as { pid: number; hostname: string; startedAt: string };
}

describe("the journal lock", () => {
  it("holds <state>.lock with this process's pid, host and start time while the journal is open, and removes it on close", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    expect(await lockOwner(path)).toMatchObject({ pid: process.pid, hostname: hostname(), startedAt: expect.any(String) as unknown });

    await journal.close();
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a second open of a journal that is open, naming the pid that holds it", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    const { startedAt } = await lockOwner(path);

    const refusal = await openJournal(path, IDENTITY).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect(refusal).toMatchObject({ exitCode: 2 });
    expect((refusal as Error).message).toBe(
      `another portin run (pid ${process.pid}, started ${startedAt}) holds ${path}.lock; wait for it or, if it is gone, delete the lock file`,
    );
    // The refused open must not have taken the first run's lock away.
    expect(await lockOwner(path)).toMatchObject({ pid: process.pid, startedAt });
    await journal.close();
  });

  it("refuses a lock held by another live process on this host", async () => {
    const path = await statePath();
    const other = await liveProcess();
    try {
      await writeFile(`${path}.lock`, JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" }));
      await expect(openJournal(path, IDENTITY)).rejects.toThrow(`another portin run (pid ${other.pid}, started 2025-06-01T02:00:00.000Z) holds ${path}.lock`);
    } finally {
      other.stop();
    }
  });

  it("takes over a lock left by a process that has exited", async () => {
    const path = await statePath();
    const pid = await deadPid();
    await writeFile(`${path}.lock`, JSON.stringify({ pid, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" }));

    const journal = await openJournal(path, IDENTITY);
    expect((await lockOwner(path)).pid).toBe(process.pid);
    await journal.close();
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a lock held on another host, whose process it cannot check", async () => {
    const path = await statePath();
    await writeFile(`${path}.lock`, JSON.stringify({ pid: 4242, hostname: "cron-box-2", startedAt: "2025-06-01T02:00:00.000Z" }));

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(`another portin run (pid 4242 on host cron-box-2, started 2025-06-01T02:00:00.000Z)`);
  });

  it("refuses an unreadable lock younger than a minute, which may be one being written", async () => {
    const path = await statePath();
    await writeFile(`${path}.lock`, "");

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(`${path}.lock exists but cannot be read as a portin lock`);
  });

  it("takes over an unreadable lock older than a minute", async () => {
    const path = await statePath();
    await writeFile(`${path}.lock`, "\0\0garbage");
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(`${path}.lock`, twoMinutesAgo, twoMinutesAgo);

    const journal = await openJournal(path, IDENTITY);
    expect((await lockOwner(path)).pid).toBe(process.pid);
    await journal.close();
  });

  it("leaves on close a lock that another run has since taken over", async () => {
    const path = await statePath();
    const journal = await openJournal(path, IDENTITY);
    const theirs = JSON.stringify({ pid: 4242, hostname: "cron-box-2", startedAt: "2025-06-01T02:00:00.000Z" });
    await writeFile(`${path}.lock`, theirs);

    await journal.close();
    expect(await readFile(`${path}.lock`, "utf8")).toBe(theirs);
  });

  it("lets the next run open the journal once the first has closed it", async () => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();
    await (await openJournal(path, IDENTITY)).close();
  });
});
