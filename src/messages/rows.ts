/**
 * Why a row of the sheet is `invalid`: its result_message, and the reason `status`, `report`
 * and `loa` give it (docs/contract.md §3, §4). Nothing of an invalid row is sent. A cell's
 * reason is said after its column's label (`portform.CustomerZip "1234" is …`). Each entry's
 * comment says what it means, then, after "Next:", what the user does about it.
 */

// --- the number ---------------------------------------------------------------------------

/** The number cell is empty. Next: fill in the number to port. */
export const EMPTY_NUMBER = "the number is empty: every row needs the number to port";

/** The number is not a valid NANP number; `why` says what is wrong. Next: correct the number. */
export const notNanp = (written: string, why: string): string => `${written} is not a valid NANP number (${why})`;

/** A spreadsheet stored the number in scientific notation and lost its last digits. Next: format the column as Text and type the numbers again. */
export const scientificNumber = (written: string): string =>
  `${written} is not a valid NANP number: a spreadsheet wrote it in scientific notation and dropped its last digits; format the column as Text and type the numbers again`;

/** A number of another country than the +1 zone. Next: remove the row; portin ports NANP numbers only. */
export const notPlusOne = (written: string): string => `${written} is not a NANP number: only NANP (+1) numbers are accepted`;

/** Why a number is not NANP: a character that is not a digit. Next: (part of notNanp). */
export const unexpectedCharacter = (character: string): string => `unexpected ${character}`;

/** Why a number is not NANP: the digit count after +1. Next: (part of notNanp). */
export const digitsAfterPlusOne = (count: number): string => `${count} digits after +1`;

/** Why a number is not NANP: the digit count. Next: (part of notNanp). */
export const digitCount = (count: number): string => `${count} digits`;

/** Why a number is not NANP: its area code starts with 0 or 1. Next: (part of notNanp). */
export const areaCodeStart = (area: string, digit: number): string => `area code ${area} cannot start with ${digit}`;

/** Why a number is not NANP: its exchange starts with 0 or 1. Next: (part of notNanp). */
export const exchangeStart = (exchange: string, digit: number): string => `exchange ${exchange} cannot start with ${digit}`;

/** Why a number is not NANP: the area code and exchange are not in service. Next: (part of notNanp). */
export const notInService = (area: string, exchange: string): string => `area code ${area} with exchange ${exchange} is not in service`;

/** The number carries an extension, which a port does not move. Next: write the number alone, the extension in a column of its own. */
export const withExtension = (written: string, word: string, extension: string, number: string): string =>
  `${written} is not a valid NANP number: it ends in an extension (${word} ${extension}); ` +
  `a port moves the whole number: write ${number} alone in the column and keep the extension in a column of its own`;

/** The same number on an earlier row, the rows alike. Next: delete the later row. */
export const duplicateOfRow = (line: number, number: string): string => `duplicate of row ${line} (${number})`;

/** The same number on two rows that say different things: neither is sent. Next: correct or remove one of them. */
export const contradictingRows = (number: string, other: number, differs: string): string =>
  `number ${number} is also on row ${other} with a different ${differs}: portin cannot know which row is right; correct or remove one of them`;

// --- ranges -------------------------------------------------------------------------------

/** A range's last number is not a number. Next: correct the range's end. */
export const rangeEndInvalid = (written: string, reason: string): string => `${written}: the range's last number ${reason}`;

/** A range that ends before it starts. Next: correct the range. */
export const rangeBackwards = (written: string, last: string, first: string): string => `${written} is not a range: it ends (${last}) before it starts (${first})`;

/** A range of more numbers than portin expands at once. Next: split it. */
export const rangeTooLong = (written: string, count: number, most: number): string => `${written} is a range of ${count} numbers, more than ${most} at once; split it`;

/** A range, read without --expand-ranges. Next: pass --expand-ranges to port each of its numbers. */
export const rangeNotExpanded = (written: string, count: number): string => `${written} is a range of ${count} numbers: pass --expand-ranges to port each of them`;

