/**
 * The narrow workbook: 200,000 rows of `number, pilot_number, portform.CustomerReferenceNumber,
 * note`, every row on one of three trunks, the PortForm's other members from --defaults. Four
 * cells a row leave exceljs little work of its own to hide portin's behind, as the 27-column
 * workbook (workbook.ts) does. The issue's shape has the numbers and pilots as number cells, the
 * reference as a shared string and the note as an inline string; shapes drawn from a printed
 * seed (BENCH_SEED) vary which cells are numbers, shared or inline strings, and whether the
 * shared strings come before the worksheet in the zip (exceljs reads them first) or after it,
 * as Excel writes them (exceljs then keeps the worksheet in a temporary file until it has them).
 * The XML parts are written here with yazl: exceljs's writer shares every string or none, and
 * writes an unshared one as `t="str"`, never as an inline string.
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { ZipFile } from "yazl";
import { mixedRowCells } from "./mixed.js";
import type { Shape } from "./mixed.js";

/** How one column's cells are stored: `<c><v>4165550100</v></c>`, `<c t="s">`, `<c t="inlineStr">`. */
export type CellKind = "number" | "shared" | "inline";

export interface BookShape {
  readonly number: CellKind;
  readonly pilot: CellKind;
  readonly reference: Exclude<CellKind, "number">;
  readonly note: Exclude<CellKind, "number">;
  /** sharedStrings.xml before the worksheet in the zip; Excel writes it after. */
  readonly stringsFirst: boolean;
}

export const ISSUE_BOOK: BookShape = { number: "number", pilot: "number", reference: "shared", note: "inline", stringsFirst: true };

const HEADER = ["number", "pilot_number", "portform.CustomerReferenceNumber", "note"] as const;

/** The rows' values: mixed.ts's rows on trunks alone, bare 10 digits, 5% toll-free, 40 references. */
const ROWS: Shape = { notes: 1, offeringShare: 0, tollFreeShare: 0.05, writings: ["bare"], references: 40 };

export function drawBook(next: () => number): BookShape {
  const pick = <T>(choices: readonly T[]): T => choices[Math.floor(next() * choices.length)] as T;
  const strings = ["shared", "inline"] as const;
  return { number: pick(["number", "number", ...strings]), pilot: pick(["number", ...strings]), reference: pick(strings), note: pick(strings), stringsFirst: next() < 0.5 };
}

export function describeBook(book: BookShape): string {
  return `number ${book.number}, pilot ${book.pilot}, reference ${book.reference}, note ${book.note}, shared strings ${book.stringsFirst ? "first" : "last"}`;
}

export function bookName(book: BookShape): string {
  return `narrow-book-${book.number}-${book.pilot}-${book.reference}-${book.note}-${book.stringsFirst ? "sf" : "sl"}`;
}

const escape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const LETTERS = "ABCD";

/** Writes `rows` rows of `book`'s shape to `path`, unless it is already there. */
export async function ensureNarrowBook(path: string, book: BookShape, rows: number): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const shared = new Map<string, number>();
  const share = (text: string): number => {
    let at = shared.get(text);
    if (at === undefined) shared.set(text, (at = shared.size));
    return at;
  };
  const cell = (ref: string, text: string, kind: CellKind): string => {
    if (kind === "number") return `<c r="${ref}"><v>${text}</v></c>`;
    if (kind === "shared") return `<c r="${ref}" t="s"><v>${share(text)}</v></c>`;
    return `<c r="${ref}" t="inlineStr"><is><t>${escape(text)}</t></is></c>`;
  };
  const kinds: readonly CellKind[] = [book.number, book.pilot, book.reference, book.note];
  const parts: string[] = [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`,
    `<row r="1">${HEADER.map((name, at) => cell(`${LETTERS[at]}1`, name, "shared")).join("")}</row>`,
  ];
  for (let i = 0; i < rows; i++) {
    const [number = "", pilot = "", , reference = "", note = ""] = mixedRowCells(ROWS, i);
    const line = i + 2;
    parts.push(`<row r="${line}">${[number, pilot, reference, note].map((text, at) => cell(`${LETTERS[at]}${line}`, text, kinds[at] ?? "inline")).join("")}</row>`);
  }
  parts.push(`</sheetData></worksheet>`);
  const strings =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.size}" uniqueCount="${shared.size}">` +
    [...shared.keys()].map((text) => `<si><t>${escape(text)}</t></si>`).join("") +
    `</sst>`;

  return writeBookParts(path, Buffer.from(parts.join(""), "utf8"), strings, book.stringsFirst);
}

/**
 * Writes a one-sheet workbook ("Numbers") of `sheet`, the worksheet's XML as it is (a test
 * gives it damaged), and `strings`, the shared strings part, before or after it in the zip.
 */
export async function writeBookParts(path: string, sheet: Buffer, strings: string, stringsFirst: boolean): Promise<string> {
  const zip = new ZipFile();
  const add = (name: string, text: string): void => zip.addBuffer(Buffer.from(text, "utf8"), name);
  add(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  );
  add(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  add(
    "xl/workbook.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Numbers" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  add(
    "xl/_rels/workbook.xml.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  add(
    "xl/styles.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`,
  );
  if (stringsFirst) add("xl/sharedStrings.xml", strings);
  zip.addBuffer(sheet, "xl/worksheets/sheet1.xml");
  if (!stringsFirst) add("xl/sharedStrings.xml", strings);
  zip.end();
  const temporary = `${path}.tmp-${process.pid}.xlsx`;
  const out = createWriteStream(temporary);
  zip.outputStream.pipe(out);
  await once(out, "finish");
  renameSync(temporary, path);
  return path;
}

/**
 * The issue's rows as LibreOffice saves them, a shape this bench did not design: the rows
 * written as CSV, opened and saved by LibreOffice as `path`'s extension says, .xlsx (numbers as
 * number cells, every string shared, a style and its attributes on every cell), .xls or .ods,
 * unless it is already there. Null when LibreOffice (`soffice`) is not installed: the bench
 * then says it was left out.
 */
export function ensureLibreOfficeBook(path: string, rows: number): string | null {
  if (existsSync(path)) return path;
  if (spawnSync("soffice", ["--version"], { stdio: "ignore" }).status !== 0) return null;
  const format = extname(path).slice(1);
  const dir = mkdtempSync(join(tmpdir(), "portin-bench-lo-"));
  try {
    const csv = join(dir, basename(path, extname(path)) + ".csv");
    writeFileSync(csv, stringify([[...HEADER], ...Array.from({ length: rows }, (_, i) => { const [number = "", pilot = "", , reference = "", note = ""] = mixedRowCells(ROWS, i); return [number, pilot, reference, note]; })]));
    const converted = spawnSync("soffice", ["--headless", `-env:UserInstallation=file://${join(dir, "profile")}`, "--convert-to", format, "--outdir", dir, csv], { encoding: "utf8" });
    if (converted.status !== 0) throw new Error(`LibreOffice could not convert ${csv}: ${converted.stderr}`);
    mkdirSync(dirname(path), { recursive: true });
    renameSync(csv.replace(/\.csv$/, `.${format}`), path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return path;
}
