/**
 * `portin report`'s words of its own (docs/contract.md §2 `report`): a row's status where no
 * check has said one yet, and the problems grouped with their fixes. The rows' statuses are
 * status.ts's, as `status` gives them. Each entry's comment says what it means, then, after
 * "Next:", what the user does about it.
 */

/** The row is invalid, as the page shows it. Next: fix the row (the reason says how). */
export const rowInvalid = (reason: string): string => `the row is invalid: ${reason}`;

/** A later row of a number already on an earlier line. Next: keep one row per number. */
export const duplicateOfLine = (line: number, number: string): string => `duplicate of line ${line} (${number})`;

/** Submitted under a ticket no check has asked about yet. Next: run portin status. */
export const notCheckedYet = (ticket: string): string => `submitted in ${ticket}; not checked yet: run portin status`;

/** Sent by an earlier run whose outcome is not known. Next: run portin status. */
export const OUTCOME_NOT_KNOWN = "sent by an earlier run whose outcome is not known yet: run portin status";

/** A number typed with the letter O for zero. Next: type the digit 0. */
export const LETTER_O = { cause: "letter O for zero", fix: "type the digit 0 where the letter O was typed" };

/** A number typed with the letter I or l for one. Next: type the digit 1. */
export const LETTER_I = { cause: "letter I or l for one", fix: "type the digit 1 where the letter was typed" };

/** Numbers on more than one row. Next: delete the later rows, or correct their numbers. */
export const DUPLICATE_NUMBER = { cause: "duplicate number", fix: "keep one row per number: delete the later rows, or correct their numbers" };

/** An invalid number whose reason names no fix of its own. Next: correct the number, then portin submit. */
export const CORRECT_THE_NUMBER = "correct the number in the sheet, then run portin submit";

/** A carrier's rejection without remarks. Next: correct what it disputes; portin submit sends the changed row. */
export const CORRECT_THE_DISPUTE = "correct what the carrier disputes in the sheet, then portin submit sends it again";

/** A carrier's rejection with its remarks. Next: correct what the remarks say; portin submit sends the changed row. */
export const carrierSays = (remarks: string): string => `the carrier says: ${remarks}; correct it in the sheet, then portin submit sends it again`;
