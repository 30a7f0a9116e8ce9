/**
 * How much of a sheet portin reads (docs/limits.md). Sheets arrive from customers and runs are
 * unattended: past any of these the file is refused whole (exit 2) with the line where it
 * happens, rather than the run growing without end until the process runs out of memory.
 * docs/limits.md lists them.
 */

/**
 * Characters in one cell. A cell holds a name, an address, a comment to the port team or a
 * few file paths: 64 Ki characters is far beyond any of them, and twice the 32,767 that
 * Excel holds in a cell, so a sheet saved from a spreadsheet never meets it.
 */
export const MAX_CELL_CHARS = 64 * 1024;

/**
 * Characters in one row, all its cells together (csv-parse's `max_record_size`, which also
 * bounds the buffer a runaway quoted cell fills). Sixteen cells at the cell limit.
 */
export const MAX_ROW_CHARS = 1024 * 1024;

/** Fields in one row: Excel's and LibreOffice's column limit (XFD = 16,384), so any real sheet fits. */
export const MAX_FIELDS = 16_384;

/**
 * Data rows in one sheet. A 1,000,000-row plan peaks at about 380 MB (bench/README.md):
 * twice that stays well inside Node's default heap. A larger migration is several customers,
 * whose sheets are better run apart.
 */
export const MAX_ROWS = 2_000_000;

/**
 * Bytes in one sheet. Rows that the results must change (a password to mask, a formula to
 * defuse) and every row of standard input keep their cells through the run (engine/prepare.ts,
 * in input/spool.ts: a temporary file past a few MiB), so the bytes are bounded apart from the
 * rows. Measured before the spool, when those cells stayed in memory, on plan: a
 * 254 MiB sheet of 1,090,000 rows, each with a password cell, peaked at 1.3 GB RSS; twice
 * that (2.2 GB) would not fit the 2 GB heap Node gives itself on an 8 GB machine.
 * 256 MiB still holds 1,600,000 rows of the benchmark's 27-column shape.
 */
export const MAX_SHEET_BYTES = 256 * 1024 * 1024;

/** Past a limit: refuses the file at `line` (the line of the record being read when absent). */
export class LimitExceeded extends Error {
  constructor(
    readonly what: string,
    readonly line?: number,
  ) {
    super(what);
  }
}
