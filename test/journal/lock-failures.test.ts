import { describe, expect, it } from "vitest";
import { StateError } from "../../src/errors.js";
import { cannotLock } from "../../src/journal/lock.js";
import type { LockSystem } from "../../src/journal/lock.js";

const STATE = "/srv/migration/wave.state.jsonl";
const LINUX_6: LockSystem = { platform: "linux", release: "6.8.0-45-generic" };
const CENTOS_7: LockSystem = { platform: "linux", release: "3.10.0-1160.el7.x86_64" };
const MACOS: LockSystem = { platform: "darwin", release: "23.6.0" };

/** An error as the lock's native part throws it: an errno code and the system's words. */
function failure(code: string, words: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${words}`), { code });
}

/** The message a run prints, checked to be one line naming the journal, and a refusal with exit 2. */
function said(code: string, words: string, system: LockSystem): string {
  const error = cannotLock(STATE, failure(code, words), system);
  expect(error).toBeInstanceOf(StateError);
  expect(error.exitCode).toBe(2);
  expect(error.message).not.toContain("\n");
  expect(error.message.startsWith(`cannot lock state file ${STATE}`)).toBe(true);
  return error.message;
}

const LOCAL_DISK = "put --state on one that does, such as a local disk, and run again";

describe("a lock the system cannot take is refused with the advice that fits its cause", () => {
  it.each([
    ["ENOLCK", "no locks available", LINUX_6],
    ["EOPNOTSUPP", "operation not supported", LINUX_6],
    ["ENOTSUP", "operation not supported", MACOS],
  ] as const)("%s (%s) on %j: the file system does not lock files, so --state goes on one that does", (code, words, system) => {
    expect(said(code, words, system)).toBe(`cannot lock state file ${STATE}: its file system does not lock files (${code}: ${words}); ${LOCAL_DISK}`);
  });

  it("EINVAL on a Linux kernel older than 3.15 names the kernel and the version that has the lock, and never sends the journal to another disk", () => {
    const message = said("EINVAL", "invalid argument", CENTOS_7);
    expect(message).toBe(
      `cannot lock state file ${STATE}: this Linux kernel (3.10.0-1160.el7.x86_64) has no open file description locks (fcntl F_OFD_SETLK, Linux 3.15 and later), ` +
        "the lock portin takes on its journal (EINVAL: invalid argument); run portin on a machine with Linux 3.15 or later: moving --state will not help",
    );
    expect(message).not.toContain("local disk");
    expect(said("EINVAL", "invalid argument", { platform: "linux", release: "2.6.32-754.el6.x86_64" })).toContain("this Linux kernel (2.6.32-754.el6.x86_64) has no open file description locks");
  });

  it.each([
    ["a Linux kernel that has the lock", LINUX_6],
    ["Linux 3.15 itself", { platform: "linux", release: "3.15.0" }],
    ["macOS", MACOS],
    ["a kernel release it cannot read", { platform: "linux", release: "custom" }],
  ] as const)("EINVAL on %s: the lock was refused as invalid, not a kernel without it nor a file system without locks", (_, system) => {
    const message = said("EINVAL", "invalid argument", system);
    expect(message).toBe(
      `cannot lock state file ${STATE}: the system refused the lock as invalid (EINVAL: invalid argument); ` +
        "if --state is on a network or FUSE file system, put it on a local disk and run again; otherwise run again with --debug and report what it prints",
    );
  });

  it("ENOSYS: the system does not implement the lock, which no disk changes", () => {
    const message = said("ENOSYS", "function not implemented", LINUX_6);
    expect(message).toBe(
      `cannot lock state file ${STATE}: this system does not implement the file lock portin takes on its journal (ENOSYS: function not implemented); run portin on Linux 3.15 or later, macOS or Windows`,
    );
  });

  it("any other failure says what the system said and to run again", () => {
    expect(said("EIO", "i/o error", LINUX_6)).toBe(`cannot lock state file ${STATE} (EIO: i/o error); run again, with --debug if it persists`);
  });
});
