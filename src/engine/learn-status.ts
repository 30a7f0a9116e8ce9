/**
 * Where each row's port-in order stands (docs/contract.md §6, `portin status`): the journal
 * says which order (ticket) holds each number (status-source.ts); the service is asked once
 * per ticket, and by number only where no ticket is known (port-in-status.ts); what was
 * learned is recorded in the journal (status-journal.ts), and each row gets its order's
 * status, or why it has none (status-words.ts).
 */
import { stateOf } from "../journal/prior.js";
import type { KnownStatus, PriorState } from "../journal/prior.js";
import type { OrderStatus } from "../results/order-status.js";
import type { ServiceClient } from "../service/client.js";
import type { CheckedRow } from "../validate/types.js";
import { askByNumber, StatusAsker } from "./port-in-status.js";
import { beyondJournal, recordAnswers } from "./status-journal.js";
import type { StatusJournal } from "./status-journal.js";
import { questionsFor, rowStatus, sourceOf } from "./status-source.js";
import type { Source } from "./status-source.js";
import { requestedPortDate } from "./account-orders.js";
import { withAccountFacts } from "./status-words.js";
import { AS_SENT, rowNowOf } from "./verdict.js";
import type { AccountHold, RowNow } from "./verdict.js";

export interface LearnOptions {
  readonly client: Pick<ServiceClient, "ticketStatus" | "portInStatus">;
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** Null for no journal (none given, or none written yet): `noJournal` says which. */
  readonly journal: StatusJournal | null;
  readonly noJournal: string;
  /** What the account's order list said of numbers the journal does not hold as submitted (account-orders.ts). */
  readonly account?: ReadonlyMap<string, AccountHold>;
  /** The run's one breaker for every PortInStatus question, the account check's included; one of its own when absent. */
  readonly asker?: StatusAsker;
}

export interface Learned {
  readonly statusOf: (index: number) => OrderStatus;
  /** PortInStatus requests the run's asker made, each attempt (retries included) counted: the account check's too, when it shared it. */
  readonly requests: number;
}

export async function learnStatuses(rows: readonly CheckedRow[], prior: PriorState | null, options: LearnOptions): Promise<Learned> {
  // Worked out again for each row's status rather than held: a million rows (docs/architecture.md, Memory).
  const sourceFor = (number: string, row: RowNow = AS_SENT): Source => sourceOf(number, prior, options.account?.get(number), options.noJournal, row);
  const { tickets, groups } = questionsFor(rows, sourceFor);

  const asker = options.asker ?? new StatusAsker({ concurrency: options.concurrency, signal: options.signal });
  const byTicket = await asker.run(tickets, async (ticket, watch) => beyondJournal(await options.client.ticketStatus(ticket, watch), ticket, prior));
  const byNumber = await askByNumber(groups.values(), asker, (number, watch) => options.client.portInStatus(number, watch));
  if (options.journal !== null && prior !== null) await recordAnswers({ byTicket, byNumber }, prior, rows, options.journal);

  const known = (number: string, ticket: string): KnownStatus | null => {
    const last = prior?.lastStatus.get(number);
    return last !== undefined && (ticket === "" || last.ticket === ticket) ? last : null;
  };
  const statusOf = (index: number): OrderStatus => {
    const row = rows[index] as CheckedRow;
    if (row.number === "") return rowStatus(row, null, { byTicket, byNumber, known });
    // An invalid row is taken as sent: the row as it stands changes nothing the order holds.
    const source = sourceFor(row.number, row.valid ? rowNowOf(row) : AS_SENT);
    const status = rowStatus(row, source, { byTicket, byNumber, known });
    if (!row.valid) return status;
    return withAccountFacts(status, placedOutside(row.number, status.ticket), requestedPortDate(row));
  };
  /** Whether `ticket`, which holds `number`, is an order placed outside this journal: recorded so, or found on the account for a number no run of it sent. */
  const placedOutside = (number: string, ticket: string): boolean => {
    if (ticket === "") return false;
    const state = stateOf(prior, number);
    // A number this journal sent and the service refused already says whose order holds it (status-words.ts).
    if (state.kind === "submitted") return state.outside === true && state.refused !== true && state.ticket === ticket;
    return state.kind === "none" && options.account?.get(number)?.ticket === ticket;
  };
  return { statusOf, requests: asker.requests };
}
