/**
 * Why the sheet (a CSV file or a workbook), its header or the --defaults file cannot be read
 * as a whole: nothing is sent (InputError, exit 2: docs/contract.md §3, §7). Each names the
 * file and, where there is one, the line, cell or key. A cell a row cannot use is said in
 * rows.ts's words instead. Each entry's comment says what it means, then, after "Next:", what
 * the user does about it.
 */

/** Said after every refusal of the sheet. Next: (part of the refusal). */
export const NOTHING_SENT = "nothing was sent";

/** The sheet cannot be read at all (missing, permissions). Next: what the reason says. */
export const cannotRead = (source: string, reason: string): string => `cannot read ${source}: ${reason}`;

/** An empty CSV file. Next: give it a header row with a number column. */
export const emptyCsv = (source: string): string => `${source}: the file is empty; it needs a header row with a number column`;

/** An empty workbook file. Next: give it a worksheet with a header and a number column. */
export const emptyWorkbookFile = (path: string): string => `${path}: the file is empty; it needs a worksheet with a header row and a number column`;

/** A sheet that is not UTF-8 (docs/contract.md §3). Next: save it as "CSV UTF-8", or give --encoding windows-1252. */
export const notUtf8 = (source: string, line: number): string =>
  `${source}: line ${line}: not UTF-8 text (save the sheet as "CSV UTF-8", or give --encoding with the encoding it was saved in); nothing was sent`;

/** A sheet not in UTF-8, whose offending line reads as letters in `encoding` (input/encoding-guess.ts). Next: save it as CSV UTF-8, or give --encoding as named. */
export const notUtf8ReadsAs = (source: string, line: number, encoding: string, knownAs: string, reads: string): string =>
  `${source}: line ${line}: not UTF-8 text; read as ${encoding} (${knownAs}) it says "${reads}" (save the sheet as "CSV UTF-8", or give --encoding ${encoding}); nothing was sent`;

/** A sheet not in the --encoding given. Next: check --encoding. */
export const notInEncoding = (source: string, line: number, encoding: string): string => `${source}: line ${line}: not ${encoding} text (check --encoding); nothing was sent`;

/** --encoding names no encoding portin knows. Next: try utf-8, windows-1252 or utf-16le. */
export const unknownEncoding = (label: string): string => `--encoding ${label} is not an encoding portin knows; try utf-8, windows-1252 or utf-16le`;

/** --sheet given for a CSV. Next: leave out --sheet, or give a workbook. */
export const sheetOptionForCsv = (what: string): string => `--sheet names a worksheet of a workbook (.xlsx, .xls, .ods), and ${what} is read as CSV`;

/** A limit of docs/contract.md §3 passed on a line. Next: what the limit says (split the sheet). */
export const limitOnLine = (source: string, line: number, what: string): string => `${source}: line ${line}: ${what}; nothing was sent`;

/** More data rows than portin reads in a sheet. Next: split the sheet. */
export const tooManyRows = (most: string): string => `more than ${most} data rows, the most portin reads in one sheet: split the sheet`;

/** A workbook's worksheet with more data rows than portin reads. Next: split the sheet. */
export const tooManyWorkbookRows = (path: string, row: number, most: string): string =>
  `${path}: row ${row}: more than ${most} data rows, the most portin reads in one sheet: split the sheet; nothing was sent`;

/** A sheet larger than portin reads. Next: split the sheet. */
export const sheetTooLarge = (mebibytes: string): string => `the sheet passes ${mebibytes} MiB, the most portin reads in one sheet: split the sheet`;

/** A row of more fields than a spreadsheet has columns. Next: check the delimiter and quotes. */
export const tooManyFields = (most: string): string => `a row of more than ${most} fields, more than a spreadsheet has columns`;

/** A row of more fields than a spreadsheet has columns, counted. Next: check the delimiter and quotes. */
export const fieldsPastColumns = (fields: string, most: string): string => `a row of ${fields} fields, more than the ${most} a spreadsheet has columns`;

/** A cell longer than portin reads. Next: shorten the cell. */
export const cellTooLong = (column: number, length: string, most: string): string =>
  `the cell in column ${column} has ${length} characters, more than the ${most} portin reads in a cell`;

/** A workbook's cell longer than portin reads. Next: shorten the cell. */
export const workbookCellTooLong = (path: string, cell: string, length: string, most: string): string =>
  `${path}: ${cell} has ${length} characters, more than the ${most} portin reads in a cell; nothing was sent`;

/** A quote opened and never closed. Next: close the quoted cell (an inner quote is written ""). */
export const unclosedQuote = (where: string): string =>
  `${where}: unclosed quote in the record starting here; close the quoted cell (a quote inside a cell is written "") and run again; nothing was sent`;

