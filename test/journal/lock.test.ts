import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { link, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { openJournal } from "../../src/journal/journal.js";
import { lockHolder } from "../../src/journal/lock.js";
import { PACKAGE_ROOT } from "../../src/version.js";
import { IDENTITY, journalLines, statePath } from "./helpers.js";

/** The lock as the build left it (`npm run build`), for a process of its own. */
const LOCK_MODULE = join(PACKAGE_ROOT, "dist", "src", "journal", "lock.js");
const NOTHING_TO_DELETE = "wait for it to finish, then run again (a run that has ended holds no lock, so there is nothing to delete)";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/**
 * Another process that takes portin's lock on the journal at `path` and then names `owner` as
 * its holder, as a run on another host would; resolves once it holds the lock.
 */
async function holderProcess(path: string, owner: object): Promise<ChildProcess> {
  const script = `
    const { writeFileSync } = await import("node:fs");
    const { acquireLock } = await import(${JSON.stringify(LOCK_MODULE)});
    await acquireLock(${JSON.stringify(path)});
    writeFileSync(${JSON.stringify(`${path}.lock`)}, ${JSON.stringify(JSON.stringify(owner))});
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
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
  it("names its holder in <state>.lock (mode 0600: pid, host, start time) while the journal is open, and removes it on close", async () => {
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
    expect((refusal as Error).message).toBe(`another portin run (pid ${process.pid}, started ${startedAt}) holds ${path}; ${NOTHING_TO_DELETE}`);
    // The refused open must not have taken the first run's lock away.
    expect(await lockOwner(path)).toMatchObject({ pid: process.pid, startedAt });
    await journal.close();
  });

  it("refuses a lock another live process holds, naming its host when it is another", async () => {
    const path = await statePath();
    const owner = { pid: 4242, hostname: "cron-box-2", startedAt: "2025-06-01T02:00:00.000Z" };
    await holderProcess(path, owner);

    await expect(openJournal(path, IDENTITY)).rejects.toThrow(
      `another portin run (pid 4242 on host cron-box-2, started 2025-06-01T02:00:00.000Z) holds ${path}; ${NOTHING_TO_DELETE}`,
    );
  });

  it("takes over at once the lock of a run killed with SIGKILL while it held it", async () => {
    const path = await statePath();
    const holder = await holderProcess(path, { pid: 1, hostname: hostname(), startedAt: "2025-06-01T02:00:00.000Z" });
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

describe("the lock follows the journal file, not its name (docs/contract.md §5)", () => {
  /** Another name for the journal at `path`, made the way `how` says; the journal exists unless `how` makes it dangle. */
  async function otherName(path: string, how: "symlink" | "hard link" | "a path through .." | "a relative path"): Promise<string> {
    const dir = dirname(path);
    switch (how) {
      case "symlink":
        await symlink(path, join(dir, "link.jsonl"));
        return join(dir, "link.jsonl");
      case "hard link":
        await link(path, join(dir, "hard.jsonl"));
        return join(dir, "hard.jsonl");
      case "a path through ..":
        await mkdir(join(dir, "sub"));
        // Spelled out: path.join would fold the "..".
        return `${dir}/sub/../${basename(path)}`;
      case "a relative path":
        return relative(process.cwd(), path);
    }
  }

  it.each(["symlink", "hard link", "a path through ..", "a relative path"] as const)("refuses the journal reached by %s while a run holds it, then opens it once that run has closed", async (how) => {
    const path = await statePath();
    await (await openJournal(path, IDENTITY)).close();
    const other = await otherName(path, how);
    const journal = await openJournal(path, IDENTITY);
    await journal.intent("R1", "dids", ["4165550101"]);

    const refusal = await openJournal(other, IDENTITY).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    // Its holder's name is beside the journal's real path; a hard link elsewhere has none to read.
    const holder = how === "hard link" ? "" : ` (pid ${process.pid}, started ${(await lockOwner(path)).startedAt})`;
    const elsewhere = how === "hard link" ? " (it may have reached it by another of its 2 names, hard links, and named itself there)" : "";
    expect((refusal as Error).message).toBe(`another portin run${holder} holds ${other}${elsewhere}; ${NOTHING_TO_DELETE}`);
    // Nor did the refused open touch the journal or the holder's name.
    expect((await lockOwner(path)).pid).toBe(process.pid);
    await journal.close();

    const again = await openJournal(other, IDENTITY);
    expect(again.prior.states.get("4165550101")?.kind).toBe("pending");
    await again.close();
    expect((await journalLines(path)).filter((line) => line.type === "header")).toHaveLength(1);
  });

  it("gives a journal that does not exist yet, opened first through a dangling symlink, one lock and one header", async () => {
    const path = await statePath();
    const link = join(dirname(path), "link.jsonl");
    await symlink(path, link);

    const first = await openJournal(link, IDENTITY);
    await expect(openJournal(path, IDENTITY)).rejects.toThrow(`another portin run (pid ${process.pid}, started ${(await lockOwner(path)).startedAt}) holds ${path}; `);
    await first.close();
    const second = await openJournal(path, IDENTITY);
    await second.close();

    expect((await journalLines(path)).map((line) => line.type)).toEqual(["header", "run", "run"]);
    expect((await stat(link)).ino).toBe((await stat(path)).ino);
  });

  it("says so when the state path cannot be opened, naming it", async () => {
    const path = await statePath();
    const inMissingFolder = join(dirname(path), "no-such-folder", "numbers.state.jsonl");
    await expect(openJournal(inMissingFolder, IDENTITY)).rejects.toThrow(
      `cannot open state file ${inMissingFolder} (no such file); check its permissions and its folder's, and run again`,
    );
  });
});

describe("lockHolder (plan beside a running submit, docs/contract.md §5)", () => {
  it("names the run holding the lock, finds nobody once it is gone, and never keeps the lock itself", async () => {
    const path = await statePath();
    expect(lockHolder(path)).toBeNull();
    const owner = { pid: 4242, hostname: hostname(), startedAt: "2026-03-02T00:00:00.000Z" };
    const child = await holderProcess(path, owner);
    expect(lockHolder(path)).toEqual({ owner });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    // The name the dead run left names a pid, but nobody holds the lock on the journal.
    expect(lockHolder(path)).toBeNull();
    // Looking left the lock free: a run takes it at once.
    const journal = await openJournal(path, IDENTITY);
    expect(lockHolder(path)?.owner?.pid).toBe(process.pid);
    await journal.close();
  });
});
