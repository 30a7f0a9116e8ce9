/** How a workbook's cells are named in messages, as Excel names them: `Numbers!A7`, `'Port list'!C1`. */

/** A1-style column letters: 1 -> A, 27 -> AA. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A sheet's name before a cell reference: quoted, as Excel writes it, unless it is only letters, digits and `_`. */
export function sheetPrefix(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${name}!` : `'${name.replaceAll("'", "''")}'!`;
}
