/**
 * Letters of authorization (docs/contract.md §2): `portin loa` on the built-in sandbox writes
 * one PDF per customer, read back here with PDF.js as a person reads it; `plan` refuses the
 * rows of a group whose signed letter no longer lists them, and only those.
 */
import { copyFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listedNumbers, readPdfText } from "../support/pdf-text.js";
import { fixture } from "./fixtures.js";
import { NO_E911_ADDRESS } from "../../src/engine/e911-outcomes.js";
import { readResults, runCli, tempDir, writeSheet } from "./harness.js";

const HEADER =
  "number,pilot_number,offering_id,portform.CustomerName,portform.CustomerAccountNumber,portform.CustomerStreetNumber,portform.CustomerStreetName," +
  "portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider," +
  "portform.RequestedPortDate,item.Account,item.Enabled,item.Locale,item.SecondLocale";

/** A weekday years ahead: valid whenever the test runs. */
const PORT_DATE = "2030-12-10";
const ACME = `Acme Plumbing,ACME-1,12,Front St,Toronto,ON,M5J 2N1,CA,it@acme.ca,Bell Canada,${PORT_DATE},,,,`;
const ECLAIR = `Boulangerie Éclair,BE-77,1250,Boul René-Lévesque O,Montréal,QC,H3B 4W8,CA,compta@eclair.ca,Vidéotron,${PORT_DATE}`;
const PACIFIC = `Pacific Coast Realty,TEL-9,1055,West Georgia St,Vancouver,BC,V6E 3P3,CA,office@pcr.ca,TELUS Communications,${PORT_DATE},,,,`;

const acme = (number: string, pilot = "4165550100"): string => `${number},${pilot},,${ACME}`;
const eclair = (number: string, account: number): string => `${number},,OFF-RES-001,${ECLAIR},${account},yes,FrenchCA,None`;
const pacific = (number: string): string => `${number},6045550100,,${PACIFIC}`;

/** Every PDF in a folder, by file name. */
async function letters(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith(".pdf")).sort();
}

