/**
 * `status` checks every COMPLETED regular number on a SIP trunk (docs/contract.md §2 "9-1-1
 * addresses", §6): that the number is on its trunk (GET /SipTrunks/{pilot}/Dids/{number}) and
 * has its 9-1-1 record (GET /v2/V911s/{number}). A number that completed without either is
 * the first thing `status` says, and makes it exit 1. Numbers not yet completed are not
 * asked about: their `status_e911` is what the journal holds of their registration.
 */
import * as e911Words from "../messages/e911.js";
import PQueue from "p-queue";
import { AuthError } from "../errors.js";
import { e911Fingerprint } from "../group/fingerprint.js";
import type { PriorState } from "../journal/prior.js";
import type { Journal } from "../journal/journal.js";
import type { OrderStatus } from "../results/order-status.js";
import type { ServiceClient } from "../service/client.js";
import { takesE911 } from "../validate/e911.js";
import type { E911Rows } from "../validate/e911.js";
import type { CheckedRow } from "../validate/types.js";
import { e911VerdictOf } from "./verdict.js";

/** The `status_on_trunk` and `status_e911` cells of one row (docs/contract.md §6). */
export interface TrunkCheck {
  /** `yes`, `no`, or "" before the port completes (or when it could not be asked). */
  readonly onTrunk: "yes" | "no" | "";
  /** `registered`, `missing` (completed without one), `pending` (not yet registered, port not completed), "" when not asked. */
  readonly e911: "registered" | "missing" | "pending" | "";
}

export interface TrunkChecks {
  readonly checks: ReadonlyMap<number, TrunkCheck>;
  /** One line per completed number off its trunk or without 9-1-1, or that could not be checked: printed first. */
  readonly problems: readonly string[];
}

export interface TrunkCheckOptions {
  readonly client: Pick<ServiceClient, "onTrunk" | "e911Record">;
  readonly prior: PriorState | null;
  readonly concurrency: number;
  /** Where each completed number's finding is recorded for `report`; null without a journal. */
  readonly journal: Pick<Journal, "trunkCheck"> | null;
}

export async function checkTrunkNumbers(rows: readonly CheckedRow[], e911: E911Rows, statusOf: (index: number) => OrderStatus, options: TrunkCheckOptions): Promise<TrunkChecks> {
  const checks = new Map<number, TrunkCheck>();
  const problems: string[] = [];
  const queue = new PQueue({ concurrency: options.concurrency });
  for (const [index, row] of rows.entries()) {
    if (!row.valid || !takesE911(row.operation)) continue;
    if (statusOf(index).state !== "completed") {
      const address = e911.addresses.get(index);
      const registered = address !== undefined && e911VerdictOf(options.prior?.e911.get(row.number), e911Fingerprint(address)).kind === "registered";
      checks.set(index, { onTrunk: "", e911: registered ? "registered" : "pending" });
      continue;
    }
    await queue.onSizeLessThan(options.concurrency);
    void queue.add(async () => {
      try {
        const [onTrunk, record] = await Promise.all([options.client.onTrunk(row.target, row.number), options.client.e911Record(row.number)]);
        checks.set(index, { onTrunk: onTrunk ? "yes" : "no", e911: record === null ? "missing" : "registered" });
        await options.journal?.trunkCheck(row.number, onTrunk, record !== null);
        if (!onTrunk) problems.push(e911Words.offTrunk(row.number, row.target));
        if (record === null) problems.push(e911Words.withoutRecord(row.number));
      } catch (error) {
        if (error instanceof AuthError) throw error;
        checks.set(index, { onTrunk: "", e911: "" });
        problems.push(e911Words.uncheckable(row.number, error instanceof Error ? error.message : String(error)));
      }
    });
  }
  await queue.onIdle();
  problems.sort();
  return { checks, problems };
}
