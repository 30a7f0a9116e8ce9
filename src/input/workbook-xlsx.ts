/**
 * An .xlsx workbook opened for reading (docs/contract.md §3, "Workbooks"): yauzl reads the zip's
 * directory, then the parts a worksheet refers to (the workbook's sheet list, its shared
 * strings, the cell styles' number formats) with saxes; worksheet-rows.ts reads the chosen
 * sheet's rows as the zip inflates it, so a long sheet is never held whole.
 *
 * Parts are found as ECMA-376 says, through the package's relationships, rather than by the
 * names Excel gives them: other writers name and order them otherwise (fixtures/workbooks).
 */
import { posix } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import { SaxesParser } from "saxes";
import type { SaxesTagPlain } from "saxes";
import yauzl from "yauzl";
import type { Entry, ZipFile } from "yauzl";
import { unescapeXstring } from "./cell-text.js";
import { MAX_WHOLE_BOOK_BYTES } from "./workbook-book.js";
import type { BookSheet, OpenBook, OpenDocumentZip } from "./workbook-book.js";
import { eachSheetRow, localName, SheetDamage } from "./worksheet-rows.js";
import type { SheetRow, WorkbookParts } from "./worksheet-rows.js";
import * as sheetWords from "../messages/sheet.js";

interface XlsxSheet extends BookSheet {
  /** The worksheet's part in the zip, `xl/worksheets/sheet1.xml`. */
  readonly part: string;
}

/**
 * The number formats Excel builds in, by id, where a style names one without writing it
 * (ECMA-376 Part 1, 18.8.30): only whether one shows a date matters here. 27-36 and 50-58 are
 * the East Asian date formats.
 */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = {
  14: "mm-dd-yy",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  18: "h:mm AM/PM",
  19: "h:mm:ss AM/PM",
  20: "h:mm",
  21: "h:mm:ss",
  22: "m/d/yy h:mm",
  45: "mm:ss",
  46: "[h]:mm:ss",
  47: "mmss.0",
  ...Object.fromEntries([...range(27, 36), ...range(50, 58)].map((id) => [id, "yyyy-mm-dd"])),
};

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

/**
 * Opens `path`, a zip (workbook-file.ts has checked its first and last bytes), as an .xlsx
 * workbook, unless it is an OpenDocument spreadsheet (.ods), a zip too.
 */
export async function openXlsx(path: string): Promise<OpenBook | OpenDocumentZip> {
  const zip = await openZip(path);
  try {
    const entries = await readEntries(zip);
    const part = (name: string): Entry | undefined => entries.get(name) ?? entries.get(name.toLowerCase());
    const rootRels = part("_rels/.rels");
    const content = entries.get("content.xml");
    if (rootRels === undefined && content !== undefined) {
      // One past what is read whole is refused before its content is inflated (workbook-sheetjs.ts).
      const hiddenFirst = content.uncompressedSize > MAX_WHOLE_BOOK_BYTES ? [] : await readHiddenFirstTables(zip, content);
      zip.close();
      return { contentBytes: content.uncompressedSize, hiddenFirst };
    }
    const officeDocument = rootRels === undefined ? undefined : (await readRelationships(zip, rootRels, "")).find((rel) => OFFICE_DOCUMENT.test(rel.type));
    const workbookPart = officeDocument?.target ?? "xl/workbook.xml";
    const workbookEntry = part(workbookPart);
    if (workbookEntry === undefined) throw new SheetDamage(sheetWords.noWorkbookPart(workbookPart));
    const workbookRels = part(posix.join(posix.dirname(workbookPart), "_rels", `${posix.basename(workbookPart)}.rels`));
    const rels = workbookRels === undefined ? [] : await readRelationships(zip, workbookRels, posix.dirname(workbookPart));
    const { listed, date1904 } = await readWorkbookPart(zip, workbookEntry);
    const target = (id: string | undefined): string | undefined => rels.find((rel) => rel.id === id)?.target;
    const sheets: XlsxSheet[] = listed.flatMap(({ name, visible, id }) => {
      const sheetPart = target(id);
      // A chart sheet or a dialog sheet holds no rows.
      const rel = rels.find((candidate) => candidate.id === id);
      return sheetPart === undefined || (rel !== undefined && !/\/worksheet$/.test(rel.type)) ? [] : [{ name, visible, part: sheetPart }];
    });
    const relOfType = (type: RegExp, fallback: string): Entry | undefined => part(rels.find((rel) => type.test(rel.type))?.target ?? posix.join(posix.dirname(workbookPart), fallback));
    const stringsEntry = relOfType(/\/sharedStrings$/, "sharedStrings.xml");
    const stylesEntry = relOfType(/\/styles$/, "styles.xml");
    const sharedStrings = stringsEntry === undefined ? [] : await readSharedStrings(zip, stringsEntry);
    const numberFormat = stylesEntry === undefined ? () => undefined : await readNumberFormats(zip, stylesEntry);
    const parts: WorkbookParts = { sharedStrings, numberFormat, date1904 };
    return new XlsxBook(zip, parts, sheets, (name) => part(name));
  } catch (error) {
    zip.close();
    throw error;
  }
}

