/**
 * What a command says on stderr while it runs, each a whole line with its `portin:` prefix
 * and newline: notices a user could not guess, and the lines a command ends with
 * (docs/contract.md §2). Each entry's comment says what it means, then, after "Next:", what
 * the user does about it. Values from a sheet or the service reach these already escaped for
 * the terminal (terminal-text.ts) where the call site says so.
 */

/** The first SIGINT/SIGTERM: the run stops sending and still writes its results (docs/contract.md §4). Next: wait, or send it again to quit at once. */
export const signalFirst = (signal: string): string =>
  `portin: ${signal}: finishing requests in flight, then writing results (send it again to quit at once)\n`;

/** A second signal: the run exits now; the journal keeps what was in flight for the next run to ask about. Next: run again. */
export const signalAgain = (signal: string): string => `portin: ${signal} again: exiting now\n`;

/** A PortinError's one line, as the command's last words. Next: what the message itself says. */
export const failed = (message: string): string => `portin: ${message}\n`;

/** Follows a refused command line. Next: read --help. */
export const usageHint = (): string => "Run 'portin --help' for usage.\n";

/** A fault in portin itself, not the user's: the stack is kept for --debug. Next: run with --debug and report it. */
export const internalError = (message: string, debug: boolean): string =>
  `portin: internal error: ${message}${debug ? "" : " (run with --debug for details)"}\n`;

/** No service was named, so the run talks to the built-in sandbox and ports nothing. Next: set --base-url for the real service. */
export const usingSandbox = (url: string): string => `portin: no --base-url given: using the built-in sandbox at ${url}; nothing real is ported\n`;

/** The built-in sandbox keeps its orders beside the sheet between runs (docs/contract.md §2). Next: delete that file to start afresh. */
export const sandboxKeepsOrders = (path: string): string => `portin: the built-in sandbox keeps its orders in ${path}; delete it to start the sandbox afresh\n`;

/** A run without a journal: a re-run would send every number again. Next: give --state to keep one. */
export const noJournal = (): string => "portin: no --state: nothing records what is sent, so running this again would send these numbers again\n";

/** The --defaults file found beside the sheet is used though none was named. Next: nothing, or name another with --defaults. */
export const usingDefaults = (path: string): string => `portin: using defaults from ${path}\n`;

/** A sandbox run beside a real migration's journal: most likely a forgotten PORTIN_BASE_URL. Next: set it, or go on knowing nothing is ported. */
export const sandboxBesideRealJournal = (baseUrl: string, journal: string, writes: string): string =>
  `portin: this sheet has a journal for ${baseUrl} (${journal}): did you mean to set PORTIN_BASE_URL? ` +
  `This sandbox run leaves it and the real results untouched and writes ${writes}\n`;

/** The header was found below a title; the lines above it are not rows (docs/contract.md §3). Next: nothing, if that is the header. */
export const headerBelowTitle = (source: string, headerLine: number): string =>
  `portin: ${source}: the header is on line ${headerLine}; ${headerLine === 2 ? "line 1" : `lines 1-${headerLine - 1}`} above it, a title, are not read as rows\n`;

/** Columns portin does not know are copied to the results but never sent. Next: map the ones meant to be sent (the next notice). */
export const columnsNeverSent = (listed: string): string => `portin: copied to the results, never sent: ${listed}\n`;

/** Some unknown columns look like portin columns. Next: map them in the --defaults file as shown. */
export const mapLikelyColumns = (count: number, mapping: string): string =>
  `portin: to send ${count === 1 ? "it" : "them"}, map ${count === 1 ? "it" : "them"} in the --defaults file: "columns": ${mapping}\n`;

/** A totals row at the sheet's end is left out, neither sent nor invalid (docs/contract.md §3). Next: nothing. */
export const totalsRowLeftOut = (row: string): string => `portin: ${row} is a totals row, not a number row: left out\n`;

/** The service refused the credentials mid-run, so nothing more was sent. Next: fix the credentials (the summary says how). */
export const stoppedSending = (message: string): string => `portin: stopped sending: ${message}\n`;

/**
 * The results could not be written after sending began: what was sent, under which tickets,
 * and where that is recorded (docs/contract.md §4). Next: what `kept` says of the journal.
 */
export const resultsMissing = (message: string, sent: string, kept: string): string =>
  `portin: ${message}\nportin: the results are missing, not the sending: ${sent}; ${kept}\n`;

/** Part of `resultsMissing`: this run submitted nothing. Next: nothing to undo; fix what stopped the results and run again. */
export const noRowSubmitted = (): string => "no row was submitted by this run";

/** Part of `resultsMissing`: how many rows this run submitted, and under which tickets. Next: keep the tickets; the journal has them too. */
export const rowsSubmittedUnder = (rows: string, tickets: string): string => `${rows} submitted by this run, under ${tickets}`;

/** Part of `resultsMissing`: no journal, so the summary is all there is. Next: keep the summary. */
export const onlyRecordIsSummary = (): string => "no journal was kept (no --state): this summary is the only record of them";

/** Part of `resultsMissing`: the journal failed too, but holds every intent. Next: run again with the same --state; it asks before sending. */
export const journalHoldsIntents = (state: string): string =>
  `the journal ${state} holds every request sent, though perhaps not the last answers: a run with the same --state asks the service about those before sending anything`;

/** Part of `resultsMissing`: the journal holds every ticket. Next: run again with the same --state, or portin status. */
export const journalHoldsTickets = (state: string): string =>
  `the journal ${state} holds them with their tickets: a run with the same --state sends none of them again, and portin status reports them`;

