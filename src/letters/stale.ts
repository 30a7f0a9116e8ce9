/**
 * Whether the letters of authorization a sheet attaches still fit their rows (docs/contract.md
 * §2, "Letters of authorization"). A letter portin made carries the fingerprint of its group:
 * the numbers and every value it prints. A group whose rows attach a letter of portin's
 * with another fingerprint has changed since the letter was made (a number added, an account
 * corrected): the carrier would reject the port days later, so its rows are not sent. A PDF
 * without portin's mark (a scan) is checked only for being a PDF, by the validator.
 */
import type { Provider } from "../catalog/account.js";
import type { FileAttachment } from "../catalog/members.js";
import { letterFingerprint, letterGroups, letterNumbersFingerprint } from "../group/letters.js";
import type { CheckedRow, ValidRow } from "../validate/types.js";
import { readLetterMark } from "./mark.js";
import type { LetterMark } from "./mark.js";
import * as rows from "../messages/rows.js";

/** The member a row's letter of authorization is attached by (docs/contract.md §1.2). */
export const LETTER_MEMBER = "FileLetterOfAuthorization";

export const STALE_LETTER = rows.STALE_LETTER;
/** A stale letter whose numbers are still the group's: what changed is a value it prints. */
export const STALE_LETTER_VALUES = rows.STALE_LETTER_VALUES;


function lettersOf(row: ValidRow): readonly FileAttachment[] {
  const value = row.portForm[LETTER_MEMBER];
  if (!Array.isArray(value)) return [];
  return (value as readonly FileAttachment[]).filter((file) => file.ContentType === "application/pdf");
}

/** Row index -> why it is invalid, for every row of a group whose attached letter is not the group's. */
export async function staleLetterRows(rows: readonly CheckedRow[], providers: readonly Provider[]): Promise<Map<number, string>> {
  const stale = new Map<number, string>();
  // A sheet that attaches no letter pays one look at each row.
  if (!rows.some((row) => row.valid && lettersOf(row).length > 0)) return stale;
  const valid = rows.filter((row): row is ValidRow => row.valid);
  // Rows citing one file share its attachment object (validate/files.ts): each letter is read once.
  const marks = new Map<FileAttachment, Promise<LetterMark | null>>();
  const markOf = (file: FileAttachment): Promise<LetterMark | null> => {
    let mark = marks.get(file);
    if (mark === undefined) marks.set(file, (mark = readLetterMark(Buffer.from(file.Base64Contents, "base64"))));
    return mark;
  };
  for (const group of letterGroups(valid, providers)) {
    const files = new Set(group.rows.flatMap(lettersOf));
    if (files.size === 0) continue;
    const expected = letterFingerprint(group.content);
    const stales = (await Promise.all([...files].map(markOf))).filter((mark) => mark !== null && mark.letter !== expected);
    if (stales.length === 0) continue;
    // Other numbers, unless every stale letter says its numbers are these (a letter made before it said so may list others).
    const numbers = letterNumbersFingerprint(group.content);
    const why = stales.every((mark) => mark?.numbers === numbers) ? STALE_LETTER_VALUES : STALE_LETTER;
    for (const row of group.rows) stale.set(row.index, why);
  }
  return stale;
}