class XlsxBook implements OpenBook {
  readonly format = ".xlsx";
  readonly date1904: boolean;
  private read = 0;

  constructor(
    private readonly zip: ZipFile,
    private readonly parts: WorkbookParts,
    readonly sheets: readonly XlsxSheet[],
    private readonly entry: (name: string) => Entry | undefined,
  ) {
    this.date1904 = parts.date1904;
  }

  async eachRow(sheet: BookSheet, onRow: (row: SheetRow) => void): Promise<void> {
    const part = (sheet as XlsxSheet).part;
    const entry = this.entry(part);
    if (entry === undefined) throw new SheetDamage(sheetWords.noWorksheetPart(JSON.stringify(sheet.name), part));

    const stream = await openEntry(this.zip, entry);
    // Progress in the zip's bytes: the compressed share of what has been inflated.
    const ratio = entry.uncompressedSize === 0 ? 0 : entry.compressedSize / entry.uncompressedSize;
    let inflated = 0;
    const counted = async function* (this: XlsxBook): AsyncGenerator<Buffer> {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        this.read = Math.round(inflated * ratio);
        yield chunk;
      }
    };
    await eachSheetRow(counted.call(this), this.parts, onRow);
  }

  bytesRead(): number {
    return this.read;
  }

  close(): void {
    this.zip.close();
  }
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // lazyEntries: the directory is read as asked; autoClose off: the sheet is read after the parts.
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => (error === null ? resolve(zip) : reject(new SheetDamage(error.message, { cause: error }))));
  });
}

/** Every entry of the zip's directory, by name. */
function readEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on("entry", (entry: Entry) => {
      entries.set(entry.fileName, entry);
      // Names are matched as written, then in lower case: some writers change the case.
      if (!entries.has(entry.fileName.toLowerCase())) entries.set(entry.fileName.toLowerCase(), entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", (error: Error) => reject(new SheetDamage(error.message, { cause: error })));
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error === null ? resolve(stream) : reject(new SheetDamage(error.message, { cause: error }))));
  });
}

/** Thrown to stop parsing a part once what is wanted of it has been read. */
class Enough extends Error {}

/**
 * An .ods's content.xml up to its first visible sheet: the names of the sheets before it, each
 * hidden by its table style (`table:display="false"`, ODF 1.2 §17.15.1), as LibreOffice hides a
 * sheet. Parsing stops there: the rest, every sheet's cells, is SheetJS's to read.
 */
async function readHiddenFirstTables(zip: ZipFile, entry: Entry): Promise<string[]> {
  const hiddenStyles = new Set<string>();
  const hidden: string[] = [];
  let style: string | undefined;
  try {
    await parsePart(zip, entry, {
      open(tag, name) {
        if (name === "style" && attribute(tag, "family") === "table") style = attribute(tag, "name");
        else if (name === "table-properties" && style !== undefined && attribute(tag, "display") === "false") hiddenStyles.add(style);
        else if (name === "table") {
          const styleName = attribute(tag, "style-name");
          if (styleName === undefined || !hiddenStyles.has(styleName)) throw new Enough();
          hidden.push(attribute(tag, "name") ?? "");
        }
      },
      close(name) {
        if (name === "style") style = undefined;
      },
    });
  } catch (error) {
    if (!(error instanceof Enough)) throw error;
  }
  return hidden;
}

/** An attribute by its local name, whatever its prefix (`r:id`). */
function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  const direct = tag.attributes[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(tag.attributes)) if (key.endsWith(`:${name}`)) return value;
  return undefined;
}

interface PartHandlers {
  readonly open?: (tag: SaxesTagPlain, name: string) => void;
  readonly text?: (text: string) => void;
  readonly close?: (name: string) => void;
}

