/**
 * docs/contract.md §7: control characters from a sheet or the service are printed escaped on
 * stderr, never passed to the terminal to interpret (a header that retitles and clears the
 * screen, or `\e[8m` that hides the rest of the output).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/terminal-text.js";
import { against, FORM_CELLS, FORM_HEADER, runCli, tempDir, writeSheet } from "./harness.js";
import { sandboxPerTest } from "./sandboxed.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const sandboxed = sandboxPerTest();

/** Any ESC, BEL, C1 CSI or bidi override that reached stderr as itself. */
// eslint-disable-next-line no-control-regex -- the characters this test looks for
const RAW_CONTROL = /[\u001b\u0007\u009b\u202e]/;

describe("control characters from a sheet or the service", () => {
  it("escapes a customer's headers in the notice of columns copied to the results, and still writes them to the results as they are", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,${FORM_HEADER},"note\u001b]0;X\u0007\u001b[2J",hidden\u001b[8m,\u202Eevil\n416-555-3300,4165550100,${FORM_CELLS},a,b,c\n`);
    const run = await runCli(["plan", sheet, "--results", "-", ...against(s)]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain("portin: copied to the results, never sent: note\\x1b]0;X\\x07\\x1b[2J, hidden\\x1b[8m, \\u202eevil (item.Email?)\n");
    // JSON.stringify leaves the bidi override as it is: escaped here too.
    expect(run.stderr).toContain(`"columns": {"\\u202eevil":"item.Email"}`);
    // The results are data, not terminal output: the header is copied byte for byte.
    expect(run.stdout).toContain("note\u001b]0;X\u0007\u001b[2J");
  });

  it("escapes an unknown member named in a refusal", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "acme.csv", `number,pilot_number,portform.Bogus\u001b[8m\n416-555-3301,4165550100,x\n`);
    const run = await runCli(["plan", sheet, "--results", "-"]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain("Bogus\\x1b[8m");
  });

  it("escapes a service's message quoted in a refusal", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ ID: "Unauthorized", Message: "denied\u001b[2J\u001b]0;pwned\u0007\u009b8m" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const run = await runCli(["trunks", "--base-url", url, "--user", "u", "--password", "p"]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain("denied\\x1b[2J\\x1b]0;pwned\\x07\\x9b8m");
  });
});

describe("a sheet whose file name holds terminal escapes and a line feed", () => {
  it("prints the name escaped, on the message's own line, in the sandbox's, the forgotten PORTIN_BASE_URL's and report's messages", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const name = "acme\u001b[2J\nportin: all ported";
    const sheet = await writeSheet(dir, `${name}.csv`, `number,pilot_number,${FORM_HEADER}\n416-555-3310,4165550100,${FORM_CELLS}\n`);
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    // PORTIN_BASE_URL forgotten: the built-in sandbox answers beside a real migration's journal; report reads that journal.
    const [sandboxRun, report] = await Promise.all([runCli(["submit", sheet]), runCli(["report", sheet])]);
    expect([sandboxRun.code, report.code]).toEqual([0, 0]);
    const escaped = join(dir, "acme\\x1b[2J\\x0aportin: all ported");
    for (const run of [sandboxRun, report]) {
      expect(run.stderr).not.toMatch(RAW_CONTROL);
      // Every line is one of portin's own: none begins with the file name's second half.
      expect(run.stderr.split("\n").filter((line) => line.startsWith("portin: all ported"))).toEqual([]);
    }
    expect(sandboxRun.stderr).toContain(`portin: the built-in sandbox keeps its orders in ${escaped}.sandbox.orders.json;`);
    expect(sandboxRun.stderr).toContain(`(${escaped}.state.jsonl): did you mean to set PORTIN_BASE_URL?`);
    expect(sandboxRun.stderr).toContain(`writes ${escaped}.sandbox.results.csv\n`);
    expect(report.stderr).toMatch(new RegExp(`wrote ${escaped.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.report\\.html \\(\\d+ KB\\)\n`));
  });
});

describe("terminalSafe", () => {
  it("keeps line feeds, tabs and text in any script, and escapes the rest of C0, DEL, C1 and bidi controls", () => {
    expect(terminalSafe("a\tb\nQuébec 東京")).toBe("a\tb\nQuébec 東京");
    expect(terminalSafe("\r\u0000\u007f\u0085\u200f\u2066")).toBe("\\x0d\\x00\\x7f\\x85\\u200f\\u2066");
  });
});