// --- the target and the operation -----------------------------------------------------------

/** Neither pilot_number nor offering_id. Next: fill one of them. */
export const NO_TARGET = "no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering)";

/** Both pilot_number and offering_id. Next: keep one. */
export const twoTargets = (pilot: string, offering: string): string => `two targets: pilot_number ${pilot} and offering_id ${offering} are both filled; keep one`;

/** Part of notATrunk: the account has no trunks. Next: (part of notATrunk). */
export const NO_TRUNKS = "the account has no SIP trunks";

/** Part of notATrunk: the account's trunks. Next: (part of notATrunk). */
export const trunksAre = (trunks: string): string => `the account's trunks: ${trunks}`;

/** Part of notATrunk: how many trunks, when too many to list. Next: (part of notATrunk). */
export const trunkCount = (count: number): string => `the account has ${count}`;

/** pilot_number names no trunk of the account. Next: run portin trunks and use one of them. */
export const notATrunk = (pilot: string, trunks: string): string => `pilot number ${pilot} is not one of the account's SIP trunks (${trunks}); run "portin trunks" to list them`;

/** offering_id names no offering of the account. Next: run portin offerings and use one of them. */
export const notAnOffering = (offering: string, hint: string): string => `offering_id ${offering} is not one of the account's offerings${hint}; run "portin offerings" to list them`;

/** The nearest offering ID, within notAnOffering. Next: (part of notAnOffering). */
export const closestOffering = (near: string): string => ` (closest: ${near})`;

/** The account's offering has a Type portin cannot port onto. Next: choose another offering. */
export const offeringTypeOutOfRange = (offering: string, type: number): string => `offering ${offering} has Type ${type}, outside 1..7: portin cannot port onto it`;

/** Toll-free numbers onto an offering Type that does not take them. Next: choose a SIP trunk or a Type 5 offering. */
export const tollFreeOntoOffering = (type: number, typeName: string): string =>
  `toll-free numbers cannot be ported onto a Type ${type} (${typeName}) offering: only SIP trunks and Type 5 (Permanent Call Forward) take toll-free numbers`;

/** No operation ports this kind of number onto a trunk. Next: choose an offering instead. */
export const noOperationOntoTrunk = (kind: string): string => `no operation ports ${kind} numbers onto a SIP trunk`;

/** No operation for this kind of number at all. Next: choose another target. */
export const noOperationFor = (kind: string): string => `no operation for ${kind} numbers`;

/** No plan for an operation (a catalog gap). Next: report it. */
export const noPlanFor = (operation: string): string => `no plan for ${operation}`;

/** A member that belongs to the other kind of number. Next: empty the cell for this row. */
export const memberForOtherKind = (label: string, other: string, kind: string): string =>
  `${label} is for ${other} numbers only, and this number is ${kind}; empty the cell for this row`;

/** A request member the operation does not take. Next: empty the cell for this row. */
export const requestMemberNotTaken = (label: string, operation: string, takes: string): string =>
  `${label} is not taken by ${operation} (it takes ${takes}); empty the cell for this row`;

/** An item member for an operation without items. Next: empty the cell for this row. */
export const noItemsTaken = (label: string, operation: string): string => `${label} is not taken by ${operation} (it has no per-number items); empty the cell for this row`;

/** An item member the operation's kind of item does not take. Next: empty the cell for this row. */
export const itemMemberNotTaken = (label: string, kind: string, operation: string): string => `${label} is not taken by ${kind} items of ${operation}; empty the cell for this row`;

/** Required members are empty. Next: fill the column, or set them in --defaults. */
export const missingMembers = (labels: readonly string[]): string =>
  `missing ${labels.join(", ")} (fill the column or set ${labels.length === 1 ? "it" : "them"} in --defaults)`;

