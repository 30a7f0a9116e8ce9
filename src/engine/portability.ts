/**
 * `--check-portability` (docs/contract.md §2, §3): before anything is planned, a valid row
 * whose NPA-NXX the service does not port in becomes `invalid`. The service's list is
 * fetched once per run; when it cannot be had, each distinct NPA-NXX of the sheet is checked
 * instead; when that fails too, the run stops (exit 2): the user asked for the check.
 */
import PQueue from "p-queue";
import * as outcomes from "../messages/outcomes.js";
import * as serviceWords from "../messages/service.js";
import { AuthError, LookupError } from "../errors.js";
import type { ServiceClient } from "../service/client.js";
import type { CheckedRow, InvalidRow } from "../validate/types.js";

/** The list's answer, fetched beside the other lookups: the prefixes, or why there are none. */
export type PortableList = { readonly ok: true; readonly prefixes: ReadonlySet<number> } | { readonly ok: false; readonly reason: string };

/** Starts fetching the list; AuthError still stops the run, any other failure leaves the fallback. */
export function fetchPortableList(client: Pick<ServiceClient, "portableNpaNxx">): Promise<PortableList> {
  return client.portableNpaNxx().then(
    (list): PortableList => ({ ok: true, prefixes: new Set(list) }),
    (error: unknown): PortableList => {
      if (error instanceof AuthError) throw error;
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    },
  );
}

/** "613-555". */
function npaNxxText(prefix: string): string {
  return `${prefix.slice(0, 3)}-${prefix.slice(3, 6)}`;
}

/**
 * Replaces, in place, each valid row whose NPA-NXX is not portable with an invalid one.
 * Throws LookupError when neither the list nor the checks could say.
 */
export async function refuseUnportable(
  rows: CheckedRow[],
  list: PortableList,
  client: Pick<ServiceClient, "checkNpaNxx">,
  concurrency: number,
): Promise<void> {
  const portable = list.ok ? (prefix: string) => list.prefixes.has(Number(prefix)) : await checkEach(rows, list.reason, client, concurrency);
  for (const [i, row] of rows.entries()) {
    if (!row.valid) continue;
    const prefix = row.number.slice(0, 6);
    if (portable(prefix)) continue;
    const refused: InvalidRow = {
      valid: false,
      index: row.index,
      line: row.line,
      number: row.number,
      numberKind: row.numberKind,
      operation: row.operation,
      reason: outcomes.notPortableHere(npaNxxText(prefix)),
    };
    rows[i] = refused;
  }
}

/** The fallback: one Check per distinct NPA-NXX of the valid rows, at most `concurrency` at once. */
async function checkEach(rows: readonly CheckedRow[], listFailure: string, client: Pick<ServiceClient, "checkNpaNxx">, concurrency: number): Promise<(prefix: string) => boolean> {
  const prefixes = new Set<string>();
  for (const row of rows) if (row.valid) prefixes.add(row.number.slice(0, 6));
  const queue = new PQueue({ concurrency });
  const answers = new Map<string, boolean>();
  const failures: { prefix: string; reason: string }[] = [];
  const refusals: AuthError[] = [];
  for (const prefix of prefixes) {
    // At most `concurrency` wait behind those in flight, as for dispatch (the PortInStatus asker holds just one, for its breaker).
    await queue.onSizeLessThan(concurrency);
    if (failures.length > 0 || refusals.length > 0) break;
    void queue.add(async () => {
      if (failures.length > 0 || refusals.length > 0) return;
      try {
        answers.set(prefix, (await client.checkNpaNxx(prefix)).portable);
      } catch (error) {
        if (error instanceof AuthError) refusals.push(error);
        else failures.push({ prefix, reason: error instanceof Error ? error.message : String(error) });
      }
    });
  }
  await queue.onIdle();
  const [refused] = refusals;
  if (refused !== undefined) throw refused;
  const [failure] = failures;
  if (failure !== undefined) {
    const { prefix, reason } = failure;
    throw new LookupError(serviceWords.portabilityUnknown(listFailure, npaNxxText(prefix), reason));

  }
  return (prefix) => answers.get(prefix) === true;
}