/** Text after a closing quote. Next: quote the whole cell, inner quotes as "". */
export const textAfterClosingQuote = (where: string, column: string): string =>
  `${where}: a quoted cell goes on after its closing quote${column}; quote the whole cell and write inner quotes as "", then run again; nothing was sent`;

/** A quote inside an unquoted cell. Next: quote the whole cell, inner quotes as "". */
export const quoteInUnquotedCell = (where: string, column: string): string =>
  `${where}: a quote in the middle of an unquoted cell${column}; quote the whole cell and write inner quotes as "", then run again; nothing was sent`;

/** A row longer than portin reads, most often a quote left open. Next: close the quote, or split the row. */
export const rowTooLong = (where: string, most: string): string =>
  `${where}: a row of more than ${most} characters, the most portin reads in a row (a quote left open makes one); nothing was sent`;

/** CSV that csv-parse cannot read, for another reason. Next: what the reason says. */
export const notCsv = (where: string, reason: string): string => `${where}: not readable as CSV (${reason}); nothing was sent`;

/** No header names a number column, a title row or not. Next: name the number column as shown, or map it in --defaults "columns". */
export const noNumberColumnInLines = (source: string, first: number, last: number, shown: string, names: string): string =>
  `${source}: no number column in lines ${first}-${last} (line ${first} reads ${shown}); ` +
  `name the column of numbers to port one of ${names}, or map yours in --defaults "columns"`;

/** The header names no number column. Next: name the number column as shown, or map it in --defaults "columns". */
export const noNumberColumn = (source: string, names: string): string =>
  `${source}: no number column; name the column of numbers to port one of ${names}, or map yours in --defaults "columns"`;

/** A header cell that looks like the number column. Next: map it with the --defaults shown. */
export const numberColumnHint = (refusal: string, cell: string, line: number, mapping: string): string =>
  `${refusal}; ${cell} (line ${line}) looks like it: map it with --defaults ${mapping}`;

/** An ExtraDetails column without its key. Next: write it as shown. */
export const extraDetailsNoKey = (column: string, prefix: string): string => `${column} names no ExtraDetails key; write it as "${prefix}.ExtraDetails.<Key>"`;

/** A column of a member portin fills itself. Next: remove the column. */
export const memberFilledByPortin = (column: string, owner: string): string => `${column} is filled by portin from ${owner}, not from a column; remove the column`;

/** An ExtraDetails column as a whole. Next: write one column per entry, as shown. */
export const extraDetailsNeedsKey = (column: string, prefix: string): string => `${column} needs a key: write one column per entry, as "${prefix}.ExtraDetails.<Key>"`;

/** A column that names no member, and the nearest one. Next: (part of noSuchMember). */
export const didYouMeanMember = (prefix: string, near: string): string => `; did you mean "${prefix}.${near}"?`;

/** A column that names no member of its section. Next: correct the header. */
export const noSuchMember = (column: string, section: string, hint: string): string => `${column} names no ${section} member${hint}`;

/** What the split address column gives, in the two refusals below. Next: (part of them). */
export const SPLIT_ADDRESS = "the split street address";

/** Two columns give the same member. Next: keep one of them. */
export const twoColumnsGive = (source: string, earlier: string, later: string, meaning: string): string => `${source}: ${earlier} and ${later} both give ${meaning}; keep one of them`;

/** The split address column and a street member column both. Next: keep one of them. */
export const splitAndMember = (source: string, split: string, twice: string): string =>
  `${source}: ${split} is split into the street members, and ${twice} gives one of them too; keep one of them`;

/** A workbook cell holding a number Excel cannot store. Next: (part of the row's reason) fix the cell. */
export const NO_EXCEL_NUMBER = "holds no number Excel can store";

/** A workbook cell holding an error value. Next: fix the formula or the value. */
export const cellError = (text: string): string => `holds ${text}, an error in the source sheet: fix the formula or the value`;

/** A formula without a saved result. Next: open the workbook in Excel and save it, or type the value. */
export const FORMULA_WITHOUT_RESULT = "is a formula without a saved result (open the workbook in Excel and save it, or type the value)";

/** A number saved as text in scientific notation, its digits lost. Next: format the column as Text, type the numbers again, and save. */
export const scientificText = (text: string): string =>
  `holds the text ${text}: Excel showed a long number in scientific notation and the digits were lost when it was saved as text; format the column as Text, type the numbers again, and save`;

/** A workbook cell right of the header. Next: name the column in the header row, or clear the cell. */
export const valueWithoutHeader = (cell: string): string => `${cell} has a value but no header above it: name the column in the header row or clear the cell`;

