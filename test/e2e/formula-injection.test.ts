/**
 * Formula-injection payloads (docs/contract.md §6, "Formula defusing") in every place a results
 * cell comes from — the sheet's header and cells, a number that does not parse, and the
 * service's ticket and message — and every cell of the results, read back as a spreadsheet
 * reads them, checked not to start a formula (SPEC §6, with its phone-number exemption).
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FORMULA_PAYLOADS, runsAsFormula } from "../support/formula-payloads.js";
import { TOLL_FREE_PORT_FORM } from "../support/port-form.js";
import { runCli, tempDir, writeSheet } from "./harness.js";

let server: Server;
let url = "";
beforeAll(async () => {
  // A service whose answers carry the payloads back: the ticket and message are the customer's name.
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      const path = (req.url ?? "").replace(/^\//, "");
      const lookups: Record<string, unknown> = { SipTrunks: [{ Number: 4165550100 }], "Products/TelephoneOfferings": [], "NumberPorts/Providers": [{ ID: 17, Name: "Bell Canada" }] };
      res.writeHead(200, { "content-type": "application/json" });
      if (req.method === "GET") return void res.end(JSON.stringify(lookups[path] ?? []));
      const { PortForm: form } = JSON.parse(body) as { PortForm: { CustomerName: string; NumbersToPort: number[] } };
      const name = form.CustomerName;
      // Even numbers are deferred with the name as ticket; odd ones rejected with the name as the whole message.
      const even = (form.NumbersToPort[0] ?? 0) % 2 === 0;
      res.end(JSON.stringify(even ? { TicketMask: name, Reply: 2, Message: name } : { TicketMask: "", Reply: 0, Message: name }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const csv = (cell: string): string => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

async function payloadSheet(): Promise<{ dir: string; sheet: string }> {
  const dir = await tempDir();
  const header = ["number", "pilot_number", "note", "portform.CustomerName", "=cmd|' /C calc'!A0", "@SUM(1+1)", "group"];
  // One request a row (group), so that each row meets the service's answer to its own payload.
  const rows = FORMULA_PAYLOADS.map(({ text }, i) => [`416-555-${String(7000 + i)}`, "4165550100", text, text, text, text, `g${i}`]);
  // A number cell that is itself a payload: invalid, and its message quotes it.
  rows.push(["=cmd|' /C calc'!A0", "4165550100", "x", "Acme", "", "", "g"]);
  const sheet = await writeSheet(dir, "payloads.csv", [header, ...rows].map((r) => r.map(csv).join(",")).join("\n") + "\n");
  await writeSheet(dir, "payloads.defaults.json", JSON.stringify({ portForm: { ...TOLL_FREE_PORT_FORM, CurrentProvider: 17 } }));
  return { dir, sheet };
}

function expectNoFormula(results: string): string[][] {
  const records: string[][] = parse(results, { bom: true });
  expect(records).toHaveLength(FORMULA_PAYLOADS.length + 2);
  for (const [r, record] of records.entries()) {
    for (const [c, cell] of record.entries()) expect(runsAsFormula(cell), `row ${r} column ${c}: ${JSON.stringify(cell)}`).toBe(false);
  }
  return records;
}

const flags = () => ["--base-url", url, "--user", "acme", "--password", "formula-test-pw"];

it("defuses every payload in every results cell, from the sheet and from the service", async () => {
  const { dir, sheet } = await payloadSheet();
  const run = await runCli(["submit", sheet, ...flags(), "--state", join(dir, "payloads.state.jsonl")]);
  expect(run.code).toBe(1);
  const records = expectNoFormula(await readFile(join(dir, "payloads.results.csv"), "utf8"));
  const [header, ...rows] = records;
  expect(header?.slice(0, 6)).toEqual(["number", "pilot_number", "note", "portform.CustomerName", "'=cmd|' /C calc'!A0", "'@SUM(1+1)"]);
  const at = (name: string) => header?.indexOf(name) ?? -1;
  for (const [i, { text, phoneLike }] of FORMULA_PAYLOADS.entries()) {
    const row = rows[i] ?? [];
    const defused = phoneLike ? text : `'${text}`;
    expect(row[at("note")], text).toBe(defused);
    // The name reached the service trimmed (SPEC §3 cells are trimmed), and came back as ticket or message.
    const sent = text.trim();
    const back = runsAsFormula(sent) ? `'${sent}` : sent;
    if (i % 2 === 0) {
      expect(row[at("result_status")], text).toBe("submitted");
      expect(row[at("result_ticket")], text).toBe(back);
    } else {
      expect(row[at("result_status")], text).toBe("rejected");
      // A rejected port needs no 9-1-1 advice: the service's words alone, defused.
      expect(row[at("result_message")], text).toBe(back);
    }
  }
  // A message quoting a payload starts with the quote mark, which runs nothing.
  expect(rows.at(-1)?.[at("result_message")]).toMatch(/^"=cmd\|' \/C calc'!A0" is not a valid NANP number/);
});

it("defuses them the same way when the sheet comes from standard input and the results go to standard output", async () => {
  const { dir, sheet } = await payloadSheet();
  const defaults = ["--defaults", join(dir, "payloads.defaults.json")];
  const fromFile = await runCli(["plan", sheet, ...flags(), ...defaults, "--results", "-"]);
  const fromStdin = await runCli(["plan", "-", ...flags(), ...defaults], { stdin: await readFile(sheet, "utf8"), cwd: dir });
  expect([fromFile.code, fromStdin.code]).toEqual([1, 1]);
  // The fast path copies a row's text from the file; standard input's rows are stringified: same cells.
  expect(expectNoFormula(fromStdin.stdout)).toEqual(expectNoFormula(fromFile.stdout));
});
