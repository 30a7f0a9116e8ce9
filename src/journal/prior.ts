/**
 * The re-run rules of docs/contract.md §5, applied to the records of earlier runs: pure, no I/O.
 */
import { FINGERPRINT_LENGTH } from "../group/fingerprint.js";
import { NumberStates, textOf } from "./number-states.js";
import type { StateParts } from "./number-states.js";
import type { JournalRecord } from "./records.js";

/** What earlier runs recorded about each number (10 digits): one state a number, read with `stateOf`. */
export interface PriorState {
  /**
   * Each number's state; a number earlier runs never sent, or whose request failed, has none.
   * Read one number with `stateOf`, an order's numbers with `submittedUnder`.
   */
  readonly states: ReadonlyMap<string, HeldState>;
  /**
   * The latest status a `status` check learned for each number's order (records.ts `status`),
   * whatever its state: a number whose status cannot be learned next time keeps this one,
   * with when it was learned (docs/contract.md §6).
   */
  readonly lastStatus: ReadonlyMap<string, KnownStatus>;
  /**
   * The numbers each of `tickets` holds as submitted, by ticket: one pass that builds no state
   * for each of a million numbers (status-journal.ts records an order's numbers).
   */
  readonly submittedUnder: (tickets: ReadonlySet<string>) => Map<string, string[]>;
  /** Each number's 9-1-1 registration as earlier runs left it (docs/contract.md §1.5); a number never registered has none. */
  readonly e911: ReadonlyMap<string, E911State>;
}

/**
 * A number's 9-1-1 registration: `registered` with the address's fingerprint, or `unsure`
 * (an intent without an outcome, an `unknown`, a refusal or a failure): the next run asks
 * GET /v2/V911s/{number} before it sends anything, so no record is ever POSTed twice.
 */
export type E911State = { readonly kind: "registered"; readonly address: string } | { readonly kind: "unsure"; readonly address: string; readonly message: string };

/** One order's status as a `status` check learned it. */
export interface KnownStatus {
  readonly ticket: string;
  readonly status: string;
  readonly portDate: string;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** When it was learned. */
  readonly at: string;
}

/**
 * A number the service holds in an order, by this journal's runs or, `outside`, placed outside
 * it; `refused` too when this journal's request carried the number and the service refused it
 * because that order already held it (records.ts `confirmed`).
 */
export type Submitted = { readonly ticket: string; readonly requestId: string; readonly outside?: true; readonly refused?: true } & Sent;

/**
 * For a number sent again after its order ended: that order's ticket. A PortInStatus that
 * still shows only that order says the resend never took, not that the order is news.
 */
interface Resent {
  readonly after?: string;
}

/** What the intent that last carried a number says of its row. */
interface Sent {
  /** The row's fingerprint as sent; absent in intents an older portin wrote. */
  readonly fingerprint?: string;
}

export interface EarlierRejection {
  readonly requestId: string;
  /** The part of the service's message about this number; for an ended order, its reason. */
  readonly message: string;
  readonly httpStatus: number | null;
  /** Of the row as it was sent (group/fingerprint.ts); "" when not known: any row counts as changed. */
  readonly fingerprint: string;
  /** Set when the rejection is the order's end, learned later by `status`, not the service's answer to the POST. */
  readonly order?: EndedOrder;
}

/** An order that ended without porting, as `status` recorded it (records.ts `ended`). */
export interface EndedOrder {
  readonly ticket: string;
  readonly status: string;
  readonly reason: string;
  readonly summary: string;
  readonly details: string;
  /** When `status` learned it. */
  readonly at: string;
}

/**
 * What earlier runs settled about one number (docs/contract.md §5). Every consumer switches on
 * `kind` with `unhandled` in its default, so a new state is a compile error wherever it must
 * be handled.
 */
export type NumberState =
  /** Submitted by an earlier run, or confirmed by PortInStatus: never sent again, unless `status` learns the order ended. */
  | ({ readonly kind: "submitted" } & Submitted)
  /** Its request has an intent but no outcome: it may have reached the service. */
  | ({ readonly kind: "pending"; readonly requestId: string } & Sent & Resent)
  /** Recorded as `unknown` (500, 502, 504, timeout, cut connection) and not since resolved. */
  | ({ readonly kind: "unknown"; readonly requestId: string; readonly message: string } & Sent & Resent)
  /**
   * Its latest request was rejected for it, or `status` learned its order ended without
   * porting: resent only once its row changed, or with --retry-rejected.
   */
  | ({ readonly kind: "rejected" } & EarlierRejection)
  /** Nothing earlier runs hold: never sent, its request failed, or no journal. */
  | { readonly kind: "none" };

/** A state earlier runs recorded: every kind but `none`, which is the absence of one. */
export type HeldState = Exclude<NumberState, { readonly kind: "none" }>;

const NONE: NumberState = { kind: "none" };

/** The state earlier runs left `number` in; `none` without a journal. */
export function stateOf(prior: PriorState | null, number: string): NumberState {
  return prior?.states.get(number) ?? NONE;
}