/** A workbook that cannot be read through. Next: save it again from Excel or LibreOffice. */
export const damagedWorkbook = (path: string, format: string, why: string, program: string): string =>
  `${path}: cannot be read as an ${format} workbook (${why}); it may be damaged: save it again from ${program}; nothing was sent`;

/** The first worksheet refused, and others exist. Next: name the right one with --sheet. */
export const otherSheetsHint = (names: string): string => `; if the numbers are on another sheet, name it with --sheet (the workbook also has ${names})`;

/** A file named as a workbook that is not one. Next: name a CSV file .csv. */
export const notAWorkbook = (path: string, format: string): string =>
  `${path}: not an ${format} workbook (it does not begin as one; a CSV file must be named .csv); nothing was sent`;

/** A workbook cut short. Next: save it again from Excel, or copy it again. */
export const workbookCutShort = (path: string): string =>
  `${path}: the workbook is cut short or damaged (its zip directory is missing); save it again from Excel or copy it again; nothing was sent`;

/** A password-protected workbook. Next: save a copy without the password and run that. */
export const encryptedWorkbook = (path: string): string =>
  `${path}: the workbook is password-protected (encrypted), so it cannot be read; save a copy without a password (File > Info > Protect Workbook > Encrypt with Password, clear it) and run that; nothing was sent`;

/** An OLE file that holds no Excel workbook. Next: save it as "Excel Workbook (.xlsx)". */
export const oleWithoutWorkbook = (path: string): string =>
  `${path}: not a workbook portin reads (an OLE compound file, but no Excel workbook in it: an older Office format); save it as "Excel Workbook (.xlsx)"; nothing was sent`;

/** An empty worksheet. Next: give it a header row with a number column, or name another with --sheet. */
export const emptyWorksheet = (path: string, sheet: string, others: string): string =>
  `${path}: worksheet ${sheet} is empty; it needs a header row with a number column${others}; nothing was sent`;

/** --sheet names no worksheet of the workbook. Next: name one of those listed. */
export const noSuchWorksheet = (path: string, sheet: string, names: string): string => `${path}: no worksheet named ${sheet} (it has ${names}); name one with --sheet`;

/** An .xls or .ods read whole is larger than portin holds. Next: save it as .xlsx, which is read as it streams. */
export const wholeWorkbookTooLarge = (path: string, format: string, most: string, holds: string, what: string): string =>
  `${path}: portin reads an ${format} workbook whole, at most ${most}, and this one holds ${holds}${what}: save it as .xlsx (read as it streams) and run that; nothing was sent`;

/** The --defaults file passes its size limit. Next: check the path. */
export const defaultsTooLarge = (where: string, kib: number): string => `${where} is larger than ${kib} KiB, more than a customer's defaults take; check the path`;

/** The --defaults file cannot be read. Next: check the path. */
export const defaultsUnreadable = (where: string, reason: string): string => `cannot read ${where} (${reason}); check the path`;

/** The --defaults file nests deeper than members take. Next: fix the file. */
export const defaultsTooDeep = (where: string, at: string, most: number): string =>
  `${where}: ${at}: nested more than ${most} levels deep, more than members, lists and ExtraDetails take; fix the file`;

/** The --defaults file is not JSON. Next: fix the file at the line and column named. */
export const defaultsNotJson = (where: string, at: string, reason: string): string => `${where}: ${at}: not valid JSON (${reason}); fix the file`;

/** The --defaults file's JSON is not an object of the four sections. Next: write it as shown. */
export const defaultsNotAnObject = (where: string): string => `${where} must hold a JSON object {"portForm": {…}, "request": {…}, "item": {…}, "columns": {…}}`;

/** Where in the --defaults file, as its refusals name it. Next: (part of them). */
export const lineAndColumn = (line: number, column: number): string => `line ${line}, column ${column}`;

/** The --defaults file, as its refusals name it. Next: (part of them). */
export const defaultsFile = (path: string): string => `--defaults file ${JSON.stringify(path)}`;

/** The folder a --defaults file's attachments must be in. Next: (part of the attachment's reason). */
export const DEFAULTS_FOLDER = "the --defaults file's folder";

/** The --defaults file's problems, all in one line. Next: fix each. */
export const defaultsProblems = (where: string, problems: string): string => `${where}: ${problems}`;

/** A --defaults key that is not a section. Next: use portForm, request, item or columns. */
export const unknownSection = (name: string): string => `${name}: unknown key (expected portForm, request, item, e911 or columns)`;

/** A --defaults section that is not an object. Next: write it as member: value. */
export const sectionNotAnObject = (key: string): string => `${key}: must be a JSON object of member: value`;

