/**
 * One row's cells as one record of text: a number (the row's index or line), then the cells,
 * joined by the ASCII unit separator and ended by the record separator. XML forbids both
 * characters, so a workbook's cells never hold them, and joining and splitting cost a third of
 * JSON. A row whose cells do hold one (a CSV can) is written as JSON after a `J`, which escapes
 * them. The cell spool (spool.ts) keeps rows this way, and a workbook's rows cross from the
 * reading thread (workbook-reader.ts) this way.
 */
const UNIT = "\u001f";
export const RECORD = "\u001e";
export const RECORD_BYTE = 0x1e;

/** A row read back: its number, then its cells. */
export type RowRecord = readonly [number, readonly string[]];

export function encodeRecord(head: number, cells: readonly string[]): string {
  for (const cell of cells) {
    if (cell.includes(UNIT) || cell.includes(RECORD)) return `J${JSON.stringify([head, ...cells])}${RECORD}`;
  }
  return `${head}${UNIT}${cells.join(UNIT)}${RECORD}`;
}

/** One record's text, without its record separator. */
export function decodeRecord(text: string): RowRecord {
  if (text.startsWith("J")) {
    const [head, ...cells] = JSON.parse(text.slice(1)) as [number, ...string[]];
    return [head, cells];
  }
  const parts = text.split(UNIT);
  return [Number(parts[0]), parts.slice(1)];
}
