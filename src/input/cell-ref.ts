/** How a workbook's cells are named, as Excel names them: `Numbers!A7`, `'Port list'!C1`. */

/** A1-style column letters: 1 -> A, 27 -> AA. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A cell reference's column, `AB12` (or `ab12`) -> 28; 0 for a reference without letters. */
export function columnNumber(reference: string): number {
  let column = 0;
  for (let i = 0; i < reference.length; i++) {
    const letter = reference.charCodeAt(i) | 0x20;
    if (letter < 0x61 || letter > 0x7a) break;
    column = column * 26 + letter - 0x60;
  }
  return column;
}

/** A sheet's name before a cell reference: quoted, as Excel writes it, unless it is only letters, digits and `_`. */
export function sheetPrefix(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${name}!` : `'${name.replaceAll("'", "''")}'!`;
}
