/**
 * Which 8-bit encoding a sheet that is not UTF-8 was most likely saved in (docs/contract.md §3,
 * docs/input-sheet.md "Encodings"). Windows-1252 and Mac Roman cannot be told apart by their
 * bytes: both decode every byte. What tells them apart is what the bytes read as: Mac Roman's
 * "é" (0x8E) is Windows-1252's "Ž", its "â" (0x89) is "‰", its "ô" (0x99) is "™", so the wrong
 * guess turns a name into symbols. The encoding whose reading of the offending lines gives
 * the most letters, and the fewest symbols and controls, is the one suggested; the line is
 * shown as it would read, so the user can see the guess is right before following it.
 */
import * as sheetWords from "../messages/sheet.js";
import { TextDecoder } from "node:util";
import { terminalSafe } from "../terminal-text.js";
import { windows1252Text } from "./windows-1252.js";

/** The encodings a spreadsheet program saves a plain CSV in: Excel on Windows, Excel on an old Mac. In this order when they read alike. */
const CANDIDATES = ["windows-1252", "macintosh"] as const;

/** What each candidate is called where a user meets it. */
const KNOWN_AS: Readonly<Record<(typeof CANDIDATES)[number], string>> = {
  "windows-1252": sheetWords.WINDOWS_1252_KNOWN_AS,
  macintosh: sheetWords.MAC_ROMAN_KNOWN_AS,
};

/** Bytes of the sheet, from the offending line on, whose lines are scored: enough lines to judge, never the whole sheet. */
const SCORED_BYTES = 64 * 1024;

/** Characters of the offending line shown in a message. */
const SHOWN_CHARS = 160;

export interface EncodingGuess {
  /** The WHATWG label `--encoding` takes. */
  readonly encoding: string;
  /** What the encoding is known as, for the message. */
  readonly knownAs: string;
  /** The offending line as it reads in that encoding, control characters escaped, cut to a readable length. */
  readonly line: string;
}

const LETTER = /\p{L}/u;
/** Typographic quotes, dashes, ellipsis, guillemets and the no-break space: at home in a name or an address, as letters are. */
const TYPOGRAPHIC = new Set([..."‘’“”–—…«»\u00a0"]);
/** Readings with fewer letters than this many for each symbol or control are no reading at all (a binary file). */
const LETTERS_PER_SYMBOL = 2;

const LF = 0x0a;
const CR = 0x0d;

function isBreak(byte: number | undefined): boolean {
  return byte === LF || byte === CR;
}

interface Reading {
  /** Letters and typographic punctuation: what a name or an address holds. */
  letters: number;
  /** Symbols and controls: what a name or an address does not hold. */
  others: number;
}

/** Counts a reading's letters and typographic punctuation outside ASCII, and its symbols outside ASCII and controls anywhere but the tab. */
function read(text: string, into: Reading): void {
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code < 0x80) {
      if (code < 0x20 && c !== "\t") into.others++;
    } else if (LETTER.test(c) || TYPOGRAPHIC.has(c)) into.letters++;
    else into.others++;
  }
}

/** The lines from `start` on, within SCORED_BYTES, that hold a byte outside ASCII. */
function offendingLines(bytes: Uint8Array, start: number): Uint8Array[] {
  const lines: Uint8Array[] = [];
  const stop = Math.min(bytes.length, start + SCORED_BYTES);
  let from = start;
  while (from < stop) {
    let end = from;
    let high = false;
    while (end < bytes.length && !isBreak(bytes[end])) {
      if ((bytes[end] as number) >= 0x80) high = true;
      end++;
    }
    if (high) lines.push(bytes.subarray(from, end));
    from = end + 1;
  }
  return lines;
}

/** The shown part of `line`: its start, or the stretch around its first character outside ASCII when that lies further in. */
function shown(line: string): string {
  const first = [...line].findIndex((c) => c.charCodeAt(0) >= 0x80);
  const chars = [...line];
  const from = first < SHOWN_CHARS - 20 ? 0 : first - 40;
  const part = chars.slice(from, from + SHOWN_CHARS).join("");
  return `${from > 0 ? "…" : ""}${terminalSafe(part)}${from + SHOWN_CHARS < chars.length ? "…" : ""}`;
}

/** `bytes` as `encoding` reads them (windows-1252.ts: Node's own reading of Windows-1252 leaves C1 controls). */
function decodeAs(encoding: (typeof CANDIDATES)[number], bytes: Uint8Array): string {
  const text = new TextDecoder(encoding).decode(bytes);
  return encoding === "windows-1252" ? windows1252Text(text) : text;
}

/**
 * The candidate whose reading of the lines around byte `at` of `bytes` gives letters, with the
 * line holding `at` as it reads; null when no candidate reads them as more letters than
 * symbols (the file is not text in any of them: a binary file, or UTF-16 without its mark).
 */
export function guessEncoding(bytes: Uint8Array, at: number): EncodingGuess | null {
  let start = at;
  while (start > 0 && !isBreak(bytes[start - 1])) start--;
  const lines = offendingLines(bytes, start);
  if (lines.length === 0) return null;
  let best: { encoding: (typeof CANDIDATES)[number]; reading: Reading } | null = null;
  for (const encoding of CANDIDATES) {
    const reading: Reading = { letters: 0, others: 0 };
    for (const line of lines) read(decodeAs(encoding, line), reading);
    if (best === null || reading.letters - reading.others > best.reading.letters - best.reading.others) best = { encoding, reading };
  }
  if (best === null || best.reading.letters === 0 || best.reading.letters < LETTERS_PER_SYMBOL * best.reading.others) return null;
  const line = decodeAs(best.encoding, lines[0] as Uint8Array);
  return { encoding: best.encoding, knownAs: KNOWN_AS[best.encoding], line: shown(line) };
}
