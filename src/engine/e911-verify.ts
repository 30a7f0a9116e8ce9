/**
 * `plan` and `submit` verify each distinct 9-1-1 address once (POST /v2/V911s/Verify,
 * docs/contract.md §2 "9-1-1 addresses") before anything is grouped: a row whose address the
 * database refuses is `invalid`, with the service's reason and the city or province it
 * suggests. An address every row of which an earlier run registered as it is needs no Verify.
 * A Verify that cannot be had stops the run (exit 2), as a lookup does: nothing is sent.
 */
import * as e911Words from "../messages/e911.js";
import PQueue from "p-queue";
import { e911Key } from "../catalog/e911.js";
import type { E911Address } from "../catalog/e911.js";
import { e911Fingerprint } from "../group/fingerprint.js";
import type { PriorState } from "../journal/prior.js";
import type { ServiceClient } from "../service/client.js";
import { refusalText } from "../service/v911-outcome.js";
import type { E911Rows } from "../validate/e911.js";
import type { CheckedRow, InvalidRow } from "../validate/types.js";
import { e911VerdictOf } from "./verdict.js";

/** The rows whose address this run verified (`result_e911` "verified" for a plan). */
export type VerifiedRows = ReadonlySet<number>;

interface AddressRows {
  readonly address: E911Address;
  /** The number a Verify is sent for: the address's first row's. */
  readonly number: string;
  readonly rows: number[];
}

export async function verifyAddresses(
  rows: CheckedRow[],
  e911: E911Rows,
  client: Pick<ServiceClient, "verifyE911">,
  prior: PriorState | null,
  concurrency: number,
): Promise<VerifiedRows> {
  const distinct = new Map<string, AddressRows>();
  for (const [index, address] of e911.addresses) {
    const row = rows[index];
    if (row?.valid !== true) continue;
    // Registered as it is by an earlier run: the database took it then.
    if (e911VerdictOf(prior?.e911.get(row.number), e911Fingerprint(address)).kind === "registered") continue;
    const key = e911Key(address);
    const entry = distinct.get(key);
    if (entry === undefined) distinct.set(key, { address, number: row.number, rows: [index] });
    else entry.rows.push(index);
  }
  const verified = new Set<number>();
  const queue = new PQueue({ concurrency });
  // The first Verify that fails stops the run: the ones not yet started are not sent.
  const stop = (error: unknown): never => {
    queue.clear();
    throw error;
  };
  await Promise.all(
    [...distinct.values()].map((entry) =>
      queue.add(async () => {
        const reply = await client.verifyE911(entry.number, entry.address);
        if (reply.accepted) {
          for (const index of entry.rows) verified.add(index);
          return;
        }
        const reason = e911Words.addressRefused(refusalText(reply));
        for (const index of entry.rows) {
          const row = rows[index];
          if (row?.valid !== true) continue;
          const invalid: InvalidRow = { valid: false, index, line: row.line, number: row.number, numberKind: row.numberKind, operation: row.operation, reason };
          rows[index] = invalid;
          e911.addresses.delete(index);
          e911.invalid.add(index);
        }
      }).catch(stop),
    ),
  );
  return verified;
}
