/**
 * The run journal (--state): why it cannot be opened, read, locked or written (StateError,
 * OutputError, InstallError; exit 2: docs/contract.md §4, §7). Each entry's comment says what
 * it means, then, after "Next:", what the user does about it. Every refusal that could lead a
 * user to a new journal says what that costs (FRESH_JOURNAL_SENDS_AGAIN).
 */

/**
 * Said wherever a message could lead a user to a new journal: without the old one, a re-run
 * cannot know what was submitted, and a duplicate port-in costs a real customer. Next: keep the journal.
 */
export const FRESH_JOURNAL_SENDS_AGAIN = "a new --state path would start a fresh journal and send every number again";

/** Writing the journal failed; the run stops sending (docs/contract.md §4). Next: free the space or fix the permissions, then run again with the same --state. */
export const cannotWriteStateFile = (path: string, reason: string): string =>
  `cannot write state file ${path} (${reason}); nothing more is sent: free the space or fix the permissions, ` + "then run again with the same --state";

/** A record came after an earlier write of the journal failed. Next: what the earlier failure says. */
export const stateFileFailedEarlier = (path: string, failure: string): string =>
  `state file ${path} accepts no more records after an earlier write failed: ${failure}`;

/** Writing the journal failed in a way of no file system's. Next: what the reason says. */
export const cannotWriteJournal = (reason: string): string => `cannot write the run journal: ${reason}`;

