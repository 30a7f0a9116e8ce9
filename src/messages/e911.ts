/**
 * The words of 9-1-1 addresses and numbers on their trunks (docs/contract.md §2, "9-1-1
 * addresses"; docs/e911.md): what plan, submit, status and report say of a number's 9-1-1
 * record, and the refusals of the sheet's and the sandbox's 9-1-1 options.
 * Each entry's comment says what it means, then, after "Next:", what the user does about it.
 */

/** A regular number on a SIP trunk has no 9-1-1 address in the sheet or defaults. Next: give one (e911.<Member> columns) and run again before the port completes. */
export const NO_E911_ADDRESS = "no 9-1-1 address given: register one before the port completes";

/** A registration that failed or whose answer was not learned. Next: nothing now; the next run registers it. */
export const NEXT_RUN_REGISTERS = "the next run registers it";

/** A registration whose answer was lost: the record may exist. Next: run again; it asks the service (GET) before sending it again. */
export const MAYBE_MADE = "the record may have been made; the next run asks the service (GET) before sending it again";

/** The 9-1-1 database refused the row's address (`invalid`), with its suggestion. Next: fix the e911 columns as suggested and run again. */
export const addressRefused = (why: string): string => `9-1-1 address refused by the service: ${why}; fix the e911 columns`;

/** The database refused without saying why. Next: check the address with the service. */
export const REFUSED_BY_DATABASE = "refused by the 9-1-1 database";

/** A 2xx answer to a registration that is not a V911 answer: the record may exist (`unknown`). Next: run again; it asks first. */
export const withoutV911Answer = (status: number, why: string): string => `HTTP ${status} without a V911 answer (${why}): ${MAYBE_MADE}`;

/** A number completed but is not on the trunk it was ported to. Next: put it on its trunk with the service; it does not ring until then. */
export const offTrunk = (number: string, trunk: string): string => `${number} completed but is not on trunk ${trunk}: it does not ring there`;

/** A number completed without a 9-1-1 record. Next: register its 9-1-1 address now (give the e911 columns and run portin submit). */
export const withoutRecord = (number: string): string => `${number} completed without a 9-1-1 record: a 9-1-1 call from it reaches no address`;

/** A completed number's trunk and 9-1-1 record could not be checked. Next: run portin status again. */
export const uncheckable = (number: string, why: string): string => `${number} completed, but its trunk and 9-1-1 record could not be checked: ${why}`;

/** The heading of status's first lines: completed numbers off their trunk or without 9-1-1. Next: what each line says. */
export const notSafeToUse = (lines: readonly string[]): string => `completed but not safe to use:\n${lines.map((line) => `  ${line}`).join("\n")}`;

/** The report's reason a completed number is off its trunk. Next: put it on its trunk with the service. */
export const REPORT_OFF_TRUNK = "completed but not on its trunk";

/** The report's reason a completed number has no 9-1-1 record. Next: register its 9-1-1 address now. */
export const REPORT_WITHOUT_RECORD = "completed without a 9-1-1 record";

/** submit's `next:` for 9-1-1 records not known to be registered. Next: run portin submit again. */
export const nextUnsettled = (records: string, where: string): string =>
  `${records} not known to be registered (see result_message in ${where}): run portin submit again; it asks the service before sending any again`;

/** What a trunk-number lookup asks for, in a lookup's refusal. Next: (part of it). */
export const NUMBER_ON_TRUNK = "a number on a trunk";

/** The --defaults "e911" section is not an object. Next: write it as member: value. */
export const defaultsNotObject = (members: readonly string[]): string => `e911: must be a JSON object of member: value (${members.join(", ")})`;

/** A --defaults "e911" member's value is not text. Next: write it as a string. */
export const defaultsNotText = (name: string, value: string): string => `e911.${name}: must be a string, not ${value}`;

/** A row's 9-1-1 postal code is of another country than its province. Next: fix one of them. */
export const postalOfOtherCountry = (postalLabel: string, postal: string, what: string, provinceLabel: string, province: string, country: string): string =>
  `${postalLabel} ${postal} is ${what}, but ${provinceLabel} ${province} is in ${country}: fix one of them`;

/** sandbox --e911-refuse-city given without CITY=SUGGESTED. Next: write it as in the example. */
export const refuseCityForm = (pair: string): string => `--e911-refuse-city '${pair}' is not CITY=SUGGESTED, e.g. "Torontoo=Toronto"`;

/** sandbox --off-trunk given something other than a 10-digit number. Next: give one. */
export const offTrunkForm = (number: string): string => `--off-trunk '${number}' is not a 10-digit number such as 4165550101`;
