/**
 * The report in a real browser (docs/contract.md §2 `report`): a headless Chromium opens the
 * page from file:, with every request that is not file: or data: blocked and counted, console
 * and page errors collected. The browser is the one @sparticuz/chromium carries inside its npm
 * package, so `npm install` is all this test needs: no system browser, no apt, no root.
 */
import sparticuz from "@sparticuz/chromium";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { fixture } from "./fixtures.js";
import { against, readResults, runCli, tempDir, writeSheet } from "./harness.js";
import { bigMigration, earlierReading, migrationSheet, nextMonday, rejectsWaveSheet, statusCounts, WAVE_PORTAL_ORDERS } from "./report-page.js";

const ROWS = 20_000;
/** Generous beside a busy CPU; the page aims at 2 s, and the first test prints the time it took. */
const READY_WITHIN_MS = 30_000;

let browser: Browser;
beforeAll(async () => {
  // Unpacks the package's brotli-packed browser into TMPDIR, the run's own folder (test/setup/fresh-build.ts),
  // in about 2 s; the folder goes with the run.
  const executablePath = await sparticuz.executablePath();
  browser = await chromium.launch({
    executablePath,
    // --no-sandbox: the tests may run as root (CI does), where Chromium's sandbox refuses to start.
    // The rest keep a browser that has no network to reach from trying to: updates, sync, first-run pages.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
});

interface Opened {
  readonly page: Page;
  /** Requests that were not file: or data:, blocked. */
  readonly outside: string[];
  /** Console errors (a CSP violation is one) and uncaught page errors. */
  readonly errors: string[];
  readonly readyMs: number;
}

async function open(path: string): Promise<Opened> {
  const page = await browser.newPage();
  const outside: string[] = [];
  const errors: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") || url.startsWith("data:")) return route.continue();
    outside.push(url);
    return route.abort();
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector("html[data-ready=true]", { timeout: READY_WITHIN_MS });
  const readyMs = Number(await page.getAttribute("html", "data-ready-ms"));
  return { page, outside, errors, readyMs };
}

describe("the report in headless Chromium", () => {
  let dir: string;
  let report: string;
  let opened: Opened;
  beforeAll(async () => {
    dir = await tempDir();
    const { sheet, state } = await bigMigration(dir, ROWS);
    report = join(dir, "big.report.html");
    const run = await runCli(["report", sheet, "--state", state]);
    expect(run.code).toBe(0);
    opened = await open(report);
  });

  it(`is ready for ${ROWS} rows within a generous bound, reaching for nothing and logging no error`, async () => {
    const size = (await readFile(report)).length;
    console.log(`report of ${ROWS} rows: ${(size / 1024 / 1024).toFixed(2)} MB, ready ${opened.readyMs} ms after navigation`);
    expect(opened.readyMs).toBeGreaterThan(0);
    expect(opened.readyMs).toBeLessThan(READY_WITHIN_MS);
    expect(opened.outside).toEqual([]);
    expect(opened.errors).toEqual([]);
  });

  it("shows the journal's figures: rows by status and numbers ported", async () => {
    const figure = async (selector: string) => Number(await opened.page.textContent(selector));
    // 200 orders of 100: every 20th from the 8th REJECTED, every 3rd other COMPLETED, the rest CONFIRMED.
    const rejected = 10;
    const completed = Array.from({ length: 200 }, (_, n) => n).filter((n) => n % 3 === 0 && n % 20 !== 7).length;
    expect(await figure('[data-figure="rows"]')).toBe(ROWS);
    expect(await figure('[data-status="REJECTED"]')).toBe(rejected * 100);
    expect(await figure('[data-status="COMPLETED"]')).toBe(completed * 100);
    expect(await figure('[data-status="CONFIRMED"]')).toBe((200 - rejected - completed) * 100);
    expect(await figure('[data-figure="ported"]')).toBe(completed * 100);
  });

  it("filters the row table by status and customer, and finds a number", async () => {
    const { page } = opened;
    await page.selectOption("#filter-status", "REJECTED");
    expect(await page.textContent("#rows-shown")).toBe("rows 1 to 100 of 1000 matching (20000 in the sheet)");
    const statuses = [...new Set(await page.locator("#rows-body tr td:nth-child(4)").allTextContents())];
    expect(statuses).toEqual(["REJECTED"]);
    // The rejected orders (the 8th of every 20) all fall to the third customer of five.
    await page.selectOption("#filter-customer", { label: "Pacific Coast Realty" });
    expect(await page.textContent("#rows-shown")).toBe("rows 1 to 100 of 1000 matching (20000 in the sheet)");
    await page.selectOption("#filter-customer", { label: "Harbour Freight Ltd" });
    expect(await page.textContent("#rows-shown")).toBe("no row matches");
    await page.selectOption("#filter-status", "");
    expect(await page.textContent("#rows-shown")).toBe("rows 1 to 100 of 4000 matching (20000 in the sheet)");
    const customers = [...new Set(await page.locator("#rows-body tr td:nth-child(3)").allTextContents())];
    expect(customers).toEqual(["Harbour Freight Ltd"]);
    await page.selectOption("#filter-customer", "");
    await page.fill("#filter-number", "(514) 555-0042");
    expect(await page.locator("#rows-body tr td:nth-child(2)").allTextContents()).toEqual(["5145550042"]);
  });

  it("fails the no-outside-reference check when a page holds one", async () => {
    const planted = join(dir, "planted.html");
    const html = await readFile(report, "utf8");
    await writeFile(planted, html.replace("</main>", '<img src="https://example.test/pixel.png" alt=""></main>'));
    const bad = await open(planted);
    // The page's own CSP stops the image before it leaves (a console error); were it not, the route would count it.
    expect([...bad.outside, ...bad.errors].join("\n")).toMatch(/example\.test/);
    await bad.page.close();
  });
});

describe("the report of a sandbox migration, in headless Chromium", () => {
  it("shows the status file's figures after two nights", async () => {
    const s = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 11 });
    try {
      const dir = await tempDir();
      const sheet = await migrationSheet(dir);
      const state = join(dir, "wave.state.jsonl");
      await runCli(["submit", sheet, "--state", state, ...against(s)]);
      await runCli(["status", sheet, "--state", state, ...against(s)]);
      s.advanceDays(1);
      await runCli(["status", sheet, "--state", state, ...against(s)]);
      expect((await runCli(["report", sheet])).code).toBe(0);
      const opened = await open(join(dir, "wave.report.html"));
      const shown: Record<string, number> = {};
      for (const figure of await opened.page.locator("[data-status]").all()) shown[(await figure.getAttribute("data-status")) ?? ""] = Number(await figure.textContent());
      expect(shown).toEqual(statusCounts(await readResults(join(dir, "wave.status.csv"))));
      expect(await opened.page.textContent('[data-figure="rows"]')).toBe("7");
      expect([...opened.outside, ...opened.errors]).toEqual([]);
      await opened.page.close();
    } finally {
      await s.close();
    }
  });
});

