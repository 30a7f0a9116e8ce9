/**
 * fast-check arbitraries for sheets as customers send them, and as they break: arbitrary
 * bytes; quotes, delimiters and line ends in and between cells; BOMs; header permutations
 * and spellings; huge fields; invalid UTF-8 spliced in; and the file cut into chunks
 * anywhere, since standard input arrives in pieces.
 */
import fc from "fast-check";
import { MAX_CELL_CHARS } from "../../src/input/limits.js";

/** Header cells portin knows, a few it refuses, and passthrough ones; spelt in several ways below. */
const COLUMNS = [
  "number",
  "pilot_number",
  "offering_id",
  "group",
  "portform.CustomerName",
  "portform.CurrentProvider",
  "portform.FileLetterOfAuthorization",
  "portform.RequestedPortDate",
  "portform.ExtraDetails.Building",
  "request.FaxEmail",
  "item.SipPassword",
  "item.Label",
  "item.Account",
  "note",
  "Telephone Number",
  "portform.NumbersToPort",
  "portform.Bogus",
  "=HYPERLINK(\"http://x\")",
  "",
];

/** The same column in the spellings docs/contract.md §3 accepts: case, surrounding spaces, space / - / _. */
const spelling = (name: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    name,
    name.toUpperCase(),
    ` ${name} `,
    name.replace(/_/g, " "),
    name.replace(/_/g, "-"),
    name.replace(/^portform\./i, "Port Form."),
  );

export const headerArb: fc.Arbitrary<string[]> = fc
  .shuffledSubarray(COLUMNS, { minLength: 1, maxLength: 9 })
  .chain((names) => fc.tuple(...names.map(spelling)));

/** Numbers as sheets write them, valid and not, with repeats so that duplicates occur. */
const numberArb = fc.constantFrom("4165550101", "416-555-0102", "+1 (416) 555-0103", "1-800-555-0104", "416555010", "4165550199", "(416) 555-0105", "x", "");

/** Cells that mean something to portin, and cells meant to break the reader. */
export const cellArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: numberArb },
  { weight: 3, arbitrary: fc.constantFrom("4165550100", "5145550100", "OFF-GEN-001", "OFF-LEG-009", "Bell Canada", "17", "2026-12-01", "2026-13-01") },
  { weight: 3, arbitrary: fc.constantFrom("loa.pdf", "../outside.pdf", "/etc/passwd", ".", "sub/../../x", "loa.pdf;../outside.pdf", "nul\u0000.pdf") },
  { weight: 3, arbitrary: fc.constantFrom('"', '""', ",", ";", "\t", "\r", "\n", "\r\n", "\uFEFF", 'a"b', "=cmd|' /C calc'!A0", "@SUM(1+1)", "\uFF1D1+1") },
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

/** Huge fields: at the cell limit, and one past it, which refuses the file. */
const hugeCellArb = fc.constantFrom(MAX_CELL_CHARS, MAX_CELL_CHARS + 1).map((n) => "é".repeat(n));

/** Columns a plausible sheet adds to number and pilot_number. */
const PLAUSIBLE_EXTRAS = ["portform.CustomerName", "portform.CurrentProvider", "portform.FileLetterOfAuthorization", "portform.RequestedPortDate", "portform.ExtraDetails.Building", "item.SipPassword", "item.Label", "note", "group"];

/** How one cell is written: quoted properly, bare, or quoted and broken. */
function encodeCell(cell: string, style: number, delimiter: string): string {
  const needs = cell.includes('"') || cell.includes(delimiter) || /[\r\n]/.test(cell);
  switch (style) {
    case 0:
      return needs ? `"${cell.replaceAll('"', '""')}"` : cell;
    case 1:
      return `"${cell.replaceAll('"', '""')}"`;
    case 2:
      return cell;
    default:
      return `"${cell}`;
  }
}

export interface SheetText {
  readonly bytes: Buffer;
  /** How the text was built, for the failure report. */
  readonly describe: string;
}

/** Rows as text: a header and rows, any delimiter and line end, with quoting styles drawn per cell. */
interface Layout {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly delimiter: string;
  readonly eol: string;
  readonly bom: boolean;
  readonly trailingEol: boolean;
  readonly styles: readonly number[];
  readonly blankLines: readonly number[];
}

function text(layout: Layout): SheetText {
  const { header, rows, delimiter, eol, bom, trailingEol, styles, blankLines } = layout;
  let n = 0;
  const line = (cells: readonly string[]): string => cells.map((c) => encodeCell(c, styles[n++ % styles.length] ?? 0, delimiter)).join(delimiter);
  const lines = [header.map((h) => encodeCell(h, 0, delimiter)).join(delimiter), ...rows.map(line)];
  for (const at of blankLines) lines.splice(Math.min(at, lines.length), 0, "");
  const written = (bom ? "\uFEFF" : "") + lines.join(eol) + (trailingEol ? eol : "");
  return { bytes: Buffer.from(written, "utf8"), describe: JSON.stringify(written.length > 2000 ? `${written.slice(0, 2000)}…` : written) };
}

const framing = {
  delimiter: fc.constantFrom(",", ";", "\t"),
  eol: fc.constantFrom("\n", "\r\n", "\r"),
  bom: fc.boolean(),
  trailingEol: fc.boolean(),
  blankLines: fc.array(fc.nat({ max: 14 }), { maxLength: 2 }),
};

/**
 * A sheet a customer might send: a number and a trunk column, known columns in any order
 * and spelling, rows mostly as wide as the header, quoted properly, so rows get through the
 * reader and meet the validator.
 */
