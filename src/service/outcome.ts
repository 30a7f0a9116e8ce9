import type { ReplyCode } from "./answers.js";

/** What became of one POST, after the retries docs/contract.md §4 allows. */
export type SubmitOutcome =
  /** 200 with Reply 1, 2 or 3. */
  | { readonly kind: "accepted"; readonly httpStatus: number; readonly reply: ReplyCode; readonly ticket: string; readonly message: string }
  /** 200 with Reply 0 or 4, or a 4xx other than 401/403/408/429. */
  | { readonly kind: "rejected"; readonly httpStatus: number; readonly message: string }
  /** 401 or 403: the run must stop sending. */
  | { readonly kind: "auth"; readonly httpStatus: number; readonly message: string }
  /** Never reached the service, kept being throttled (429/503), or answered 3xx/408: nothing committed. Safe to resend. */
  | { readonly kind: "failed"; readonly httpStatus: number | null; readonly message: string }
  /** 500/502/504, a timeout, a connection cut after sending, or an unreadable 200: it may have been accepted. */
  | { readonly kind: "unknown"; readonly httpStatus: number | null; readonly message: string };
