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

