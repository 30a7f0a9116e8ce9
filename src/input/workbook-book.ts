/**
 * A workbook opened for reading, whatever its format (docs/contract.md §3, "Workbooks"):
 * workbook-xlsx.ts reads an .xlsx as it streams; workbook-sheetjs.ts reads an .xls or .ods
 * whole with SheetJS. workbook-reader.ts reads either the same way.
 */
import type { SheetRow } from "./worksheet-rows.js";

/** A worksheet of the workbook, in tab order. */
export interface BookSheet {
  readonly name: string;
  /** Neither hidden nor "very hidden". */
  readonly visible: boolean;
}

export interface OpenBook {
  /** ".xlsx", ".xls" or ".ods": what a refusal says it could not read the file as. */
  readonly format: string;
  readonly sheets: readonly BookSheet[];
  /** The workbook counts dates from 1904 (a Mac Excel option), not 1900. */
  readonly date1904: boolean;
  /**
   * Reads one of `sheets` to its end, handing `onRow` each row as it is read. The file's damage
   * rejects with a SheetDamage (worksheet-rows.ts); what `onRow` throws rejects as it is.
   */
  eachRow(sheet: BookSheet, onRow: (row: SheetRow) => void): Promise<void>;
  /** Bytes of the file read so far, for a progress display. */
  bytesRead(): number;
  /** Lets go of the file. Idempotent. */
  close(): void;
}


/**
 * Read whole (an .xls, an .ods), a workbook takes several times the bytes SheetJS parses in
 * memory (a 50,000-row .ods, 29 MB of content.xml, peaked at 250 MB): past this many, it is
 * refused (docs/contract.md §3, "Workbooks"). An .xls holds 65,536 rows at most, and stays under it.
 */
export const MAX_WHOLE_BOOK_BYTES = 64 * 1024 * 1024;

/** A zip that is an OpenDocument spreadsheet (.ods), not an .xlsx, as workbook-xlsx.ts finds it. */
export interface OpenDocumentZip {
  /** The inflated size of its content.xml, which holds every sheet. */
  readonly contentBytes: number;
  /** The sheets before its first visible one, all hidden: SheetJS does not read a sheet's visibility in an .ods. */
  readonly hiddenFirst: readonly string[];
}
