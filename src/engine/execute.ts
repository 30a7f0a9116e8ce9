/**
 * Stage 3 of a run, execute: send the planned requests (send/dispatch.ts), each body built
 * by the service's one body builder. A dry run has no such stage.
 */
import type { Journal } from "../journal/journal.js";
import { newRequestId } from "../journal/journal.js";
import { stateOf } from "../journal/prior.js";
import type { PortRequest } from "../group/requests.js";
import { dispatch } from "../send/dispatch.js";
import type { DispatchOptions, DispatchProgress, DispatchReport } from "../send/dispatch.js";
import type { RunProgress } from "./progress.js";
import { buildBody } from "../service/body.js";
import type { ServiceClient } from "../service/client.js";

export interface ExecuteOptions {
  readonly client: ServiceClient;
  readonly journal: Journal | null;
  readonly concurrency: number;
  readonly rate: number | null;
  readonly signal: AbortSignal;
  readonly progress?: RunProgress | null;
  /** Of a rejected request's other numbers, those an order already holds (pending-answers.ts). */
  readonly othersHeld?: DispatchOptions["othersHeld"];
}

export function execute(requests: readonly PortRequest[], options: ExecuteOptions): Promise<DispatchReport> {
  const prior = options.journal?.prior ?? null;
  return dispatch(requests, {
    submit: (request) => options.client.submit(request.operation, buildBody(request)),
    connect: (count) => options.client.connect(count),
    journal: options.journal,
    // Numbers the journal holds nothing for: a withdrawn intent's `failed` outcome leaves them so.
    // Others (pending, unknown, rejected, sent again by a flag) keep their intent for their turn.
    writeAhead: (request) => request.numbers.every((row) => stateOf(prior, row.number).kind === "none"),
    newRequestId,
    concurrency: options.concurrency,
    ratePerSecond: options.rate,
    signal: options.signal,
    ...(options.progress == null ? {} : { progress: countInto(options.progress) }),
    ...(options.othersHeld === undefined ? {} : { othersHeld: options.othersHeld }),
  });
}

function countInto(progress: RunProgress): DispatchProgress {
  return {
    started: () => {
      progress.inFlight++;
    },
    finished: () => {
      progress.inFlight--;
      progress.sent++;
    },
    added: () => {
      progress.requests++;
    },
  };
}
