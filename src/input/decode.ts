/**
 * Sheets not saved as UTF-8 (docs/contract.md §3): Excel's plain "CSV" is Windows-1252 on
 * Windows, and its "Unicode Text" is UTF-16 with a byte order mark. A UTF-16 BOM settles the
 * encoding for certain; Windows-1252 cannot be told from other 8-bit encodings, so it is read
 * only when `--encoding` says so. Such a sheet is decoded as it streams in and handed on as
 * UTF-8, so the delimiter sniffer, csv-parse and the UTF-8 check see what they always see.
 */
import { TextDecoder } from "node:util";
import { InputError, UsageError } from "../errors.js";
import * as sheetWords from "../messages/sheet.js";
import { windows1252Text } from "./windows-1252.js";

/** The encoding `--encoding windows-1252`, `cp1252` and `latin1` name (WHATWG): its bytes 0x80-0x9F are put right after decoding (windows-1252.ts). */
const WINDOWS_1252 = "windows-1252";

/** What `--encoding` takes by default. */
export const UTF8 = "utf-8";

/**
 * Checks an `--encoding` label up front (any WHATWG label: windows-1252, latin1, utf-16le,
 * macintosh, …) and returns the encoding's own name.
 */
export function checkEncoding(label: string): string {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    throw new UsageError(sheetWords.unknownEncoding(JSON.stringify(label)));
  }
}

/** The encoding a byte order mark makes certain, or null when there is none (or a UTF-8 one). */
export function encodingOfBom(first: Uint8Array): string | null {
  if (first[0] === 0xff && first[1] === 0xfe) return "utf-16le";
  if (first[0] === 0xfe && first[1] === 0xff) return "utf-16be";
  return null;
}

function toBuffer(chunk: unknown): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
}

export interface DecodedInput {
  readonly chunks: AsyncIterator<Buffer>;
  /** Once the first chunk is read: the encoding the sheet is read in. */
  encoding(): string;
}

/**
 * The input's chunks as UTF-8: as they are for a UTF-8 sheet (no copy, no cost), decoded from
 * `wanted` or from what a BOM makes certain otherwise. A BOM wins over `wanted`: it is certain.
 */
export function decodeInput(source: string, input: AsyncIterator<unknown>, wanted: string): DecodedInput {
  let chosen = wanted;
  async function* chunks(): AsyncGenerator<Buffer> {
    let decoder: TextDecoder | null = null;
    let lines = 1;
    try {
      for (let first = true; ; first = false) {
        const next = await input.next();
        if (next.done === true) break;
        const chunk = toBuffer(next.value);
        if (first) {
          chosen = encodingOfBom(chunk) ?? (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? UTF8 : wanted);
          if (chosen !== UTF8) decoder = new TextDecoder(chosen, { fatal: true });
        }
        if (decoder === null) {
          yield chunk;
          continue;
        }
        const decoded = decoder.decode(chunk, { stream: true });
        const text = chosen === WINDOWS_1252 ? windows1252Text(decoded) : decoded;
        lines += countLines(text);
        yield Buffer.from(text, "utf8");
      }
      if (decoder !== null) {
        const rest = chosen === WINDOWS_1252 ? windows1252Text(decoder.decode()) : decoder.decode();
        if (rest !== "") yield Buffer.from(rest, "utf8");
      }
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new InputError(sheetWords.notInEncoding(source, lines, chosen), { cause: error });

    } finally {
      await input.return?.();
    }
  }
  return { chunks: chunks(), encoding: () => chosen };
}

function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n++;
  return n;
}