/** A row with more or fewer fields than the header. Next: fix the row's delimiters or quotes. */
export const fieldCount = (given: number, width: number): string => `has ${given} field${given === 1 ? "" : "s"}, the header has ${width}`;

// --- cells by type --------------------------------------------------------------------------

/** Not an integer. Next: write a whole number. */
export const notAnInteger = (written: string): string => `${written} is not an integer`;

/** Not a boolean. Next: write one of the forms shown. */
export const notABoolean = (written: string): string => `${written} is not a boolean (true/false, yes/no, Y/N, oui/non, 1/0)`;

/** The locales a second-locale member takes. Next: (part of notALocale). */
export const SECOND_LOCALES = "0-6, 9 or a name: EnglishUS … SpanishLatinAmerica, None";

/** The locales a locale member takes. Next: (part of notALocale). */
export const LOCALES = "0-6 or a name: EnglishUS, EnglishUK, EnglishCA, UserDefined1, UserDefined2, FrenchCA, SpanishLatinAmerica";

/** Not a locale. Next: write one of the forms shown. */
export const notALocale = (written: string, accepted: string): string => `${written} is not a locale (${accepted}, or en-CA, fr-CA, English, French…)`;

/** Not a country. Next: write CA or US. */
export const notACountry = (written: string): string => `${written} is not a country (CA or US; Canada, USA)`;

/** Not a time. Next: write HH:MM, Eastern time. */
export const notATime = (written: string): string => `${written} is not a time (HH:MM, Eastern)`;

/** Not an extra detail. Next: write Key=Value pairs separated by ;. */
export const notAnExtraDetail = (written: string): string => `${written} is not an extra detail (Key=Value, ;-separated)`;

/** Several providers match a name. Next: what `instead` says. */
export const severalProviders = (written: string, matches: string, instead: string): string => `${written} matches several providers: ${matches}; ${instead}`;

/** Next step of severalProviders when names are equal. Next: give the ID. */
export const GIVE_PROVIDER_ID = "give the provider ID instead";

/** Next step of severalProviders when a part matched several. Next: write the name in full, or the ID. */
export const WRITE_PROVIDER_IN_FULL = "write the one meant in full, or its ID";

/** No provider by that ID or name. Next: run portin providers to list them. */
export const unknownProvider = (written: string, hint: string): string => `${written} is not a known provider ID or name (${hint}run "portin providers" to list them)`;

/** The nearest providers, within unknownProvider. Next: (part of unknownProvider). */
export const closestProviders = (near: string): string => `closest: ${near}; `;

/** A month that does not exist. Next: write the date as YYYY-MM-DD. */
export const noSuchMonth = (written: string, month: number): string => `${written} is not a real date (there is no month ${month}); write it as YYYY-MM-DD`;

/** A day past the month's end. Next: correct the day. */
export const noSuchDay = (written: string, month: string, year: number, days: number): string => `${written} is not a real date (${month} ${year} has ${days} days)`;

/** A date that reads either way (3/4/2027). Next: write it as YYYY-MM-DD. */
export const ambiguousDate = (written: string, a: number, monthB: string, monthA: string, b: number, one: string, other: string): string =>
  `${written} is ambiguous: ${a} ${monthB} or ${monthA} ${b}? write it as YYYY-MM-DD (${one} or ${other})`;

/** Neither part of a date is a month. Next: write it as YYYY-MM-DD. */
export const neitherIsAMonth = (written: string, a: number, b: number): string => `${written} is not a real date (neither ${a} nor ${b} is a month); write it as YYYY-MM-DD`;

/** Not a date at all. Next: write it as YYYY-MM-DD. */
export const notADate = (written: string): string => `${written} is not a date (write it as YYYY-MM-DD)`;

/** A port date in the past (Eastern time). Next: give a business day from today on. */
export const dateInPast = (written: string, today: string): string => `${written} is in the past (today is ${today}, Eastern time): give a business day from today on`;