/** The default of an exhaustive `switch` on a NumberState's kind: a kind left out does not compile. */
export function unhandled(state: never): never {
  throw new Error(`unhandled number state ${JSON.stringify(state)}`);
}

/**
 * What the intent that last carried a number said of it: its row's fingerprint as sent and,
 * for one unsure, the ended order it was sent again after. Undefined for a rejected number:
 * its rejection keeps its own fingerprint.
 */
export function sentOf(state: NumberState): (Sent & Resent) | undefined {
  switch (state.kind) {
    case "submitted":
    case "pending":
    case "unknown":
      return state;
    case "rejected":
    case "none":
      return undefined;
    default:
      return unhandled(state);
  }
}

/** A held state without its number's fingerprint: what the numbers of one request share (number-states.ts). */
type SharedState =
  | { readonly kind: "submitted"; readonly ticket: string; readonly requestId: string; readonly outside: true | undefined; readonly refused: true | undefined }
  | { readonly kind: "pending"; readonly requestId: string; readonly after: string | undefined }
  | { readonly kind: "unknown"; readonly requestId: string; readonly message: string; readonly after: string | undefined }
  | { readonly kind: "rejected"; readonly requestId: string; readonly message: string; readonly httpStatus: number | null; readonly order: EndedOrder | undefined };

const HELD_STATE_PARTS: StateParts<HeldState, SharedState> = {
  split: (state) => {
    switch (state.kind) {
      case "submitted":
        return { shared: { kind: "submitted", ticket: state.ticket, requestId: state.requestId, outside: state.outside, refused: state.refused }, fingerprint: state.fingerprint };
      case "pending":
        return { shared: { kind: "pending", requestId: state.requestId, after: state.after }, fingerprint: state.fingerprint };
      case "unknown":
        return { shared: { kind: "unknown", requestId: state.requestId, message: state.message, after: state.after }, fingerprint: state.fingerprint };
      case "rejected":
        return {
          shared: { kind: "rejected", requestId: state.requestId, message: state.message, httpStatus: state.httpStatus, order: state.order },
          fingerprint: state.fingerprint,
        };
      default:
        return unhandled(state);
    }
  },
  // An optional member never set reads back as undefined, which every reader takes as absent.
  join: (shared, fingerprint) => {
    switch (shared.kind) {
      case "submitted":
        return { kind: "submitted", ticket: shared.ticket, requestId: shared.requestId, outside: shared.outside, refused: shared.refused, fingerprint };
      case "pending":
        return { kind: "pending", requestId: shared.requestId, fingerprint, after: shared.after };
      case "unknown":
        return { kind: "unknown", requestId: shared.requestId, message: shared.message, fingerprint, after: shared.after };
      case "rejected":
        return { kind: "rejected", requestId: shared.requestId, message: shared.message, httpStatus: shared.httpStatus, fingerprint: fingerprint ?? "", order: shared.order };
      default:
        return unhandled(shared);
    }
  },
};

const KNOWN_STATUS_PARTS: StateParts<KnownStatus, KnownStatus> = {
  split: (known) => ({ shared: known, fingerprint: undefined }),
  join: (known) => known,
};

/** `fingerprint` only when known: most journals hold millions of states. */
const sent = (fingerprint: string | undefined): Sent => (fingerprint === undefined ? {} : { fingerprint });

/** The ended order a number is being sent again after, carried from state to state until it is submitted. */
function resentAfter(state: HeldState | undefined): Resent {
  if (state === undefined) return {};
  switch (state.kind) {
    case "rejected":
      return state.order === undefined ? {} : { after: state.order.ticket };
    case "pending":
    case "unknown":
      return state.after === undefined ? {} : { after: state.after };
    case "submitted":
      return {};
    default:
      return unhandled(state);
  }
}

/**
 * Later records win, with one exception: a number once submitted stays submitted (a later
 * submission only replaces its ticket). A ticket is a fact a later refusal cannot undo; the
 * service typically rejects a second port-in of a number precisely because the first exists.
 * Only an `ended` record for that very ticket undoes it: the order is over.
 */
export function derivePriorState(records: Iterable<JournalRecord>): PriorState {
  const fold = priorStateFold();
  for (const record of records) fold.take(record);
  return fold.state();
}

/** derivePriorState one record at a time, as a journal is read (read.ts scanJournalFile): no record is held. */
export interface PriorStateFold {
  readonly take: (record: JournalRecord) => void;
  readonly state: () => PriorState;
}

