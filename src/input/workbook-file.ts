/**
 * What a file named as a workbook is, told from its first and last bytes before it is read
 * (docs/contract.md §3, "Workbooks"): a zip (an .xlsx, or an .ods), or an OLE compound file (an
 * .xls). A password-protected workbook, a zip cut short and a file that is neither are each
 * refused here, in one line, before any row is read.
 */
import { open } from "node:fs/promises";
import { InputError } from "../errors.js";
import { describeSystemError } from "../system-error.js";
import * as sheetWords from "../messages/sheet.js";

/** A zip's first local file header. */
const ZIP_LOCAL = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A zip's end-of-central-directory record: the last thing a whole zip holds. */
const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** The end record is 22 bytes plus a comment of at most 65,535. */
const ZIP_END_SEARCH = 22 + 0xffff;
/**
 * An OLE compound file: what Excel writes for a password-protected workbook (the encrypted
 * package inside one) and for the old binary .xls format.
 */
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const utf16 = (name: string): Buffer => Buffer.from(name, "utf16le");
/** Stream names in an OLE directory: ECMA-376 encryption, and the binary formats' workbook stream. */
const ENCRYPTED_STREAM = utf16("EncryptedPackage");
const XLS_STREAMS = [utf16("Workbook"), utf16("Book")];
/** Enough of the OLE directory to hold its first entries, where Excel puts these streams. */
const OLE_DIRECTORY_BYTES = 4096;



/** The refusal of a workbook that cannot be read through, `why` in parentheses; `format` is what it was read as (".xlsx"). */
export function damagedWorkbook(path: string, why: string, format = formatOf(path)): string {
  return sheetWords.damagedWorkbook(path, format, why, format === ".ods" ? "LibreOffice" : "Excel");
}

/** What a workbook's name says it is: ".xlsx", ".xls" or ".ods". */
function formatOf(path: string): string {
  return /\.(xls|ods)$/i.exec(path)?.[0].toLowerCase() ?? ".xlsx";
}

/** How a workbook's bytes are kept: a zip (.xlsx, .ods) or an OLE compound file (.xls). */
export type WorkbookContainer = "zip" | "ole";

/** What a refusal of the first sheet adds when the workbook has others: their names and --sheet. */
export function otherSheetsHint(others: readonly string[]): string {
  if (others.length === 0) return "";
  return sheetWords.otherSheetsHint(others.map((name) => JSON.stringify(name)).join(", "));
}

/** Which container `path` is; throws InputError unless it looks like a whole workbook. */
export async function checkWorkbookFile(path: string): Promise<WorkbookContainer> {
  let file;
  try {
    file = await open(path, "r");
  } catch (error) {
    throw new InputError(sheetWords.cannotRead(path, describeSystemError(error)), { cause: error });
  }
  try {
    const { size } = await file.stat();
    if (size === 0) throw new InputError(sheetWords.emptyWorkbookFile(path));
    const head = await readAt(file, 0, Math.min(size, 512));
    if (head.subarray(0, OLE.length).equals(OLE)) {
      const refusal = await oleRefusal(path, file, head);
      if (refusal !== null) throw new InputError(refusal);
      return "ole";
    }
    if (!head.subarray(0, ZIP_LOCAL.length).equals(ZIP_LOCAL)) {
      throw new InputError(sheetWords.notAWorkbook(path, formatOf(path)));
    }
    const tailLength = Math.min(size, ZIP_END_SEARCH);
    const tail = await readAt(file, size - tailLength, tailLength);
    if (tail.lastIndexOf(ZIP_END) < 0) {
      throw new InputError(sheetWords.workbookCutShort(path));
    }
    return "zip";
  } finally {
    await file.close();
  }
}

async function readAt(file: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Why an OLE file cannot be read, from the names in its directory (MS-CFB: sector shift at
 * 0x1E, first directory sector at 0x30); null for an .xls workbook, which can.
 */
async function oleRefusal(path: string, file: Awaited<ReturnType<typeof open>>, head: Buffer): Promise<string | null> {
  let directory: Buffer = Buffer.alloc(0);
  if (head.length >= 0x34) {
    const sectorSize = 2 ** head.readUInt16LE(0x1e);
    const firstSector = head.readUInt32LE(0x30);
    // Sector n starts after the header, which takes one sector.
    if (sectorSize >= 128 && sectorSize <= 65536) directory = await readAt(file, (firstSector + 1) * sectorSize, OLE_DIRECTORY_BYTES);
  }
  if (directory.includes(ENCRYPTED_STREAM)) {
    return sheetWords.encryptedWorkbook(path);
  }
  if (XLS_STREAMS.some((name) => directory.includes(name))) return null;
  return sheetWords.oleWithoutWorkbook(path);

}