export const plausibleArb: fc.Arbitrary<SheetText> = fc
  .shuffledSubarray(PLAUSIBLE_EXTRAS, { maxLength: 5 })
  .chain((extras) => fc.shuffledSubarray(["number", "pilot_number", ...extras], { minLength: extras.length + 2 }))
  .chain((names) =>
    fc.record({
      header: fc.tuple(...names.map(spelling)),
      rows: fc.array(
        fc.oneof(
          { weight: 9, arbitrary: fc.tuple(...names.map((name) => (name === "number" ? numberArb : name === "pilot_number" ? fc.constantFrom("4165550100", "5145550100", "4165550111", "") : cellArb))) },
          { weight: 1, arbitrary: fc.array(cellArb, { maxLength: names.length + 2 }) },
        ),
        { maxLength: 12 },
      ),
      styles: fc.array(fc.oneof({ weight: 30, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) }), { minLength: 8, maxLength: 8 }),
      ...framing,
    }),
  )
  .map(text);

/** A sheet written carelessly or with intent: any header, ragged rows, bare and broken quotes, huge cells. */
const hostileArb: fc.Arbitrary<SheetText> = fc
  .record({
    header: headerArb,
    rows: fc.array(fc.array(fc.oneof({ weight: 60, arbitrary: cellArb }, { weight: 1, arbitrary: hugeCellArb }), { maxLength: 10 }), { maxLength: 12 }),
    styles: fc.array(fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.constant(2) }, { weight: 1, arbitrary: fc.constant(3) }), {
      minLength: 8,
      maxLength: 8,
    }),
    ...framing,
  })
  .map(text);

const csvArb: fc.Arbitrary<SheetText> = fc.oneof({ weight: 3, arbitrary: plausibleArb }, { weight: 2, arbitrary: hostileArb });

/** Bytes that are not UTF-8, a stray NUL or quote, spliced in at random places. */
const SPLICES: readonly (readonly number[])[] = [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x00], [0x22], [0x0d], [0xef, 0xbb, 0xbf]];

function splice(bytes: Buffer, at: number, inserted: readonly number[]): Buffer {
  const where = bytes.length === 0 ? 0 : at % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, where), Buffer.from(inserted), bytes.subarray(where)]);
}

const splicedArb: fc.Arbitrary<SheetText> = fc
  .tuple(csvArb, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SPLICES)), { minLength: 1, maxLength: 3 }))
  .map(([sheet, splices]) => {
    const bytes = splices.reduce((acc, [at, inserted]) => splice(acc, at, inserted), sheet.bytes);
    return { bytes, describe: `${sheet.describe} with ${JSON.stringify(splices)} spliced in` };
  });

const rawBytesArb: fc.Arbitrary<SheetText> = fc
  .uint8Array({ maxLength: 400 })
  .map((raw) => ({ bytes: Buffer.from(raw), describe: `bytes ${Buffer.from(raw).toString("hex")}` }));

/** Any of the above: mostly sheets, some with bad bytes, some pure noise. */
export const sheetArb: fc.Arbitrary<SheetText> = fc.oneof({ weight: 6, arbitrary: csvArb }, { weight: 2, arbitrary: splicedArb }, { weight: 1, arbitrary: rawBytesArb });

/** Where standard input's chunks end: tiny pieces split UTF-8 sequences, CRLFs and quotes. */
export const chunkingArb: fc.Arbitrary<readonly number[]> = fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 6 });

/** The bytes in chunks of the given sizes, the rest in one piece. */
export function chunked(bytes: Buffer, sizes: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

/** Text a customer's sheet should never get to run on a terminal: escapes, a bell, bidi overrides. */
export const CONTROL_TEXTS = ["\u001b]0;X\u0007\u001b[2J", "\u001b[8m", "\u202Eevil", "a\u0000b", "\u009b31m"];

/**
 * A longer sheet than plausibleArb's, as the engine meets it: up to 80 rows, so that the reader
 * runs ahead of the run and pauses, with a cell past the limit in any row (the first, the last,
 * one read after a pause), headers and cells carrying control characters, and ragged rows.
 */
export const longHostileArb: fc.Arbitrary<SheetText> = fc
  .record({
    extras: fc.shuffledSubarray([...PLAUSIBLE_EXTRAS, ...CONTROL_TEXTS.map((c) => `note${c}`)], { maxLength: 4 }),
    count: fc.integer({ min: 1, max: 80 }),
    seedCells: fc.array(fc.oneof({ weight: 8, arbitrary: cellArb }, { weight: 1, arbitrary: fc.constantFrom(...CONTROL_TEXTS) }), { minLength: 1, maxLength: 16 }),
    huge: fc.option(fc.record({ row: fc.nat(), column: fc.nat(), over: fc.integer({ min: 0, max: 3 }) }), { nil: null }),
    ragged: fc.array(fc.nat(), { maxLength: 2 }),
    ...framing,
  })
  .map(({ extras, count, seedCells, huge, ragged, ...frame }) => {
    const header = ["number", "pilot_number", ...extras];
    const rows = Array.from({ length: count }, (_, r) =>
      header.map((name, c) => (name === "number" ? `416555${String(2000 + r).padStart(4, "0")}` : name === "pilot_number" ? "4165550100" : (seedCells[(r + c) % seedCells.length] ?? ""))),
    );
    for (const at of ragged) rows[at % count]?.push("extra");
    if (huge !== null) {
      const row = rows[huge.row % count] as string[];
      row[huge.column % row.length] = "z".repeat(MAX_CELL_CHARS - 1 + huge.over);
    }
    return text({ header, rows, styles: [0], ...frame });
  });