/** Parses one XML part of the zip as it inflates; malformed XML or a failing inflate is the file's damage. */
async function parsePart(zip: ZipFile, entry: Entry, handlers: PartHandlers): Promise<void> {
  const parser = new SaxesParser();
  parser.on("error", (error) => {
    throw new SheetDamage(`${entry.fileName}: ${error.message}`);
  });
  if (handlers.open !== undefined) {
    const open = handlers.open;
    parser.on("opentag", (tag: SaxesTagPlain) => open(tag, localName(tag)));
  }
  if (handlers.text !== undefined) {
    parser.on("text", handlers.text);
    parser.on("cdata", handlers.text);
  }
  if (handlers.close !== undefined) {
    const close = handlers.close;
    parser.on("closetag", (tag: SaxesTagPlain) => close(localName(tag)));
  }
  const decoder = new StringDecoder("utf8");
  const stream = await openEntry(zip, entry);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) parser.write(decoder.write(chunk));
  } catch (error) {
    throw error instanceof SheetDamage || error instanceof Enough ? error : new SheetDamage(`${entry.fileName}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  parser.write(decoder.end());
  parser.close();
}

interface Relationship {
  readonly id: string;
  readonly type: string;
  /** The part's name in the zip, resolved against the folder of the part the relationships are of. */
  readonly target: string;
}

async function readRelationships(zip: ZipFile, entry: Entry, base: string): Promise<Relationship[]> {
  const rels: Relationship[] = [];
  await parsePart(zip, entry, {
    open(tag, name) {
      if (name !== "Relationship" || attribute(tag, "TargetMode") === "External") return;
      const target = attribute(tag, "Target") ?? "";
      // Absolute (`/xl/worksheets/sheet1.xml`, as some writers put it) or relative to the part.
      const resolved = target.startsWith("/") ? target.slice(1) : posix.normalize(posix.join(base, target));
      rels.push({ id: attribute(tag, "Id") ?? "", type: attribute(tag, "Type") ?? "", target: unescapeUri(resolved) });
    },
  });
  return rels;
}

/** A target's `%20`s as the names in the zip have them; one that is not a URI is left as it is. */
function unescapeUri(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** xl/workbook.xml: the sheets in tab order, with the relationship naming each one's part, and the date system. */
async function readWorkbookPart(zip: ZipFile, entry: Entry): Promise<{ listed: { name: string; visible: boolean; id: string | undefined }[]; date1904: boolean }> {
  const listed: { name: string; visible: boolean; id: string | undefined }[] = [];
  let date1904 = false;
  await parsePart(zip, entry, {
    open(tag, name) {
      if (name === "workbookPr") {
        const value = attribute(tag, "date1904");
        date1904 = value === "1" || value === "true";
      } else if (name === "sheet") {
        const state = attribute(tag, "state");
        listed.push({ name: attribute(tag, "name") ?? "", visible: state === undefined || state === "visible", id: attribute(tag, "id") });
      }
    },
  });
  return { listed, date1904 };
}

/** The shared strings part: each `<si>` as its text (cell-text.ts unescapeXstring), the runs of rich text joined, phonetic guides (`<rPh>`) left out. */
async function readSharedStrings(zip: ZipFile, entry: Entry): Promise<string[]> {
  const strings: string[] = [];
  let text = "";
  let capturing = false;
  let phonetic = false;
  await parsePart(zip, entry, {
    open(_tag, name) {
      if (name === "si") text = "";
      else if (name === "rPh") phonetic = true;
      else if (name === "t" && !phonetic) capturing = true;
    },
    text(chunk) {
      if (capturing) text += chunk;
    },
    close(name) {
      if (name === "t") capturing = false;
      else if (name === "rPh") phonetic = false;
      else if (name === "si") strings.push(unescapeXstring(text));
    },
  });
  return strings;
}

/** The styles part: each cell style's (`<cellXfs>`) number format, written or built in. */
async function readNumberFormats(zip: ZipFile, entry: Entry): Promise<(style: number) => string | undefined> {
  const custom = new Map<number, string>();
  const styleFormats: number[] = [];
  let inCellXfs = false;
  await parsePart(zip, entry, {
    open(tag, name) {
      if (name === "numFmt") custom.set(Number(attribute(tag, "numFmtId")), attribute(tag, "formatCode") ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) styleFormats.push(Number(attribute(tag, "numFmtId") ?? 0));
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return (style) => {
    const id = styleFormats[style];
    return id === undefined ? undefined : (custom.get(id) ?? BUILT_IN_FORMATS[id]);
  };
}
