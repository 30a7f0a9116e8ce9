/**
 * Where `status` asks about each number (docs/contract.md §6), and what `report` reads for it:
 * the number's verdict (verdict.ts) turned into a ticket to ask about, a number to ask about
 * by number, an order known to have ended, or why there is none; and, once the answers are
 * in, what each row's status reads (status-words.ts). Pure: no I/O.
 */
import { stateOf } from "../journal/prior.js";
import type { EndedOrder, KnownStatus, PriorState } from "../journal/prior.js";
import { noOrder } from "../results/order-status.js";
import type { OrderStatus } from "../results/order-status.js";
import type { CheckedRow } from "../validate/types.js";
import type { Answers } from "./status-journal.js";
import { fromAnswer, fromEnded, notSubmittedYet, refusedFirst, rejectedBefore, resentAfterEnd } from "./status-words.js";
import { AS_SENT, verdictOf } from "./verdict.js";
import type { AccountHold, RowNow } from "./verdict.js";
import * as statusWords from "../messages/status.js";

/** Why a number has nothing to ask about, or how to ask: the number's verdict (verdict.ts) as `status` acts on it. */
export type Source =
  /** `refused`: this journal's request for the number was refused because that order, placed outside it, held it. */
  | { readonly kind: "ticket"; readonly ticket: string; readonly refused?: true }
  /**
   * Asked by number: submitted without a ticket, or unsure (an intent without outcome, or
   * `unknown`), or held by an open order of the account's list whose ticket is not known
   * (`order`). `request`: the request that last carried it, "" for none: one question a request.
   */
  | { readonly kind: "number"; readonly unsure: boolean; readonly request: string; readonly after?: string; readonly order?: string }
  /** An order an earlier `status` learned had ended: over for good, so not asked again. `changed`: the row differs from the one it held. */
  | { readonly kind: "ended"; readonly order: EndedOrder; readonly changed: boolean }
  | { readonly kind: "none"; readonly why: string };

/** The number's verdict (verdict.ts) as `status` and `report` act on it: which order to ask about, or why none. */
export function sourceOf(number: string, prior: PriorState | null, hold: AccountHold | undefined, noJournal: string, row: RowNow = AS_SENT): Source {
  const verdict = verdictOf({ state: stateOf(prior, number), hold, row });
  switch (verdict.kind) {
    case "submitted":
      return verdict.submitted.ticket === "" ? { kind: "number", unsure: false, request: verdict.submitted.requestId } : { kind: "ticket", ticket: verdict.submitted.ticket };
    case "refused":
      return { kind: "ticket", ticket: verdict.submitted.ticket, refused: true };
    case "held": {
      // An order on the account holds it, whoever placed it (docs/contract.md §5). Without its
      // ticket, the number is asked about itself (one question a request for one an earlier
      // run sent), and the list's order is named if PortInStatus shows none.
      const { hold, earlierRun } = verdict;
      if (hold.ticket !== "") return { kind: "ticket", ticket: hold.ticket };
      if (earlierRun === null) return { kind: "number", unsure: false, request: "", order: hold.orderId };
      const { requestId, after } = earlierRun;
      return { kind: "number", unsure: true, request: requestId, order: hold.orderId, ...(after === undefined ? {} : { after }) };
    }
    case "unsure": {
      // Sent by an earlier run without a learned outcome: asked by number, as submit asks (confirm.ts).
      const { requestId, after } = verdict.state;
      return { kind: "number", unsure: true, request: requestId, ...(after === undefined ? {} : { after }) };
    }
    case "rejected":
    case "send": {
      const { rejection } = verdict;
      if (rejection === null) return { kind: "none", why: prior === null ? noJournal : notSubmittedYet() };
      if (rejection.order) return { kind: "ended", order: rejection.order, changed: verdict.kind === "send" };
      return { kind: "none", why: rejectedBefore(rejection.message, verdict.kind === "send", rejection.fingerprint !== "") };
    }
  }
}

/** What one check asks: each ticket once, and by number, one group of numbers a request. */
export interface Questions {
  readonly tickets: ReadonlySet<string>;
  /** By request: its numbers asked about by number; one answer's NumbersToPort settles the others. */
  readonly groups: ReadonlyMap<string, readonly string[]>;
}

/** The questions the rows' sources make; each number asked about once. */
export function questionsFor(rows: readonly CheckedRow[], sourceFor: (number: string) => Source): Questions {
  const tickets = new Set<string>();
  const groups = new Map<string, string[]>();
  const asked = new Set<string>();
  for (const row of rows) {
    if (row.number === "") continue;
    const source = sourceFor(row.number);
    if (source.kind === "ticket") tickets.add(source.ticket);
    if (source.kind === "number" && !asked.has(row.number)) {
      asked.add(row.number);
      const group = groups.get(source.request);
      if (group) group.push(row.number);
      else groups.set(source.request, [row.number]);
    }
  }
  return { tickets, groups };
}

/** What this check learned, for the words of each row. */
export interface LearnedAnswers extends Answers {
  /** The last status an earlier check learned of the number's order ("" ticket: any order). */
  readonly known: (number: string, ticket: string) => KnownStatus | null;
}

/** Row `row`'s status in `status`'s words (status-words.ts), from its number's source (null for a row without a number) and the answers. */
export function rowStatus(row: CheckedRow, source: Source | null, learned: LearnedAnswers): OrderStatus {
  if (source === null) return noOrder("not-submitted", "", "", statusWords.invalidNeverSubmitted(row.valid ? "" : row.reason));
  switch (source.kind) {
    case "none":
      return noOrder("not-submitted", "", "", row.valid ? source.why : statusWords.invalidNeverSubmitted(row.reason));

    case "ended":
      return fromEnded(source.order, source.changed);
    case "ticket": {
      const status = fromAnswer(learned.byTicket.get(source.ticket), { ticket: source.ticket, unsure: false, known: learned.known(row.number, source.ticket) });
      return source.refused === true ? refusedFirst(status) : status;
    }
    case "number": {
      const answer = learned.byNumber.get(row.number);
      return resentAfterEnd(answer, source.after) ?? fromAnswer(answer, { ticket: "", unsure: source.unsure, order: source.order, known: learned.known(row.number, "") });
    }
  }
}