describe("the record of a migration whose rejects were fixed and resent, in headless Chromium", () => {
  it("keeps every reject and what became of it, one customer per account, Eastern times, silent orders only when silent, and finds any NANP writing", async () => {
    const start = nextMonday();
    // A week after the day the sandbox's carrier gives the CONFIRMED portal order.
    const asked = new Date(Date.parse(`${start}T12:00:00Z`) + 10 * 86_400_000).toISOString().slice(0, 10);
    const dir = await tempDir();
    const account = JSON.parse(await readFile(fixture("sandbox-account.json"), "utf8")) as Record<string, unknown>;
    const accountFile = join(dir, "account.json");
    await writeFile(accountFile, JSON.stringify({ ...account, orders: WAVE_PORTAL_ORDERS }));
    // Seed 23: the carrier rejects the first order for 6P NAME.
    const s = await startSandbox({ startDate: start, rejectRate: 1, seed: 23, accountFile });
    try {
      const sheet = await writeSheet(dir, "wave.csv", rejectsWaveSheet(false, asked));
      const state = join(dir, "wave.state.jsonl");
      const cli = (...args: string[]) => runCli([...args, sheet, "--state", state, ...against(s)]);
      const sent = await cli("submit");
      expect(sent.stderr).toMatch(/portin submit: 6 rows: 3 submitted, 3 skipped/);
      // The portal orders were read by a check twelve days ago, as they stand now.
      const longAgo = new Date(Date.now() - 12 * 86_400_000);
      await appendFile(state, earlierReading("PI-P00001", ["4165553000", "4165553001"], "SUBMITTED", longAgo));
      await appendFile(state, earlierReading("PI-P00002", ["4165553002"], "CONFIRMED", longAgo, "2099-01-05"));
      const first = await cli("status");
      // Waiting for a confirmed date is no silence; eight and more business days with no change is.
      expect(first.stderr).toMatch(/silent: PI-P00001 \(2 numbers\) SUBMITTED since \d{4}-\d{2}-\d{2}, (8|9|10) business days with no change/);
      expect(first.stderr).not.toContain("silent: PI-P00002");
      s.advanceDays(1);
      expect((await cli("status")).stderr).toContain("newly REJECTED: PI-000001 (4165552000, 4165552001, 4165552002)");
      await writeFile(sheet, rejectsWaveSheet(true, asked));
      expect((await cli("submit")).stderr).toMatch(/2 submitted/);
      await cli("status");
      s.advanceDays(1);
      const last = await cli("status", "--json");
      const json = JSON.parse(last.stdout) as { rejectedEver: number; history: { number: string; events: { ticket: string; status: string; details: string; portDate: string }[] }[] };
      expect(json.rejectedEver).toBe(3);
      const story = json.history.find((h) => h.number === "4165552000")?.events.map((e) => [e.ticket, e.status]);
      expect(story).toEqual([
        ["PI-000001", "SUBMITTED"],
        ["PI-000001", "REJECTED"],
        ["PI-000002", "SUBMITTED"],
        ["PI-000002", "CONFIRMED"],
      ]);
      expect(json.history[0]?.events[1]?.details).toMatch(/^6P NAME: /);

      const calendar = join(dir, "wave.ics");
      expect((await runCli(["report", sheet, "--state", state, "--calendar", calendar])).code).toBe(0);
      const ics = await readFile(calendar, "utf8");
      // Unfolded and unescaped as RFC 5545 §3.1 and §3.3.11 say.
      const text = ics.replace(/\r\n /g, "").replace(/\\n/gi, "\n").replace(/\\([;,\\])/g, "$1");
      const portalRow = (await readResults(join(dir, "wave.status.csv"))).find((r) => r.number === "416-555-3002");
      const portalDate = portalRow?.status_port_date ?? "";
      // status says it too, row by row.
      expect(portalRow?.status_message).toContain(`; order PI-P00002 was placed outside this journal (web portal, another sheet); the account holds ${portalDate}, not the sheet's RequestedPortDate ${asked}`);
      expect(portalDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(portalDate).not.toBe(asked);
      expect(text).toContain(`Placed outside this journal (web portal, another sheet): PI-P00002.\nThe sheet asked for ${asked}; the account holds ${portalDate}.`);
      const portDate = (json.history[0]?.events[3]?.portDate ?? "").replace(/-/g, "");
      expect(ics).toContain(`DTSTART;TZID=America/Toronto:${portDate}T093000`);
      expect(ics).toMatch(/BEGIN:VTIMEZONE\r\nTZID:America\/Toronto\r\n/);
      expect(text).toContain("Names on its rows: Credit Valley Accounting L.L.P.; Credit Valley Accounting LLP.");

      const opened = await open(join(dir, "wave.report.html"));
      const { page } = opened;
      expect(await page.textContent('[data-figure="rejected-ever"]')).toBe("3");
      // The portal's orders are marked, and the one date the account holds apart from the sheet's is named.
      expect(await page.textContent('[data-figure="outside"]')).toBe("3");
      expect(await page.locator("#dates-differ tbody tr td").allTextContents()).toEqual(["7", "4165553002", "Harbourfront Logistics Inc.", "PI-P00002placed outside this journal", asked, portalDate]);
      expect(await page.textContent('[data-figure="resent"]')).toBe("2");
      expect(await page.textContent("#rejects")).not.toContain("No order was rejected by the carrier");
      expect(await page.textContent("#rejects summary")).toBe("3 numbers: 6P NAME");
      // One customer per account, each with the names it went by.
      expect(await page.locator("#progress h3").allTextContents()).toEqual(["Credit Valley Accounting L.L.P.", "Harbourfront Logistics Inc."]);
      expect(await page.locator("#progress .who").allTextContents()).toEqual([
        "account CV-77 at Bell Canada; also written “Credit Valley Accounting LLP”",
        "account HL-9 at Bell Canada; also written “Harbourfront Logistics Incorporated”",
      ]);
      expect(await page.textContent("header p")).toMatch(/^Made \d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T .*latest status check \d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T\. Times are Eastern \(America\/Toronto\)/);
      const silent = await page.locator("#waiting tr.silent td:first-child").allTextContents();
      expect(silent).toEqual(["PI-P00001placed outside this journal"]);
      expect(await page.textContent("#waiting")).toContain("waiting for its port date");
      for (const writing of ["+1 416 555 2000", "(416) 555-2000", "416.555.2000", "1-416-555-2000"]) {
        await page.fill("#filter-number", writing);
        expect(await page.locator("#rows-body tr td:nth-child(2)").allTextContents()).toEqual(["4165552000"]);
      }
      const history = await page.textContent("#rows-body tr td:nth-child(8)");
      expect(history).toMatch(/^PI-000001 SUBMITTED \d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T; REJECTED \S+ \S+ E[SD]T \(6P NAME\); PI-000002 SUBMITTED \S+ \S+ E[SD]T; CONFIRMED \S+ \S+ E[SD]T for \d{4}-\d{2}-\d{2}$/);
      expect([...opened.outside, ...opened.errors]).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  });
});
