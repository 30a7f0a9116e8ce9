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
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
