/**
 * docs/contract.md §3: the sheet is UTF-8. A sheet saved in another encoding (Windows-1252, Mac Roman,
 * UTF-16) would otherwise reach the service with U+FFFD in place of every accented letter,
 * so it is refused whole, naming the line of the first byte that is not UTF-8.
 *
 * Checked on the raw chunks as they stream past with node's native `isUtf8` (about 40 ms
 * for a 1,000,000-row, 140 MB sheet, under 1% of parsing it), rather than by looking for
 * U+FFFD in every parsed cell (slower, and it would refuse a real U+FFFD too). A sequence
 * cut by a chunk boundary waits for the next chunk. Line breaks are counted as csv-parse
 * counts them: the first one in the file, LF (or CRLF) or a lone CR, is the one counted.
 */
import { isUtf8 } from "node:buffer";

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

/** Bytes in a sequence led by `lead`; 1 for a byte that cannot lead one (reported as invalid). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** How many bytes at the end of `bytes` start a sequence the chunk ends before finishing. */
function unfinishedTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    return byte >= 0xc0 && sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte of `bytes` that does not start a complete, valid UTF-8 sequence (RFC 3629). */
export function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    if (lead < 0xc2 || lead > 0xf4) return i;
    const length = sequenceLength(lead);
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return -1;
}

function count(bytes: Uint8Array, byte: number, end: number): number {
  let n = 0;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, end);
  for (let at = view.indexOf(byte); at >= 0; at = view.indexOf(byte, at + 1)) n++;
  return n;
}

export class Utf8Check {
  /** The start of a sequence cut by the last chunk's end. */
  private pending: Buffer = EMPTY;
  /** The line the next byte is on. */
  private line = 1;
  /** The byte that breaks lines, once the first line break is seen. */
  private breaker: number | null = null;
  /** The last chunk ended in a CR before the line-break style was known. */
  private crAtEnd = false;

  /** Checks the next chunk; returns the 1-based line of its first byte that is not UTF-8, or 0. */
  feed(chunk: Buffer): number {
    let bytes = chunk;
    if (this.pending.length > 0) {
      const missing = sequenceLength(this.pending[0] as number) - this.pending.length;
      const joined = Buffer.concat([this.pending, bytes.subarray(0, missing)]);
      if (bytes.length < missing) {
        this.pending = joined;
        return 0;
      }
      this.pending = EMPTY;
      if (!isUtf8(joined)) return this.line;
      bytes = bytes.subarray(missing);
    }
    const cut = unfinishedTail(bytes);
    const body = cut === 0 ? bytes : bytes.subarray(0, bytes.length - cut);
    if (!isUtf8(body)) {
      const at = firstInvalid(body);
      return this.line + this.breaksIn(body, at < 0 ? body.length : at);
    }
    this.line += this.breaksIn(body, body.length);
    // Copied: the chunk's buffer may be reused by the stream.
    if (cut > 0) this.pending = Buffer.from(bytes.subarray(bytes.length - cut));
    return 0;
  }

  /** At the end of the input: the line of a sequence the input ends before finishing, or 0. */
  end(): number {
    return this.pending.length > 0 ? this.line : 0;
  }

  /** Line breaks in `bytes` before offset `end`. */
  private breaksIn(bytes: Uint8Array, end: number): number {
    let extra = 0;
    if (this.breaker === null && end > 0) {
      if (this.crAtEnd) {
        this.crAtEnd = false;
        this.breaker = bytes[0] === LF ? LF : CR;
        // The CR that ended the last chunk was a line break of its own.
        if (this.breaker === CR) extra = 1;
      } else {
        this.decideBreaker(bytes, end);
      }
    }
    if (this.breaker === null) return 0;
    return extra + count(bytes, this.breaker, end);
  }

  private decideBreaker(bytes: Uint8Array, end: number): void {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, end);
    const lf = view.indexOf(LF);
    const cr = view.indexOf(CR);
    if (cr < 0) {
      if (lf >= 0) this.breaker = LF;
    } else if (lf >= 0 && lf < cr) {
      this.breaker = LF;
    } else if (cr + 1 < end) {
      this.breaker = view[cr + 1] === LF ? LF : CR;
    } else if (end < bytes.length) {
      // What follows the CR is a multi-byte sequence, so no LF.
      this.breaker = CR;
    } else {
      this.crAtEnd = true;
    }
  }
}