/** A port date on a weekend. Next: give a weekday that is not a service holiday. */
export const dateOnWeekend = (written: string, weekday: string): string =>
  `${written} is a ${weekday}: ports are done on business days; give a weekday that is not a service holiday`;

/** A port date on a service holiday. Next: give another business day. */
export const dateOnHoliday = (written: string, name: string): string => `${written} is ${name === "" ? "a holiday" : name}, a day the service ports nothing: give another business day`;

/** Why an e-mail address is not one. Next: (part of notAnEmail). */
export const emailWhy = (hasAt: boolean, domain: string): string =>
  !hasAt ? "it has no @" : domain !== "" && !domain.includes(".") ? `its domain ${JSON.stringify(domain)} has no dot` : "it is not an address";

/** An e-mail address that cannot be delivered to. Next: give one like it@example.com. */
export const notAnEmail = (written: string, why: string): string => `${written} is not a deliverable e-mail address (${why}): give one like it@example.com`;

/** What a postal code of each country looks like. Next: (part of the postal code's messages). */
export const POSTAL_CODE_FORMS = { CA: "a Canadian postal code such as M5H 1J9", US: "a US ZIP code such as 12345 or 12345-6789" } as const;

/** A postal code of the other country than portform.CustomerCountry. Next: give the right one, or fix the country. */
export const postalCodeOfOtherCountry = (written: string, canadian: boolean, country: string, accepted: string): string =>
  `${written} is ${canadian ? "a Canadian postal code" : "a US ZIP code"}, but portform.CustomerCountry is ${country}: give ${accepted}, or fix the country`;

/** A ZIP code a spreadsheet stored as a number, losing its leading zeros. Next: write it whole, and format the column as text. */
export const zipLostZeros = (written: string, whole: string): string =>
  `${written} looks like a US ZIP code that lost its leading zeros (the spreadsheet stored it as a number): write ${whole}, and format the column as text so it keeps them`;

/** Not a postal code. Next: give one of the forms shown. */
export const notAPostalCode = (written: string, country: string | undefined, accepted: string): string =>
  `${written} is not ${country === "CA" ? "a Canadian postal code" : country === "US" ? "a US ZIP code" : "a postal code"} (give ${accepted})`;

/** What a province or state of each country looks like. Next: (part of the province's messages). */
export const PROVINCE_FORMS = {
  CA: "a Canadian province or territory: AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT, or its English or French name",
  US: "a US state by its two-letter code (NY, CA, …) or its name",
} as const;

/** Not a province, territory or state. Next: give one of the forms shown. */
export const notAProvince = (written: string, accepted: string): string => `${written} is not a province, territory or state (give ${accepted})`;

/** A province of the other country than portform.CustomerCountry. Next: give the right one, or fix the country. */
export const provinceOfOtherCountry = (named: string, canadian: boolean, country: string, accepted: string): string =>
  `${named} is ${canadian ? "a Canadian province or territory" : "a US state"}, but portform.CustomerCountry is ${country}: give ${accepted}, or fix the country`;

/** A one-cell address that cannot be split into the street members. Next: write it as shown, or use the portform.CustomerStreet… columns. */
export const addressNotSplit = (written: string, why: string): string =>
  `${written} cannot be split into a street address (${why}); write it as "120 King St W, Suite 400", or use the portform.CustomerStreet… columns`;

/** Why an address cannot be split: a part after the street is neither unit nor floor. Next: leave the city, province and postal code to their own columns. */
export const notUnitNorFloor = (written: string): string => `${written} is neither a unit nor a floor; leave the city, province and postal code to their own columns`;

/** Why an address cannot be split: no civic number. Next: (part of addressNotSplit). */
export const NO_CIVIC_NUMBER = "it does not start with a civic number";

/** Why an address cannot be split: no street name. Next: (part of addressNotSplit). */
export const NO_STREET_NAME = "it has no street name";

// --- attachments --------------------------------------------------------------------------