export function priorStateFold(): PriorStateFold {
  const requests = new Map<string, SentNumbers>();
  const states = new NumberStates(HELD_STATE_PARTS);
  // A reading is one object its order's numbers share, as a request's state is (number-states.ts).
  const lastStatus = new NumberStates<KnownStatus, KnownStatus>(KNOWN_STATUS_PARTS);
  const e911 = new Map<string, E911State>();

  const take = (record: JournalRecord): void => {
    if (record.type === "intent") {
      // Kept only when whole: a list that does not match the numbers says nothing reliable.
      const fingerprints = record.fingerprints?.length === record.numbers.length ? record.fingerprints : undefined;
      requests.set(record.requestId, new SentNumbers(record.numbers, fingerprints));
      record.numbers.forEach((number, i) => {
        const current = states.get(number);
        if (current?.kind === "submitted") return;
        states.set(number, { kind: "pending", requestId: record.requestId, ...sent(fingerprints?.[i]), ...resentAfter(current) });
      });
    } else if (record.type === "outcome") {
      const { requestId } = record;
      const sentNumbers = requests.get(requestId);
      if (sentNumbers === undefined) return;
      for (let i = 0; i < sentNumbers.length; i++) {
        const number = sentNumbers.numberAt(i);
        const fingerprint = sentNumbers.fingerprintAt(i);
        const current = states.get(number);
        if (record.status === "submitted") {
          states.set(number, { kind: "submitted", ticket: record.ticket ?? "", requestId, ...sent(fingerprint) });
          continue;
        }
        // An outcome speaks only for numbers whose latest request it answers.
        if (current === undefined || current.kind === "submitted" || current.requestId !== requestId) continue;
        const rejection = record.status === "rejected" ? record.rejected?.find((entry) => entry.number === number) : undefined;
        if (record.status === "unknown") {
          states.set(number, { kind: "unknown", requestId, message: record.message ?? "", ...sent(fingerprint), ...resentAfter(current) });
        } else if (rejection !== undefined) {
          states.set(number, { kind: "rejected", requestId, message: rejection.message, httpStatus: record.httpStatus ?? null, fingerprint: rejection.fingerprint });
        } else {
          // Failed, or rejected for other numbers and sent again in a request recorded after this one.
          states.delete(number);
        }
      }
    } else if (record.type === "confirmed") {
      // The service showed the port-in exists: as good as an outcome `submitted` for this number alone.
      const current = states.get(record.number);
      const fingerprint = current?.kind === "rejected" ? undefined : current?.fingerprint;
      const outside = record.outside !== true ? {} : record.refused === true ? { outside: true as const, refused: true as const } : { outside: true as const };
      states.set(record.number, { kind: "submitted", ticket: record.ticket, requestId: current?.requestId ?? "", ...outside, ...sent(fingerprint) });
    } else if (record.type === "status") {
      const { ticket, status, reason, summary, details, at } = record;
      // One object per reading, shared by the order's numbers.
      const known: KnownStatus = { ticket, status, portDate: record.portDate ?? "", reason, summary, details, at };
      for (const number of record.numbers) lastStatus.set(number, known);
    } else if (record.type === "e911-intent") {
      e911.set(record.number, { kind: "unsure", address: record.address, message: "" });
    } else if (record.type === "e911-outcome") {
      e911.set(record.number, record.status === "registered" ? { kind: "registered", address: record.address } : { kind: "unsure", address: record.address, message: record.message ?? "" });
    } else if (record.type === "ended") {
      const order: EndedOrder = { ticket: record.ticket, status: record.status, reason: record.reason, summary: record.summary, details: record.details, at: record.at };
      for (const { number, fingerprint } of record.numbers) {
        const current = states.get(number);
        // Only the number's latest order can end it: one submitted since under another ticket stands.
        const ends = current !== undefined && (current.kind === "submitted" ? current.ticket === record.ticket : current.kind !== "rejected");
        if (!ends) continue;
        states.set(number, { kind: "rejected", requestId: current.requestId, message: record.reason, httpStatus: null, fingerprint, order });
      }
    }
  };

  return { take, state: () => priorState(states, lastStatus, e911) };
}

/**
 * A request's numbers and their rows' fingerprints as its intent gave them, held while the
 * journal is read, for its outcome: a number as a double and the fingerprints as one string,
 * not a million strings of each (docs/architecture.md, Memory).
 */
class SentNumbers {
  readonly #numbers: Float64Array;
  /** Every fingerprint of FINGERPRINT_LENGTH characters, one after another; otherwise the list as it came. */
  readonly #fingerprints: string | readonly string[] | undefined;

  constructor(numbers: readonly string[], fingerprints: readonly string[] | undefined) {
    this.#numbers = Float64Array.from(numbers, Number);
    this.#fingerprints = fingerprints?.every((fingerprint) => fingerprint.length === FINGERPRINT_LENGTH) ? fingerprints.join("") : fingerprints;
  }

  get length(): number {
    return this.#numbers.length;
  }

  numberAt(i: number): string {
    return textOf(this.#numbers[i] as number);
  }

  fingerprintAt(i: number): string | undefined {
    const held = this.#fingerprints;
    return typeof held === "string" ? held.slice(i * FINGERPRINT_LENGTH, (i + 1) * FINGERPRINT_LENGTH) : held?.[i];
  }
}


/** Made outside the fold, whose closures hold every request's numbers while the journal is read: a PriorState outlives them. */
function priorState(states: NumberStates<HeldState, SharedState>, lastStatus: ReadonlyMap<string, KnownStatus>, e911: ReadonlyMap<string, E911State>): PriorState {
  const submittedUnder = (tickets: ReadonlySet<string>): Map<string, string[]> =>
    states.groupNumbers((shared) => (shared.kind === "submitted" && tickets.has(shared.ticket) ? shared.ticket : undefined));
  return { states, lastStatus, submittedUnder, e911 };
}
