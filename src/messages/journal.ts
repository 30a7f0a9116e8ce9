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

/** A file journal, as the refusals both journals share name it. Next: (part of those messages). */
export const stateFile = (path: string): string => `state file ${path}`;

/** A database journal (--journal, docs/shared-journal.md), its URL's password masked, as the refusals name it. Next: (part of those messages). */
export const databaseJournal = (label: string): string => `journal ${label}`;

/** Writing the journal failed; the run stops sending (docs/contract.md §4). Next: free the space or fix the permissions, then run again with the same --state. */
export const cannotWriteStateFile = (path: string, reason: string): string =>
  `cannot write state file ${path} (${reason}); nothing more is sent: free the space or fix the permissions, ` + "then run again with the same --state";

/** A record came after an earlier write of the journal (stateFile or databaseJournal) failed. Next: what the earlier failure says. */
export const failedEarlier = (journal: string, failure: string): string => `${journal} accepts no more records after an earlier write failed: ${failure}`;

/** Writing the journal failed in a way of no file system's. Next: what the reason says. */
export const cannotWriteJournal = (reason: string): string => `cannot write the run journal: ${reason}`;

/**
 * A newer portin wrote the journal (stateFile or databaseJournal); a file's refusal also says
 * what a new --state path would cost, as no --journal can lead to one. Next: upgrade portin and run again.
 */
export const newerJournalFormat = (journal: string, tool: string, format: number, version: string, costOfNewPath: boolean): string =>
  `${journal} was written by ${tool} in journal format ${format}, which portin ${version} cannot read; ` +
  `upgrade portin and run again${costOfNewPath ? ` (${FRESH_JOURNAL_SENDS_AGAIN})` : ""}`;

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

/**
 * Another run holds the journal and has not named itself: what the database knows of its
 * session (`session`, "" for a file), and for a file why it may name nobody. Next: WAIT_FOR_HOLDER.
 */
export const heldByUnnamedRun = (session: string, journal: string, otherNames: string, next: string): string =>
  `another portin run${session} holds ${journal}${otherNames}; ${next}`;

/** The database session of a run holding a database journal, as heldByUnnamedRun names it. Next: (part of that message). */
export const holderSession = (application: string, clientAddress: string | null): string => ` (${application}${clientAddress ? ` from ${clientAddress}` : ""})`;

/** Another run holds the journal (a file, or databaseJournal): its pid, host and start. Next: WAIT_FOR_HOLDER. */
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

/** --state names a FIFO, a device or a folder: no journal (docs/contract.md §5). Next: point --state at this sheet's journal. */
export const notARegularJournal = (path: string, kind: string): string =>
  `state file ${path} is ${kind}, not a regular file: point --state at this sheet's journal (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** A journal a newer portin wrote (a newer format, or a record of a kind this one does not know), refused by every command. Next: upgrade portin. */
export const newerJournal = (path: string, what: string): string => `state file ${path} ${what}; upgrade portin and run again (${FRESH_JOURNAL_SENDS_AGAIN})`;

/** What makes a journal a newer portin's: a record of a kind this portin does not know. Next: (part of newerJournal). */
export const recordOfUnknownKind = (line: number, kind: string, version: string): string => `line ${line} holds a record of kind ${kind}, which portin ${version} does not know`;

/** What makes a journal a newer portin's: its header's format. Next: (part of newerJournal). */
export const writtenInNewerFormat = (tool: string, format: number, version: string): string => `was written by ${tool} in journal format ${format}, which portin ${version} cannot read`;

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

/** The database journal cannot be reached: a wrong URL, a server down, refused credentials. Next: check those, and run again. */
export const cannotReachDatabase = (label: string, reason: string): string =>
  `cannot reach journal ${label} (${reason}); check the URL, the server and the credentials, and run again`;

/** Writing to the database journal failed; the run stops sending (docs/contract.md §4). Next: check the database, then run again with the same --journal. */
export const cannotWriteDatabase = (label: string, reason: string): string =>
  `cannot write journal ${label} (${reason}); nothing more is sent: check the database, then run again with the same journal`;

/** A newer portin set up the database's tables. Next: upgrade portin and run again. */
export const newerDatabaseSchema = (label: string, found: number, version: string, known: number): string =>
  `journal ${label} was set up by a newer portin (schema version ${found}; portin ${version} knows up to ${known}): upgrade portin and run again`;

/**
 * A row of a database journal (`unit` "row" as a run reads it, "record" as journal copy counts)
 * is not a record: edited by hand. Next: restore the journal from a backup.
 */
export const editedDatabaseJournal = (label: string, unit: "row" | "record", at: string | number): string =>
  `journal ${label} ${unit} ${at} is not a journal record; it may have been edited: restore it from a backup`;

/** A database journal's first row is not its header. Next: restore the journal from a backup. */
export const rowBeforeHeader = (label: string, row: string): string => `journal ${label} row ${row} comes before the journal's header: restore it from a backup`;

/** A database journal holds a second header. Next: restore the journal from a backup. */
export const secondHeaderRow = (label: string, row: string): string => `journal ${label} row ${row} is a second header: restore it from a backup`;

/**
 * Another run claimed a number after this run read the database journal (docs/shared-journal.md):
 * it is not sent, and this run stops sending. Next: run again, to read the journal afresh.
 */
export const claimedElsewhere = (number: string, label: string, by: string): string =>
  `number ${number} was claimed in journal ${label}${by}, which this run did not know of when it read the journal: it is not sent, and this run stops sending; run again to read the journal afresh`;

/** Which request claimed a number, and when, as claimedElsewhere names it. Next: (part of that message). */
export const claimedBy = (requestId: string, at: string): string => ` by request ${requestId} at ${at}`;

/**
 * A database holds the journals of several services or users, so a command naming none (report,
 * journal copy) cannot tell which. Next: keep one migration a database or a schema, and run again.
 */
export const severalJournalsInDatabase = (label: string, count: number, named: string): string =>
  `journal ${label} holds the journals of ${count} services or users (${named}); keep one migration a database (or a schema, with ?options=-c%20search_path%3D<name> in the URL) and run again`;

/** One journal a database holds, by its user and service, as severalJournalsInDatabase lists them. Next: (part of that message). */
export const journalOf = (user: string, baseUrl: string): string => `${user} at ${baseUrl}`;

/** journal copy's source holds no journal. Next: name the journal to copy. */
export const nothingToCopy = (journal: string): string => `journal ${journal} holds no journal to copy`;

/** journal copy's file destination is not empty: it never writes over a journal. Next: copy to a new path. */
export const copyTargetFileNotEmpty = (label: string, bytes: string): string =>
  `${label} already holds ${bytes} bytes: journal copy never writes over a journal; copy to a new path`;

/** journal copy's database destination holds that journal already: it never writes over one. Next: copy into an empty database. */
export const copyTargetDatabaseNotEmpty = (label: string, user: string, baseUrl: string): string =>
  `journal ${label} already holds records for ${user} at ${baseUrl}: journal copy never writes over a journal; copy into an empty database`;

/** journal copy could not write its file destination. Next: check the folder's permissions and run again. */
export const cannotWriteCopy = (path: string, reason: string): string => `cannot write journal ${path} (${reason}); check its folder's permissions and run again`;

/** What journal copy did: how many records, whose, from where to where. Next: nothing; the copy is done. */
export const copied = (records: string, user: string, baseUrl: string, from: string, to: string): string =>
  `portin journal copy: ${records} records of ${user} at ${baseUrl} from ${from} to ${to}`;