/** A newer portin wrote the journal. Next: upgrade portin and run again. */
export const newerJournalFormat = (path: string, tool: string, format: number, version: string): string =>
  `state file ${path} was written by ${tool} in journal format ${format}, which portin ${version} cannot read; ` +
  `upgrade portin and run again (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** The journal belongs to another service or user (docs/contract.md §5). Next: run against the service it was written for, as the hint says. */
export const journalOfAnotherService = (path: string, written: string, writtenUser: string, running: string, runningUser: string, hint: string): string =>
  `state file ${path} was written for ${written} as user '${writtenUser}', but this run is for ${running} as user '${runningUser}': ` +
  `run against the service the journal was written for${hint} (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** How to name the built-in sandbox again. Next: (part of journalOfAnotherService). */
export const SANDBOX_RERUN_HINT = " (leave out --base-url and PORTIN_BASE_URL)";

/** How to name a real service again. Next: (part of journalOfAnotherService). */
export const serviceRerunHint = (baseUrl: string, user: string): string => ` (--base-url ${baseUrl} --user ${user})`;

/** A torn last record could not be cut off after a crash. Next: check the file's permissions. */
export const cannotRepair = (path: string, reason: string): string => `cannot repair state file ${path} after a crash (${reason}); check its permissions`;

/** The journal cannot be opened to append. Next: check its permissions and run again. */
export const cannotOpenForWriting = (path: string, reason: string): string =>
  `cannot open state file ${path} for writing (${reason}); check its permissions and run again`;

/** The journal cannot be opened to lock. Next: check its and its folder's permissions, and run again. */
export const cannotOpenToLock = (path: string, reason: string): string =>
  `cannot open state file ${path} (${reason}); check its permissions and its folder's, and run again`;

/** The journal's file system cannot lock files (a network share). Next: put --state on a local disk and run again. */
export const noLocksHere = (path: string, detail: string): string =>
  `cannot lock state file ${path}: its file system does not lock files (${detail}); put --state on one that does, such as a local disk, and run again`;

/** The Linux kernel is older than the one with open file description locks, the lock portin takes. Next: run portin on a newer kernel; moving --state will not help. */
export const kernelWithoutLocks = (path: string, kernel: string, since: string, detail: string): string =>
  `cannot lock state file ${path}: this Linux kernel (${kernel}) has no open file description locks (fcntl F_OFD_SETLK, Linux ${since} and later), the lock portin takes on its journal (${detail}); ` +
  `run portin on a machine with Linux ${since} or later: moving --state will not help`;

/** The system does not implement the file lock portin takes. Next: run portin on a system that does. */
export const systemWithoutLocks = (path: string, since: string, detail: string): string =>
  `cannot lock state file ${path}: this system does not implement the file lock portin takes on its journal (${detail}); run portin on Linux ${since} or later, macOS or Windows`;

/** The kernel has the lock, but the file system or a layer below refused it as invalid. Next: move --state off a network or FUSE file system; otherwise report what --debug prints. */
export const lockRefusedAsInvalid = (path: string, detail: string): string =>
  `cannot lock state file ${path}: the system refused the lock as invalid (${detail}); if --state is on a network or FUSE file system, put it on a local disk and run again; otherwise run again with --debug and report what it prints`;

/** Locking failed for another reason. Next: run again, with --debug if it persists. */
export const cannotLock = (path: string, detail: string): string => `cannot lock state file ${path} (${detail}); run again, with --debug if it persists`;

/** What to do about a journal another run holds. Next: wait for it to finish; there is nothing to delete. */
export const WAIT_FOR_HOLDER = "wait for it to finish, then run again (a run that has ended holds no lock, so there is nothing to delete)";

/** Another run holds the journal and has not named itself. Next: WAIT_FOR_HOLDER. */
export const heldByUnnamedRun = (path: string, otherNames: string, next: string): string => `another portin run holds ${path}${otherNames}; ${next}`;

/** Another run holds the journal: its pid, host and start. Next: WAIT_FOR_HOLDER. */
export const heldByRun = (pid: number, where: string, startedAt: string, path: string, next: string): string =>
  `another portin run (pid ${pid}${where}, started ${startedAt}) holds ${path}; ${next}`;

/** The holder may have named itself under another hard link's name. Next: (part of heldByUnnamedRun). */
export const otherHardLinks = (links: number): string => ` (it may have reached it by another of its ${links} names, hard links, and named itself there)`;

/** The file is not a journal: it has no header. Next: point --state at this sheet's journal. */
export const noJournalHeader = (path: string): string =>
  `state file ${path} does not start with a portin journal header, so it is not a portin state file: point --state at this sheet's journal (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** Two journals joined into one file. Next: move it aside to start afresh, knowing what was submitted would be sent again. */
export const secondHeader = (path: string): string =>
  `state file ${path} holds a second header; two journals may have been joined: move it aside to start afresh, ` +
  "but then numbers submitted earlier would be sent again";

/** The file is not a journal at all. Next: point --state at this sheet's journal. */
export const notAJournal = (path: string): string => `state file ${path} is not a portin journal: point --state at this sheet's journal (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** The journal cannot be read. Next: check its permissions and run again. */
export const cannotReadStateFile = (path: string, reason: string): string => `cannot read state file ${path} (${reason}); check its permissions and run again`;

/** A line of the journal is not a record: edited by hand. Next: move it aside to start afresh, knowing what was submitted would be sent again. */
export const editedJournal = (path: string, line: number): string =>
  `state file ${path} line ${line} is not a journal record; the file may have been edited; ` +
  "move it aside to start afresh, but then numbers submitted earlier would be sent again";

/** The lock's native addon is missing from the install. Next: reinstall portin (npm install) and run again. */
export const lockNotInstalled = (part: string): string => `${part} is not installed beside portin: reinstall portin (npm install) and run again`;

/** No prebuilt lock binary for this platform. Next: run portin on a platform it ships for, or reinstall. */
export const lockNoBinary = (part: string, where: string): string =>
  `${part} has no prebuilt binary for ${where}: it ships binaries for Linux (glibc), macOS and Windows on x64 and arm64; run portin on one of those, or reinstall portin (npm install) if this is one`;

/** The lock's binary is there but does not load here. Next: reinstall portin with this Node and run again. */
export const lockCannotLoad = (part: string, where: string, why: string): string =>
  `${part} cannot load on ${where} (${why}): reinstall portin with this Node (npm install again) and run again`;

/** The journal lock's native addon, as the install refusals name it. Next: (part of them). */
export const lockPart = (addon: string): string => `the journal lock's native part (${addon})`;