/** A --defaults member portin fills itself. Next: remove it. */
export const defaultsMemberFilledByPortin = (path: string, owner: string): string => `${path}: filled by portin from ${owner}, not by --defaults (remove it)`;

/** A --defaults member that does not exist. Next: correct it (the nearest is named). */
export const unknownMember = (path: string, hint: string): string => `${path}: unknown member${hint}`;

/** The nearest member, within unknownMember. Next: (part of unknownMember). */
export const didYouMeanDefaults = (key: string, near: string): string => ` (did you mean ${key}.${near}?)`;

/** An ExtraDetails default that is not an object. Next: write it as {"Key": "Value", …}. */
export const EXTRA_DETAILS_FORM = 'must be {"Key": "Value", …}';

/** A --defaults value of no kind a member takes. Next: give a string, number, boolean or list. */
export const notAMemberValue = (value: string): string => `must be a non-empty string, number, boolean or list, not ${value}`;

/** The "columns" mapping is not an object. Next: write it as shown. */
export const columnsNotAnObject = (where: string): string => `${where}: columns: must be a JSON object of "their header": "portin column", e.g. {"Phone #": "number"}`;

/** A column rule other than the split address. Next: use {"split": "address"}. */
export const unknownColumnRule = (path: string, target: string): string => `${path}: the one rule a column takes is {"split": "address"}, not ${target}`;

/** A mapping to something that is not a column name. Next: name a portin column, or null. */
export const notAColumnName = (path: string, target: string): string => `${path}: must name a portin column (e.g. "number", "portform.CustomerName") or be null, not ${target}`;

/** A mapping to a column portin does not have. Next: correct it (the nearest is named). */
export const notAPortinColumn = (path: string, target: string, near: string | undefined): string =>
  `${path}: ${target} is not a portin column${near === undefined ? "" : `; did you mean "${near}"?`}`;

/** The template's example row lacks a trunk. Next: (said by templateExampleInvalid). */
export const TEMPLATE_NO_TRUNK = "the account has no SIP trunk for pilot_number";

/** The template's example row lacks an offering. Next: (said by templateExampleInvalid). */
export const templateNoOffering = (type: string): string => `the account has no offering of Type ${type} for offering_id`;

/** The template's example row lacks a provider. Next: (said by templateExampleInvalid). */
export const TEMPLATE_NO_PROVIDER = "the account lists no provider for portform.CurrentProvider";

/** The template's example of PCF instructions, written into its example row. Next: replace it with the customer's own. */
export const TEMPLATE_PCF_EXAMPLE = "Forward all calls to the main office";

/** Why a workbook is damaged (within damagedWorkbook): a worksheet its index lists is missing. Next: (part of damagedWorkbook). */
export const WORKSHEET_MISSING = "a worksheet it lists is missing";

/** Why a workbook is damaged: SheetJS found no workbook in its records. Next: (part of damagedWorkbook). */
export const NOT_WORKBOOK_RECORDS = "its records do not make a workbook";

/** Why a workbook is damaged: the zip holds no workbook part. Next: (part of damagedWorkbook). */
export const noWorkbookPart = (part: string): string => `it has no workbook part, ${part}`;

/** Why a workbook is damaged: a worksheet's part is missing. Next: (part of damagedWorkbook). */
export const noWorksheetPart = (sheet: string, part: string): string => `its worksheet ${sheet} has no part ${part}`;

/** Why a workbook is damaged: the reading thread stopped mid-read. Next: (part of damagedWorkbook). */
export const CONTENTS_STOP = "its contents stop part-way";

/** Why a workbook is damaged: a cell refers to a shared string that is not there. Next: (part of damagedWorkbook). */
export const missingSharedString = (cell: string, index: string): string => `cell ${cell} refers to shared string ${index}, which the workbook does not hold`;

/** Why a workbook is damaged: a cell past column XFD. Next: (part of damagedWorkbook). */
export const pastLastColumn = (cell: string): string => `cell ${cell} is past Excel's last column, XFD`;

/** What Windows-1252 is called where a user meets it, in notUtf8ReadsAs. Next: (part of it). */
export const WINDOWS_1252_KNOWN_AS = `Excel's plain "CSV" on Windows`;

/** What Mac Roman is called where a user meets it, in notUtf8ReadsAs. Next: (part of it). */
export const MAC_ROMAN_KNOWN_AS = "Mac Roman, Excel's CSV on an old Mac";

/** The sheet named is a FIFO, a device or a socket (docs/contract.md §3). Next: name the sheet's file, or pipe it in as -. */
export const notARegularSheet = (path: string, kind: string): string =>
  `${path} is ${kind}, not a regular file: name the sheet's file, or pipe the sheet in as - (standard input); nothing was sent`;
