import type { MemberInfo } from "../catalog/members.js";
import type { E911Member } from "../catalog/e911.js";

/** What a header cell means (docs/contract.md §3). */
export type ColumnRole =
  | { readonly kind: "number" }
  | { readonly kind: "pilot" }
  | { readonly kind: "offering" }
  | { readonly kind: "group" }
  /** `portform.<Member>`, `request.<Member>` or `item.<Member>`. */
  | { readonly kind: "member"; readonly member: MemberInfo }
  /** `e911.<Member>`: one member of the number's 9-1-1 address (docs/contract.md §3), never sent with the port-in. */
  | { readonly kind: "e911"; readonly member: E911Member }
  /** `portform.ExtraDetails.<Key>`: one `ExtraDetails` entry. */
  | { readonly kind: "extraDetail"; readonly key: string }
  /** `{"split": "address"}` in the --defaults "columns" map: one cell split into the PortForm's street members. */
  | { readonly kind: "address" }
  /** Anything else: copied to the results, never sent. */
  | { readonly kind: "passthrough" };

export interface Column {
  readonly index: number;
  /** The header cell as the user wrote it (BOM stripped). */
  readonly header: string;
  readonly role: ColumnRole;
  /** Its meaning comes from the `--defaults` "columns" mapping, not from its name. */
  readonly mapped?: true;
}

export interface SheetLayout {
  /** How to name the input in messages: the path as given, or "<stdin>". */
  readonly source: string;
  /** Directory that relative `portform.File…` paths resolve against (cwd for stdin). */
  readonly baseDir: string;
  readonly delimiter: "," | ";" | "\t";
  readonly header: readonly string[];
  readonly columns: readonly Column[];
  /** 1-based line of the header: after any title rows above it. */
  readonly headerLine?: number;
}

export interface SheetRow {
  /** 0-based position among data rows. */
  readonly index: number;
  /** 1-based line of the file where this record starts. */
  readonly line: number;
  /** Cells as read; a ragged row has more or fewer than the header. */
  readonly cells: readonly string[];
  /**
   * A cell the reader could not turn into a value to send, named and explained (a workbook's
   * `Numbers!A7 holds the error #N/A`): the row is invalid with this message. Absent for CSV.
   */
  readonly problem?: string;
  /**
   * Set on the rows a range row is written out as (`--expand-ranges`, validate/ranges.ts), one
   * per number: their cells are not the file's. "first" on the first of them, "more" on each
   * after it, every one of which puts the results one row further past the sheet's.
   */
  readonly ofRange?: "first" | "more";
}