/** `template` wrote its sheet. Next: replace the example row with the numbers, then portin plan. */
export const templateWritten = (kind: string, onto: string, operation: string, where: string, columns: number, required: number): string =>
  `portin: wrote the template for ${kind} numbers onto ${onto}, ${operation}, to ${where}: ` +
  `${columns} columns, the first ${required} required; replace the example row with one row per number, then run portin plan\n`;

/** The account lacks something the example row needs, so plan would refuse it as written. Next: what `missing` names. */
export const templateExampleInvalid = (missing: string): string => `portin: the example row will not pass plan as it stands: ${missing}\n`;

/** `report` wrote its page. Next: open it. */
export const reportWritten = (rows: number, ported: number, output: string, kb: number): string =>
  `portin report: ${rows} rows, ${ported} numbers ported; wrote ${output} (${kb} KB)\n`;

/** `report --calendar` wrote its events. Next: import the file into a calendar. */
export const calendarWritten = (events: number, path: string): string => `portin report: ${events} port-date events in ${path}\n`;

/** `loa`: an invalid row is in no letter. Next: fix the row (the reason says how) and run loa again. */
export const rowInNoLetter = (line: number, number: string, reason: string): string => `portin loa: line ${line}${number} is in no letter: ${reason}`;

/** `loa`: one letter written. Next: have it signed. */
export const letterOf = (customer: string, numbers: number, french: boolean): string => `${customer}, ${numbers} number${numbers === 1 ? "" : "s"}${french ? ", in French" : ""}`;

/** The sheet has a lock file of Excel or LibreOffice beside it: it is open there. Next: save it there first if it has changes. */
export const sheetLooksOpen = (sheet: string, program: string, lockFile: string): string =>
  `portin: ${sheet} looks open in ${program} (${lockFile} is beside it): portin reads the copy last saved; save it there first if it has changes\n`;

/** `loa`'s last line. Next: sign each letter, then name it in the rows' portform.FileLetterOfAuthorization. */
export const lettersWritten = (letters: number, output: string, invalid: number): string =>
  `portin loa: ${letters} letter${letters === 1 ? "" : "s"} of authorization in ${output}${invalid === 0 ? "" : `; ${invalid} invalid row${invalid === 1 ? "" : "s"} in none (listed above)`}; sign each, then name it in the rows' portform.FileLetterOfAuthorization\n`;

/** `portin sandbox` is serving, and where its extra routes are. Next: point a run's --base-url at the URL; Ctrl-C stops it. */
export const sandboxServing = (url: string, user: string, seed: string): string =>
  `sandbox: serving a simulated Port-In Request Service for user "${user}" (fault seed ${seed}); accepted requests at ${url}/_sandbox/requests ` +
  `(100 a page; ?after=SEQ&limit=N, Link: rel="next"); its calendar at ${url}/_sandbox/clock; ` +
  `POST {"numbers": [...]} to ${url}/_sandbox/orders places an order as the web portal would; Ctrl-C stops
`;

/** The account's order list could not be read; the run goes on, guarded by the service's pending-port-in answer (docs/contract.md §5). Next: nothing; run with the list again later to see orders placed elsewhere. */
export const orderListUnavailable = (why: string): string =>
  `portin: could not read the account's order list (${why}); going on without it: a number the service refuses as already pending is asked about, never sent twice\n`;

/** Entries of the order list whose numbers portin cannot read; a sheet's number matching one is held, not sent. Next: ask the service what those entries hold. */
export const orderListUnread = (count: number, named: string): string =>
  `portin: the account's order list writes ${count === 1 ? "1 entry" : `${count} entries`} in no way portin reads (${named}); ` +
  `a number of the sheet whose digits stand in one is taken as held by that order and not sent\n`;

/** A `plan` beside another run that recorded nothing in flight: its rows show as planned. Next: plan again once that run ends. */
export const otherRunHoldsJournal = (who: string, state: string): string =>
  `portin: another portin run${who === "" ? "" : ` (${who})`} holds ${state}; it has no request in flight recorded there, so rows it may be about to send show as planned\n`;

/** A `plan` beside a running `submit`: its numbers in flight show as such (docs/contract.md §5). Next: plan again once it ends. */
export const submitHoldsJournal = (who: string, state: string): string =>
  `portin: a submit run (${who}) holds ${state}: the numbers it has in flight are shown as in flight, not planned; rows it has not sent yet still show as planned\n`;

/** The phases of a run as the progress display names them. Next: nothing; wait. */
export const PROGRESS_PHASES = { lookups: "looking up the account", reading: "reading", checking: "checking", sending: "sending", writing: "writing results" } as const;

/** The progress line a run prints every 10 s when stderr is not a terminal. Next: nothing; wait (--quiet drops it). */
export const progressLine = (phase: string, detail: string): string => `portin: ${phase}: ${detail}\n`;

/** What the lookups phase fetches, as the progress display says it. Next: nothing; wait. */
export const PROGRESS_LOOKUPS = "trunks, offerings and providers";

/** Rows read and checked so far, with a rate once there is one. Next: nothing; wait. */
export const progressRows = (rows: string, rate: string): string => `${rows} rows read and checked${rate}`;

/** Requests sent, in flight and retried so far, with a rate and ETA once there is one. Next: nothing; wait. */
export const progressSending = (sent: string, requests: string, inFlight: string, retried: string, rate: string): string =>
  `${sent}/${requests} requests sent, ${inFlight} in flight, ` + `${retried} retried${rate}`;

/** Rows written so far. Next: nothing; wait. */
export const progressWriting = (rows: string): string => `${rows} rows`;

/** What a bounded report page names as holding every row when the sheet came on standard input. Next: run portin status to write it. */
export const STATUS_REPORT_BY_NAME = "the status report portin status writes";
