/**
 * The report in a real browser (docs/contract.md §2 `report`): a headless Chromium opens the
 * page from file:, with every request that is not file: or data: blocked and counted, console
 * and page errors collected. The browser is the one @sparticuz/chromium carries inside its npm
 * package, so `npm install` is all this test needs: no system browser, no apt, no root.
 */
import sparticuz from "@sparticuz/chromium";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "./harness.js";
import { bigMigration, migrationSheet, statusCounts } from "./report-page.js";

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
