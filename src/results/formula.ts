/**
 * What makes a cell safe to open in a spreadsheet (docs/contract.md §6): a cell a spreadsheet
 * would run as a formula is written with a leading `'`. Every column set and encoder uses it,
 * the input's own cells and the result cells alike.
 */

// Spreadsheets run a cell beginning with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
// docs/contract.md §6: a value made only of these cannot run anything, and `+1 (416) 555-0101` must stay readable.
const PHONE_LIKE = /^[0-9 +\-().]+$/;

/**
 * Whether a cell starts a formula. A spreadsheet that normalizes text (Apple Numbers turns
 * full-width `＝` into `=`) reads any character whose compatibility form (NFKC) is a
 * trigger as that trigger: full-width, small (`﹦`), superscript and subscript forms alike.
 */
function startsFormula(value: string): boolean {
  if (FORMULA_START.test(value)) return true;
  const first = value.codePointAt(0);
  return first !== undefined && first >= 0x80 && FORMULA_START.test(String.fromCodePoint(first).normalize("NFKC"));
}

/**
 * Whether a cell beginning with this UTF-16 unit needs startsFormula's checks: an ASCII
 * trigger of FORMULA_START, or any non-ASCII unit (it may normalize to one). Most cells
 * begin with neither and skip both regular expressions.
 */
function mayStartFormula(first: number): boolean {
  return first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40 || first === 0x09 || first === 0x0d || first >= 0x80;
}

/** Prefixes `'` to a cell a spreadsheet would run as a formula, except phone-number-like values. */
export function escapeFormula(value: string): string {
  if (!mayStartFormula(value.charCodeAt(0))) return value;
  return startsFormula(value) && !PHONE_LIKE.test(value) ? `'${value}` : value;
}
