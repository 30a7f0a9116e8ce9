/** What a test sandbox was sent and accepted, counted per number, for re-run tests and drills. */
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { FORM_CELLS, FORM_HEADER, writeSheet } from "./harness.js";

/** The numbers of every port-in POST received, in order, as 10-digit strings (one entry per sending). */
export function postedNumbers(sandbox: RunningSandbox, from = 0): string[] {
  return sandbox
    .received()
    .slice(from)
    .flatMap((post) => {
      const form = (post.body as { PortForm?: { NumbersToPort?: unknown } } | undefined)?.PortForm;
      return Array.isArray(form?.NumbersToPort) ? form.NumbersToPort.map(String) : [];
    });
}

/** How many times the service accepted each number. */
export function acceptedCounts(sandbox: RunningSandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of sandbox.accepted()) for (const number of request.numbers) counts.set(number, (counts.get(number) ?? 0) + 1);
  return counts;
}

/** The ticket the service gave each number. */
export function ticketsByNumber(sandbox: RunningSandbox): Map<string, string> {
  return new Map(sandbox.accepted().flatMap((request) => request.numbers.map((number) => [number, request.ticket] as const)));
}

/** `count` distinct portable numbers, 416-555-2000 onwards (416-555-01xx are the sandbox's unportable ones). */
export function numbers(count: number, first = 2000): string[] {
  return Array.from({ length: count }, (_, i) => `416555${String(first + i).padStart(4, "0")}`);
}

/** A sheet of trunk rows for `list`, with an optional `group` label column. */
export async function trunkSheetOf(dir: string, name: string, list: readonly string[], group?: string): Promise<string> {
  const header = `${group === undefined ? "" : "group,"}number,pilot_number,${FORM_HEADER}`;
  const lines = list.map((n) => `${group === undefined ? "" : `${group},`}${n.slice(0, 3)}-${n.slice(3, 6)}-${n.slice(6)},4165550100,${FORM_CELLS}`);
  return writeSheet(dir, name, `${header}\n${lines.join("\n")}\n`);
}
