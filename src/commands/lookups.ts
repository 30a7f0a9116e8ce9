/**
 * `portin trunks`, `portin offerings`, `portin providers` (docs/contract.md §2): one lookup each, as an
 * aligned table or, with --json, the normalized objects.
 */
import type { Argv } from "yargs";
import { OFFERING_TYPES, isOfferingType } from "../catalog/operations.js";
import type { ServiceClient } from "../service/client.js";
import type { PortinCommand } from "./command.js";
import { COMMAND_LINES } from "./names.js";
import { connect, withConnectionOptions } from "./connection.js";
import type { ConnectionArgs } from "./connection.js";
import { terminalSafe } from "../terminal-text.js";

export interface LookupArgs extends ConnectionArgs {
  json: boolean;
}

interface LookupSpec<T> {
  readonly name: "trunks" | "offerings" | "providers";
  /** A command line and what it does, for `--help`. */
  readonly example: readonly [string, string];
  readonly fetch: (client: ServiceClient) => Promise<T[]>;
  readonly headers: readonly string[];
  readonly row: (item: T) => readonly string[];
}

function lookupCommand<T>(spec: LookupSpec<T>): PortinCommand<LookupArgs> {
  return {
    ...COMMAND_LINES[spec.name],
    builder: (yargs: Argv) =>
      withConnectionOptions(yargs)
        .options({ json: { type: "boolean", default: false, describe: "print a JSON array instead of a table" } })
        .example(...spec.example),
    run: async (args, io) => {
      const connection = await connect(args, io);
      try {
        // A lookup is read-only: on SIGINT/SIGTERM there is nothing to finish, so stop waiting.
        const interrupted = new Promise<null>((resolve) => io.signal.addEventListener("abort", () => resolve(null), { once: true }));
        const fetched = spec.fetch(connection.client);
        fetched.catch(() => undefined); // its outcome no longer matters once interrupted
        const items = io.signal.aborted ? null : await Promise.race([fetched, interrupted]);
        if (items === null) return { kind: "interrupted", signal: String(io.signal.reason) };
        // JSON escapes control characters itself; the table shows the service's labels escaped too.
        io.stdout.write(args.json ? `${JSON.stringify(items, null, 2)}\n` : terminalSafe(table(spec.headers, items.map(spec.row))));
        return { kind: "done" };
      } finally {
        await connection.close();
      }
    },
  };
}

/** Columns padded to their widest cell, two spaces apart, no trailing spaces. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd() + "\n").join("");
}

export const trunksCommand = lookupCommand({
  name: "trunks",
  example: ["$0 trunks", "the built-in sandbox's trunks: the pilot numbers a sheet's pilot_number may name"],
  fetch: (client) => client.trunks(),
  headers: ["PILOT NUMBER", "LABEL"],
  row: (t) => [t.pilotNumber, t.label],
});

export const offeringsCommand = lookupCommand({
  name: "offerings",
  example: ["$0 offerings --json", "the offerings a sheet's offering_id may name, as JSON (the built-in sandbox's without --base-url)"],
  fetch: (client) => client.offerings(),
  headers: ["OFFERING ID", "TYPE", "TYPE NAME", "PRODUCT NAME"],
  row: (o) => [o.offeringId, String(o.type), isOfferingType(o.type) ? OFFERING_TYPES[o.type] : "(not a port-in type)", o.name],
});

export const providersCommand = lookupCommand({
  name: "providers",
  example: ["$0 providers --base-url https://api.thinktel.ca/rest.svc --user acme", "the account's losing carriers: the IDs and names portform.CurrentProvider takes"],
  fetch: (client) => client.providers(),
  headers: ["ID", "NAME"],
  row: (p) => [String(p.id), p.name],
});
