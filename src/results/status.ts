import type { NumberKind } from "../catalog/operations.js";

/** SPEC §6. */
export type RowStatus = "submitted" | "planned" | "skipped" | "invalid" | "rejected" | "failed" | "unknown";
export const ROW_STATUSES: readonly RowStatus[] = ["submitted", "planned", "skipped", "invalid", "rejected", "failed", "unknown"];

/** The `result_*` cells of one results row. */
export interface RowOutcome {
  readonly status: RowStatus;
  /** 10 digits, "" if unparseable. */
  readonly number: string;
  readonly numberType: NumberKind | null;
  /** "POST /v2/NumberPorts/Inbound/DIDs", "" when none. */
  readonly operation: string;
  readonly batch: number | null;
  readonly ticket: string;
  readonly httpStatus: number | null;
  readonly message: string;
}

export const RESULT_COLUMNS = [
  "result_status",
  "result_number",
  "result_number_type",
  "result_operation",
  "result_batch",
  "result_ticket",
  "result_http_status",
  "result_message",
] as const;
