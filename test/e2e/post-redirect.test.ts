/**
 * docs/contract.md §4: a POST answered 3xx or 408 committed nothing. Its rows are `failed` and the
 * next run sends them, never a sticky `rejected`; no redirect is followed for a POST.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { readResults, runCli, tempDir } from "./harness.js";
import { numbers, postedNumbers, ticketsByNumber, trunkSheetOf } from "./ledger.js";
import { faultyProxy, through } from "./proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const isPortInPost = (method: string, path: string): boolean => method === "POST" && path.includes("/NumberPorts/Inbound/");

/** A server that would accept anything: a redirect that reached it would have carried the credentials. */
async function elsewhere(): Promise<{ url: string; arrivals: string[] }> {
  const arrivals: string[] = [];
  const server = createServer((req, res) => {
    arrivals.push(`${req.method ?? "?"} ${req.url ?? ""}`);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ TicketMask: "PI-ELSEWHERE", Reply: 1, Message: "" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

describe("a POST answered with a redirect or 408", () => {
  it.each([301, 302, 307, 408])("marks the rows failed on %i, follows nothing, and the next run sends them", async (status) => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const proxy = await faultyProxy(s);
    cleanups.push(() => proxy.close());
    const other = await elsewhere();
    const dir = await tempDir();
    const state = join(dir, "acme.state.jsonl");
    const list = numbers(3, 6100);
    const sheet = await trunkSheetOf(dir, "acme.csv", list);
    const headers: Record<string, string> = status === 408 ? {} : { location: `${other.url}/v2/NumberPorts/Inbound/DIDs` };
    proxy.rule = (method, path) => (isPortInPost(method, path) ? { status, headers } : "forward");

    const first = await runCli(["submit", sheet, "--state", state, ...through(proxy, s)]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("3 rows: 3 failed");
    expect(other.arrivals).toEqual([]);
    expect(s.received()).toHaveLength(0);
    for (const row of await readResults(join(dir, "acme.results.csv"))) {
      expect(row).toMatchObject({ result_status: "failed", result_http_status: String(status) });
    }

    proxy.rule = () => "forward";
    const second = await runCli(["submit", sheet, "--state", state, ...through(proxy, s)]);
    expect(second.stderr).not.toContain("rejected");
    expect(second.code).toBe(0);
    expect(second.stderr).toContain("3 rows: 3 submitted");
    expect(postedNumbers(s).sort()).toEqual([...list].sort());
    expect(ticketsByNumber(s).size).toBe(3);
  });
});
