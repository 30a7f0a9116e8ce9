/**
 * Detects the sheet's delimiter from its header line (docs/contract.md §3): `,` `;` or tab, whichever
 * appears most often outside quotes. Fed chunk by chunk so the sheet is never buffered
 * beyond its first line.
 */
import { HEADER_SEARCH_ROWS } from "./columns.js";

export type Delimiter = "," | ";" | "\t";

const QUOTE = 0x22;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

export class DelimiterSniffer {
  private inQuotes = false;
  private seenContent = false;
  private commas = 0;
  private semicolons = 0;
  private tabs = 0;
  private lines = 0;
  /** True once the whole header line has been seen. */
  done = false;

  /** Scans a chunk; returns true once the header line is complete. */
  feed(chunk: Uint8Array): boolean {
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const byte = chunk[i];
      if (byte === QUOTE) {
        this.inQuotes = !this.inQuotes;
        this.seenContent = true;
      } else if (this.inQuotes) {
        continue;
      } else if (byte === LF || byte === CR) {
        // Blank lines before the header are skipped like every other blank line; so is a
        // title line without any delimiter, which says nothing of the header's.
        if (this.seenContent) {
          this.lines++;
          this.done = this.commas + this.semicolons + this.tabs > 0 || this.lines >= HEADER_SEARCH_ROWS;
          this.seenContent = false;
        }
      } else {
        this.seenContent = true;
        if (byte === COMMA) this.commas++;
        else if (byte === SEMICOLON) this.semicolons++;
        else if (byte === TAB) this.tabs++;
      }
    }
    return this.done;
  }

  /** The most frequent delimiter; ties and one-column headers fall back to `,`. */
  get delimiter(): Delimiter {
    if (this.semicolons > this.commas && this.semicolons >= this.tabs) return ";";
    if (this.tabs > this.commas && this.tabs > this.semicolons) return "\t";
    return ",";
  }
}
