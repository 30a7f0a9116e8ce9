/**
 * What a path that is not a regular file is, in words, for the messages that refuse it
 * (docs/contract.md §7): an attachment, a sheet or journal to read, a file to write.
 */
import type { Stats } from "node:fs";

/** "a directory", "a FIFO (named pipe)", "a character device", …; null for a regular file. */
export function nonRegularKind(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}