/** An attachment that is a hard link, whose other names may be outside the folder. Next: attach a copy of it. */
export const HARD_LINK = "is a hard link (the file has other names, which may be outside the folder): attach a copy of it instead";

/** An empty attachment. Next: attach the signed document itself. */
export const EMPTY_ATTACHMENT = "is empty (0 bytes): attach the signed document itself";

/** An attachment over the size portin attaches. Next: send a smaller scan. */
export const attachmentTooLarge = (bytes: string, most: string): string => `is ${bytes} bytes, over the ${most} portin attaches at most: send a smaller scan`;

/** Where attachments must be. Next: (part of the attachment's messages). */
export const attachmentRule = (folder: string, dir: string, why: string | undefined): string =>
  `an attachment must be a regular file inside ${folder} (${dir})${why === undefined ? "" : `, ${why}`}`;

/** Why the folder is the current directory: the sheet came on standard input. Next: (part of attachmentRule). */
export const STDIN_HAS_NO_FOLDER = "as the sheet comes from standard input, which has no folder";

/** An attachment that leaves the folder through a symbolic link. Next: attach a file inside the folder. */
export const leadsOutside = (folder: string, real: string, rule: string): string => `leads outside ${folder} through a symbolic link (to ${real}): ${rule}`;

/** The run's attachments would pass what portin holds at once. Next: split the sheet. */
export const runAttachmentsTooLarge = (most: string): string => `would take the run's attachments past ${most}, more than portin holds at once: split the sheet`;

/** An attachment that cannot be read. Next: what the reason says. */
export const attachmentUnreadable = (reason: string, path: string): string => `cannot be read (${reason}: ${path})`;

/** A row's attachments together pass what one request carries. Next: send smaller scans. */
export const rowAttachmentsTooLarge = (bytes: string, most: string): string => `the row's attachments come to ${bytes}, over the ${most} portin sends in one request: send smaller scans`;

/** An attachment whose content is not what its name says. Next: attach the document itself. */
export const contentNotAsNamed = (what: string, content: string): string =>
  `is named as ${what} but its content is ${content}: attach the document itself, not a page or file saved under its name`;

/** An attachment of no type portin recognises. Next: (part of contentNotAsNamed). */
export const NO_KNOWN_TYPE = "of no type portin recognises";

/** The attached letter of authorization lists other numbers than its rows. Next: run portin loa again and have it signed. */
export const STALE_LETTER = "the letter of authorization lists other numbers than these rows: run portin loa again and have it signed";

/** The attached letter lists these numbers but no longer the values it prints. Next: run portin loa again and have it signed. */
export const STALE_LETTER_VALUES =
  "the letter of authorization lists these numbers, but no longer the customer, account, billing address, carrier or port date of these rows: run portin loa again and have it signed";

/** A member cell holds a control character a spreadsheet does not show (invalid, never silently dropped). Next: retype the cell. */
export const controlCharacter = (text: string, code: string, at: number): string =>
  `"${text}" holds a control character (U+${code}) at character ${at}, which a spreadsheet does not show: retype the cell`;

/** The number cell reads as a column formatted as a number shows it (Google Sheets, Excel). Next: format the column as plain text and export again. */
export const formattedAsNumber = (text: string, digits: string): string =>
  `${text} is ${digits} as a column formatted as a number shows it (thousands separators, decimals): ` +
  "format the number column as plain text (Google Sheets: Format > Number > Plain text; Excel: Format Cells > Text), then export the sheet again";

/** One cell holds several numbers. Next: put each number on a row of its own. */
export const severalNumbers = (text: string, numbers: readonly string[]): string => `${text} holds ${numbers.length} numbers (${numbers.join(", ")}): put each number on a row of its own`;

/** The row's number is a trunk's own pilot number, already on the service. Next: leave it out of the sheet. */
export const pilotAsNumber = (digits: string): string => `${digits} is the pilot number of one of the account's SIP trunks, already on the service: leave it out of the sheet`;