describe("portin loa", () => {
  it("writes three customers' letters, each listing exactly its numbers, account and carrier, the French one in French; an invalid row is in none", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(
      dir,
      "wave.csv",
      [
        HEADER,
        acme("416-555-0101"),
        acme("416-555-0102"),
        eclair("514-555-0201", 300101),
        acme("416-555-0103"),
        acme("416-555-0104"),
        pacific("604-555-0301"),
        acme("416-555-0110"),
        eclair("514-555-0202", 300102),
        pacific("604-555-0303"),
        // Not one of the account's trunks: invalid, so in no letter.
        acme("416-555-0199", "4165559999"),
      ].join("\n") + "\n",
    );
    const run = await runCli(["loa", sheet], { cwd: dir });
    const plan = await runCli(["plan", sheet], { cwd: dir });

    expect(run.stderr).toMatch(/line 11 \(416-555-0199\) is in no letter: pilot number 4165559999 is not one of the account's SIP trunks/);
    expect(run.code).toBe(1);
    expect(run.code).toBe(plan.code);
    const folder = join(dir, "wave.loa");
    expect(await letters(folder)).toEqual(["Acme Plumbing - ACME-1.pdf", "Boulangerie Eclair - BE-77.pdf", "Pacific Coast Realty - TEL-9.pdf"]);

    const a = await readPdfText(join(folder, "Acme Plumbing - ACME-1.pdf"));
    expect(a.pages).toHaveLength(1);
    const acmeText = a.pages[0] ?? "";
    expect(listedNumbers(acmeText).sort()).toEqual(["4165550101", "4165550102", "4165550103", "4165550104", "4165550110"]);
    expect(acmeText).toContain("416-555-0101 to 416-555-0104 (4)");
    expect(acmeText).toContain("Telephone numbers to port (5 numbers)");
    expect(acmeText).toMatch(/Customer:\s+Acme Plumbing/);
    expect(acmeText).toMatch(/Account number with the current carrier:\s+ACME-1/);
    expect(acmeText).toMatch(/Current carrier:\s+Bell Canada/);
    expect(acmeText).toMatch(/12 Front St\n.*Toronto, ON {1,3}M5J 2N1/);
    expect(acmeText).toMatch(/Requested port date:\s+2030-12-10/);
    for (const line of ["Name of the authorized person:", "Title:", "Signature:", "Date:"]) expect(acmeText).toContain(line);
    expect(a.keywords).toMatch(/^portin-loa-v1:[A-Za-z0-9_-]{22} portin-loa-numbers-v1:[A-Za-z0-9_-]{22}$/);

    const e = await readPdfText(join(folder, "Boulangerie Eclair - BE-77.pdf"));
    const eclairText = e.pages.join("\n");
    expect(listedNumbers(eclairText).sort()).toEqual(["5145550201", "5145550202"]);
    expect(eclairText).toContain("Lettre d’autorisation");
    expect(eclairText).toContain("514-555-0201 à 514-555-0202 (2)");
    expect(eclairText).toContain("Numéros de téléphone à transférer (2 numéros)");
    expect(eclairText).toMatch(/Client\s:\s+Boulangerie Éclair/);
    expect(eclairText).toMatch(/Fournisseur actuel\s:\s+Vidéotron/);
    expect(eclairText).toMatch(/Numéro de compte chez le fournisseur actuel\s:\s+BE-77/);
    expect(eclairText).toContain("1250 Boul René-Lévesque O");
    expect(eclairText).toContain("Montréal, QC");
    expect(eclairText).toMatch(/Date de transfert demandée\s:\s+2030-12-10/);
    expect(eclairText).toMatch(/Nom de la personne autorisée\s:/);
    expect(eclairText).not.toContain("Telephone numbers");

    const p = await readPdfText(join(folder, "Pacific Coast Realty - TEL-9.pdf"));
    const pacificText = p.pages.join("\n");
    expect(listedNumbers(pacificText).sort()).toEqual(["6045550301", "6045550303"]);
    expect(pacificText).toMatch(/Current carrier:\s+TELUS Communications/);
    expect(pacificText).toMatch(/Account number with the current carrier:\s+TEL-9/);

    // The invalid row's number is in no letter.
    for (const text of [acmeText, eclairText, pacificText]) expect(text).not.toContain("416-555-0199");
  });

  it("writes every letter in French with --language fr, into --output", async () => {
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "one.csv", `${HEADER}\n${acme("416-555-0101")}\n`);
    const run = await runCli(["loa", sheet, "--language", "fr", "--output", "lettres"], { cwd: dir });
    expect(run.code).toBe(0);
    const text = (await readPdfText(join(dir, "lettres", "Acme Plumbing - ACME-1.pdf"))).pages.join("\n");
    expect(text).toContain("Lettre d’autorisation");
    expect(text).toMatch(/Fournisseur actuel\s:\s+Bell Canada/);
  });

  it("asks for --output when the sheet comes on standard input, which has no folder to write beside", async () => {
    const dir = await tempDir();
    const run = await runCli(["loa", "-"], { cwd: dir, stdin: `${HEADER}\n${acme("416-555-0101")}\n` });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("portin: a sheet on standard input has no folder to write the letters beside: give --output DIR");
    expect(await readdir(dir)).toEqual([]);
  });

  it("flows a 600-number customer's letter onto several pages, each with the header, and lists every number once", async () => {
    const dir = await tempDir();
    // Every other number: 600 entries, no range to fold them into.
    const numbers = Array.from({ length: 600 }, (_, i) => String(4165551000 + 2 * i));
    const rows = numbers.map((n) => acme(`${n.slice(0, 3)}-${n.slice(3, 6)}-${n.slice(6)}`));
    const sheet = await writeSheet(dir, "big.csv", `${HEADER}\n${rows.join("\n")}\n`);
    const run = await runCli(["loa", sheet], { cwd: dir });
    expect(run.code).toBe(0);

    const letter = await readPdfText(join(dir, "big.loa", "Acme Plumbing - ACME-1.pdf"));
    expect(letter.pages.length).toBeGreaterThan(2);
    letter.pages.forEach((page, at) => {
      expect(page).toContain(at === 0 ? "Letter of Authorization" : "Letter of Authorization (continued)");
      expect(page).toMatch(/Customer:\s+Acme Plumbing/);
      expect(page).toMatch(/Account number with the current carrier:\s+ACME-1/);
      expect(page).toMatch(/Current carrier:\s+Bell Canada/);
      expect(page).toContain(`Page ${at + 1} of ${letter.pages.length}`);
    });
    expect(letter.pages[0]).toContain("Telephone numbers to port (600 numbers)");
    const listed = letter.pages.flatMap(listedNumbers);
    expect(listed).toHaveLength(600);
    expect([...listed].sort()).toEqual(numbers);
    expect(letter.pages.at(-1)).toContain("Signature:");
    expect(letter.pages.slice(0, -1).join("\n")).not.toContain("Signature:");
  });

  it("once a group's port date moves or a number is added to it, plan and submit refuse that group's rows (its letter is stale), saying which, and go on with the others; a scan is checked only for being a PDF", async () => {
    const dir = await tempDir();
    await copyFile(fixture("loa-maple-leaf-dental.pdf"), join(dir, "pacific-signed-scan.pdf"));
    const rows = [acme("416-555-0101"), acme("416-555-0102"), eclair("514-555-0201", 300101), pacific("604-555-0301")];
    const sheet = await writeSheet(dir, "wave.csv", `${HEADER}\n${rows.join("\n")}\n`);
    expect((await runCli(["loa", sheet], { cwd: dir })).code).toBe(0);

    // The letters attached, as after signing them: Pacific's by a scan portin did not make.
    const letterOf = ["wave.loa/Acme Plumbing - ACME-1.pdf", "wave.loa/Acme Plumbing - ACME-1.pdf", "wave.loa/Boulangerie Eclair - BE-77.pdf", "pacific-signed-scan.pdf"];
    const attached = (lines: readonly string[], files: readonly string[]): string =>
      `${HEADER},portform.FileLetterOfAuthorization\n${lines.map((line, at) => `${line},${files[at] ?? ""}`).join("\n")}\n`;
    await writeSheet(dir, "wave.csv", attached(rows, letterOf));
    const fresh = await runCli(["plan", sheet], { cwd: dir });
    expect(fresh.stderr).not.toMatch(/internal error/);
    expect(fresh.code).toBe(0);
    expect((await readResults(join(dir, "wave.plan.csv"))).map((row) => row.result_status)).toEqual(["planned", "planned", "planned", "planned"]);

    // The same numbers, but Acme's port date moved: the letter lists these numbers, not this date.
    const later = rows.map((line, at) => (at < 2 ? line.replace(PORT_DATE, "2030-12-17") : line));
    await writeSheet(dir, "wave.csv", attached(later, letterOf));
    const moved = await runCli(["plan", sheet], { cwd: dir });
    expect(moved.code).toBe(1);
    const values = "the letter of authorization lists these numbers, but no longer the customer, account, billing address, carrier or port date of these rows: run portin loa again and have it signed";
    expect((await readResults(join(dir, "wave.plan.csv"))).map((row) => [row.result_status, row.result_message])).toEqual([
      ["invalid", values],
      ["invalid", values],
      ["planned", ""],
      // Pacific's number is on a SIP trunk, and the sheet gives it no 9-1-1 address (docs/e911.md).
      ["planned", NO_E911_ADDRESS],
    ]);

    // A number added to Acme's rows, naming the letter signed before it was.
    await writeSheet(dir, "wave.csv", attached([...rows, acme("416-555-0103")], [...letterOf, letterOf[0] as string]));
    const stale = await runCli(["plan", sheet], { cwd: dir });
    expect(stale.code).toBe(1);
    const results = await readResults(join(dir, "wave.plan.csv"));
    const message = "the letter of authorization lists other numbers than these rows: run portin loa again and have it signed";
    expect(results.map((row) => [row.number, row.result_status, row.result_message])).toEqual([
      ["416-555-0101", "invalid", message],
      ["416-555-0102", "invalid", message],
      ["514-555-0201", "planned", ""],
      ["604-555-0301", "planned", NO_E911_ADDRESS],
      ["416-555-0103", "invalid", message],
    ]);

    // submit refuses them alike, and sends the others.
    const submitted = await runCli(["submit", sheet], { cwd: dir });
    expect(submitted.code).toBe(1);
    expect((await readResults(join(dir, "wave.sandbox.results.csv"))).map((row) => [row.number, row.result_status])).toEqual([
      ["416-555-0101", "invalid"],
      ["416-555-0102", "invalid"],
      ["514-555-0201", "submitted"],
      ["604-555-0301", "submitted"],
      ["416-555-0103", "invalid"],
    ]);

    // Made again from the sheet as it now is (its letter column naming the old letter), the letter fits again.
    expect((await runCli(["loa", sheet], { cwd: dir })).code).toBe(0);
    const again = await runCli(["plan", sheet], { cwd: dir });
    expect(again.code).toBe(0);
    // Acme's rows are planned now; the others, sent by the submit above, are skipped as sent.
    expect((await readResults(join(dir, "wave.plan.csv"))).map((row) => [row.number, row.result_status])).toEqual([
      ["416-555-0101", "planned"],
      ["416-555-0102", "planned"],
      ["514-555-0201", "skipped"],
      ["604-555-0301", "skipped"],
      ["416-555-0103", "planned"],
    ]);
  });
});
