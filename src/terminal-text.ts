/**
 * docs/contract.md §7: text from a sheet or the service that portin prints to a terminal or a
 * log has its control characters shown escaped, never interpreted. A customer's header such as
 * `note\e]0;X\a\e[2J` would otherwise retitle and clear the operator's terminal, and `\e[8m`
 * hide everything after it; a bidi override would show a message reordered.
 */

/**
 * C0 controls but line feed and tab (portin's own line breaks and a harmless gap), DEL, C1
 * controls (U+009B is a one-character CSI), and the bidi embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is what this module is for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each control character written as `\xHH` or `\uHHHH`, so a terminal shows it instead of obeying it. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** One control character as `\xHH` or `\uHHHH`. */
function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Every control character, line feed and tab included: a path has no line of its own to break. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this module is for
const PATH_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file's path as portin prints it in a message (docs/contract.md §7, docs/security.md): every
 * control character escaped as terminalSafe does, and line feeds and tabs too, so that a sheet
 * named `a\e[2J\nportin: done.csv` can neither clear the terminal nor forge a line of output.
 * Every path a message names goes through here.
 */
export function printedPath(path: string): string {
  return path.replace(PATH_CONTROL, escaped);
}
