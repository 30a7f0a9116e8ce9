/**
 * Journals written by hand for the report's tests: the records are a documented format
 * (journal/records.ts), so a test can hold a migration's nights without running them.
 */
import type { JournalRecord, StatusRecord } from "../../src/journal/records.js";

/** One order submitted: its intent and outcome. */
export function submitted(ticket: string, numbers: readonly string[], at = "2026-03-02T20:00:00.000Z"): JournalRecord[] {
  const requestId = `req-${ticket}`;
  return [
    { type: "intent", requestId, operation: "dids", numbers: [...numbers], at },
    { type: "outcome", requestId, status: "submitted", ticket, httpStatus: 200, message: "Accepted", at },
  ];
}

/** One `status` reading of an order. */
export function reading(ticket: string, numbers: readonly string[], status: string, at: string, extra: Partial<StatusRecord> = {}): StatusRecord {
  return { type: "status", ticket, status, portDate: null, reason: "", summary: "", details: "", numbers: [...numbers], at, ...extra };
}
