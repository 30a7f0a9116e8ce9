/**
 * What a sheet reader hands back (docs/contract.md §3): sheet.ts for CSV, workbook.ts for an
 * `.xlsx` workbook. Apart from both, so that neither reader needs the other to say what it returns.
 */
import type { RawRows } from "./raw.js";
import type { SheetLayout, SheetRow } from "./types.js";

export interface Sheet {
  readonly layout: SheetLayout;
  /** Data rows in input order. Throws InputError while iterating if the file stops being CSV. */
  readonly rows: AsyncIterable<SheetRow>;
  /** False for standard input, which cannot be read twice, and for a sheet that is not UTF-8. */
  readonly rereadable: boolean;
  /**
   * Once every row has been read: the rows' text as it stands in the file (raw.ts), or null
   * when the sheet is not rereadable or the file has changed since it was read.
   */
  reread(): Promise<RawRows | null>;
  /** The file's size in bytes, for a progress display; null for standard input and a pipe. */
  readonly size: number | null;
  /** Bytes parsed so far (of the UTF-8 text, for a decoded sheet). */
  bytesRead(): number;
  /** Once every row has been read: how the file is written, for results that open the same way (docs/contract.md §6). */
  textFormat(): TextFormat;
  /** Lets go of the file (and a workbook's reading thread), read to the end or not. Idempotent. */
  close(): Promise<void>;
  /** Once every row has been read: the totals rows under the data, left out of the rows (totals-row.ts). */
  leftOut(): readonly SheetRow[];
}

/** A sheet as a reader opens it, before its totals rows are set aside. */
export type ReadSheet = Omit<Sheet, "leftOut">;

export interface TextFormat {
  /** The file began with a UTF-8 byte order mark: Excel reads a CSV as UTF-8 only with one. */
  readonly bom: boolean;
  /** The line end between records: "\n", "\r\n" or "\r". */
  readonly lineEnd: string;
}
