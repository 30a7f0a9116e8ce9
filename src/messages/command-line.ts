/**
 * The command line's messages: option values and option pairs refused before anything is read
 * or sent (UsageError, exit 2: docs/contract.md §7). Each entry's comment says what it means,
 * then, after "Next:", what the user does about it; the words are the message itself.
 */

/** An option's value is not a whole number in its range. Next: give one in the range shown. */
export const notAWholeNumber = (option: string, unit: string, range: string, value: string): string =>
  `--${option} takes a whole number${unit} ${range}, not "${value}"`;

/** The range a whole-number option takes, as `notAWholeNumber` names it. Next: (part of that message). */
export const wholeNumberRange = (min: number, max: number | null): string => (max === null ? `>= ${min}` : `from ${min} to ${max}`);

/** An option that takes a positive number (`--rate`) got something else. Next: give a number above 0. */
export const notAPositiveNumber = (option: string, example: string, value: string): string =>
  `--${option} takes a number above 0 (${example}), not "${value}"`;

/** A fault-rate option got a value outside 0..1. Next: give a share, 0.1 for one in ten. */
export const notAShare = (option: string, value: string): string =>
  `--${option} takes a share from 0 to 1 (0.1 is one request in ten), not "${value}"`;

/** A path option was given empty (`--state "$UNSET"`), which must not mean "none". Next: give the path. */
export const emptyPath = (option: string, value: string): string => `--${option} needs a path, not "${value}"`;

/** A results path's extension names no format portin writes (docs/contract.md §2). Next: end it in .csv, .xlsx or .jsonl, or give -. */
export const notAResultsFormat = (option: string, path: string): string =>
  `--${option} ${path}: portin writes .csv (or .txt, .tsv), .xlsx or .jsonl (JSON Lines), or - for standard output; give a path ending in one of them`;

/** `--sheet` was given without a worksheet's name. Next: name the worksheet. */
export const emptySheetName = (value: string): string => `--sheet needs a worksheet's name, not "${value}"`;

/** `--json` and results on stdout would interleave two formats. Next: write the results to a file with --results. */
export const jsonWithResultsOnStdout = (): string => "--json and results on standard output would mix on stdout: give --results PATH";

/** `status --json` and its report on stdout would interleave. Next: write the report to a file with --output. */
export const jsonWithStatusOnStdout = (): string => "--json and the report on standard output would mix on stdout: give --output PATH";

/** `report` reads a sheet from stdin, which has no folder to put the page in. Next: give --output. */
export const reportNeedsOutput = (): string => "a sheet on standard input has no folder to write the report beside: give --output FILE.html";

/** `loa` reads a sheet from stdin, which has no folder to put the letters in. Next: give --output. */
export const lettersNeedOutput = (): string => "a sheet on standard input has no folder to write the letters beside: give --output DIR";

/** Two of a run's files are one file, so the later would replace the earlier. Next: give the named option another path. */
export const samePath = (later: string, path: string, earlier: string): string => `${later} ${path} is also ${earlier}: give ${later} another path`;

/** `template --type` is not an offering Type. Next: give 1 to 7 (portin offerings lists them). */
export const notAnOfferingType = (type: string): string => `--type takes 1 to 7, not ${type}`;

/** `template --toll-free` with an offering Type no operation ports toll-free numbers onto. Next: the reason names which ones do. */
export const tollFreeOntoType = (type: string, reason: string): string => `--toll-free with --type ${type}: ${reason}`;

/** `--base-url ""`: most likely an unset variable, not a wish for the sandbox. Next: give the URL, or leave the option out. */
export const emptyBaseUrl = (): string => "--base-url is empty: give the service's URL, or leave the option out to use the built-in sandbox";

/** Credentials without a service: a forgotten PORTIN_BASE_URL, not a wish for the sandbox. Next: name the service, or drop the credentials. */
export const credentialsWithoutService = (given: string): string =>
  `${given} given but no --base-url or PORTIN_BASE_URL: name the service, or leave the credentials out to use the built-in sandbox`;

/** A real service without a user name. Next: give --user or set PORTIN_USER. */
export const missingUser = (baseUrl: string): string => `--user is missing for ${baseUrl}: give --user or set PORTIN_USER`;

/** A real service without a password. Next: give --password or, better, set PORTIN_PASSWORD. */
export const missingPassword = (user: string, baseUrl: string): string =>
  `--password is missing for user '${user}' at ${baseUrl}: give --password or set PORTIN_PASSWORD`;

/** The user name holds a colon, which HTTP Basic cannot carry. Next: check the user name. */
export const colonInUser = (user: string): string => `--user '${user}' contains ':', which Basic authentication cannot carry: check the user name`;

/** `--base-url` does not parse as a URL. Next: give the service's root URL. */
export const baseUrlNotAUrl = (url: string): string => `--base-url '${url}' is not a URL: give one like https://api.thinktel.ca/rest.svc`;

/** `--base-url` carries a user or password, which would end up in logs. Next: give them with --user/--password or the environment. */
export const baseUrlWithCredentials = (): string =>
  "--base-url must not carry credentials: give them with --user/--password or PORTIN_USER/PORTIN_PASSWORD";

/** `--base-url` is not http or https. Next: give the service's https URL. */
export const baseUrlNotHttp = (url: string): string => `--base-url '${url}' is not an http(s) URL: give one like https://api.thinktel.ca/rest.svc`;

/** `--base-url` has a query or fragment, which the routes would be appended after. Next: give only the root. */
export const baseUrlWithQuery = (url: string): string =>
  `--base-url '${url}' has a query or fragment: give only the service's root, like https://api.thinktel.ca/rest.svc`;

/** `--base-url` is plain http off this machine: the password would cross the network unencrypted. Next: use https://, or pass --allow-insecure-http. */
export const baseUrlPlainHttp = (url: string, host: string): string =>
  `--base-url '${url}' is plain http to ${host}, which would send the password unencrypted: use https:// or pass --allow-insecure-http`;

/** yargs's refusal of options it does not know, said again with the nearest known ones. Next: correct the option's name (--help lists them). */
export const unknownArguments = (count: number, hinted: string): string => `${count === 1 ? "Unknown argument" : "Unknown arguments"}: ${hinted}`;

/** The nearest known option of one unknown, within unknownArguments. Next: (part of unknownArguments). */
export const didYouMeanOption = (name: string, near: string): string => `${name} (did you mean --${near}?)`;

/** --journal (or PORTIN_JOURNAL, or journal copy's FROM or TO) is not a URL at all; its password masked. Next: give postgres://user@host/database. */
export const notAPostgresUrl = (option: string, masked: string): string => `${option} must be a postgres://user@host/database URL, got '${masked}'`;

/** --journal (or its kin) is a URL, but not a postgres:// one naming a database; its password masked. Next: give postgres://user@host/database. */
export const notAPostgresDatabase = (option: string, masked: string): string =>
  `${option} must be a postgres://user@host/database URL naming a database, got '${masked}'`;

/** --state and --journal (or PORTIN_JOURNAL) both name the run's journal; one run keeps one. Next: give one, or unset PORTIN_JOURNAL to use a file. */
export const STATE_AND_JOURNAL = "--state and --journal (or PORTIN_JOURNAL) both name the run journal: give one (unset PORTIN_JOURNAL to use a file)";
