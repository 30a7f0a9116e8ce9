/**
 * `--silent-after`, shared by `status` and `report` (docs/contract.md §6): the business days
 * an open order may go without any change before it is called silent.
 */
import { SILENT_AFTER_BUSINESS_DAYS } from "../journal/history.js";
import { wholeNumber } from "./values.js";

export const SILENT_AFTER_OPTION = {
  default: SILENT_AFTER_BUSINESS_DAYS,
  requiresArg: true,
  coerce: wholeNumber("silent-after", 1, 260),
  describe: "business days an open order may go with no change (Status or port date) before it is called silent; a CONFIRMED order waiting for its port date never is [number]",
} as const;
