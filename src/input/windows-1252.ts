/**
 * Windows-1252's bytes 0x80-0x9F (docs/contract.md §3 "Encodings"): `€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž
 * ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ`. Node 20's TextDecoder("windows-1252") reads them as ISO-8859-1
 * does, as the C1 controls U+0080-U+009F (its Latin-1 fast path), so an apostrophe typed in
 * Excel on Windows (’, 0x92) would reach the carrier as U+0092. A decoded text's C1 controls
 * are put right here; a decoder that already maps them leaves none to put right.
 */
const WINDOWS_1252_C1 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

const C1 = /[\u0080-\u009f]/g;

/** `text`, decoded from Windows-1252, with bytes 0x80-0x9F as Windows-1252 reads them. */
export function windows1252Text(text: string): string {
  return text.replace(C1, (c) => WINDOWS_1252_C1.charAt(c.charCodeAt(0) - 0x80));
}
