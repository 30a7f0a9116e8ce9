/**
 * `portin report` (docs/contract.md §2 `report`): the built CLI, after real submit and status
 * runs against a sandbox whose calendar moves on; the page's figures against the status file,
 * its outside references, escaping, and the calendar parsed back.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { against, readResults, runCli, tempDir } from "./harness.js";
import { migrationSheet, outsideReferences, pageFigures, statusCounts } from "./report-page.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function sandboxed(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ startDate: "2026-03-02", rejectRate: 0, seed: 11 });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

describe("portin report after two nights", () => {
  it("shows the status file's figures, escapes the sheet's values, reaches for nothing outside, and puts the CONFIRMED port dates in the calendar", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await migrationSheet(dir);
    const state = join(dir, "wave.state.jsonl");
    expect((await runCli(["submit", sheet, "--state", state, ...against(s)])).code).toBe(1);
    expect((await runCli(["status", sheet, "--state", state, ...against(s)])).code).toBe(0);
    s.advanceDays(1);
    expect((await runCli(["status", sheet, "--state", state, ...against(s)])).code).toBe(0);
    const statusRows = await readResults(join(dir, "wave.status.csv"));

    const ics = join(dir, "wave.ics");
    const run = await runCli(["report", sheet, "--calendar", ics]);
    expect(run.stderr).toContain("portin report: 7 rows, 0 numbers ported; wrote");
    expect(run.code).toBe(0);
    const page = join(dir, "wave.report.html");
    expect((await stat(page)).mode & 0o777).toBe(0o600);
    const html = await readFile(page, "utf8");

    expect(pageFigures(html)).toEqual(statusCounts(statusRows));
    expect(pageFigures(html)).toEqual({ CONFIRMED: 6, "not-submitted": 1 });
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+';/);
    expect(outsideReferences(html)).toEqual([]);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; Sons");
    expect(html).toContain("letter O for zero");

    const confirmed = statusRows.filter((r) => r.status === "CONFIRMED");
    const calendar = new ICAL.Component(ICAL.parse(await readFile(ics, "utf8")) as unknown[]);
    const events = calendar.getAllSubcomponents("vevent").map((e) => new ICAL.Event(e));
    expect(events).toHaveLength(2);
    const listed = events.flatMap((e) => e.description.split("\n").filter((line) => /^\d{10}$/.test(line)).map((n) => [n, e.startDate.toString().slice(0, 10)]));
    expect(listed.sort()).toEqual(confirmed.map((r) => [r.number!.replace(/\D/g, ""), r.status_port_date]).sort());
    const windowed = events.find((e) => !e.startDate.isDate);
    expect(windowed?.startDate.toString()).toBe(`${confirmed[0]!.status_port_date}T09:30:00`);
    // RequestedPortTime is Eastern: the event says so, and a calendar in another zone moves it.
    expect(windowed?.component.getFirstProperty("dtstart")?.getParameter("tzid")).toBe("America/Toronto");
    expect(calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe("America/Toronto");
    expect(windowed?.summary).toBe("Port-in: 3 numbers for Acme Plumbing");
    expect(events.find((e) => e.startDate.isDate)?.summary).toBe("Port-in: 3 numbers for <img src=x onerror=alert(1)> & Sons");
  });

  it("finds an outside reference planted in a page", () => {
    const clean = '<p>ok</p><svg><rect class="x"/></svg><a href="#rows">rows</a>';
    expect(outsideReferences(clean)).toEqual([]);
    expect(outsideReferences(`${clean}<img src="https://example.test/p.png">`)).toEqual(['src="https://example.test/p.png"']);
    expect(outsideReferences(`${clean}<style>body{background:url(//example.test/x)}</style>`)).toEqual(["url(//example.test/x)"]);
  });

  it("names the sandbox's page apart, and refuses an output that is the sheet", async () => {
    const dir = await tempDir();
    const sheet = await migrationSheet(dir);
    const state = join(dir, "wave.state.jsonl");
    expect((await runCli(["submit", sheet, "--state", state])).code).toBe(1);
    const run = await runCli(["report", sheet]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`wrote ${join(dir, "wave.sandbox.report.html")}`);
    const refused = await runCli(["report", sheet, "--output", sheet]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--output ${sheet} is also the input sheet: give --output another path`);

    // A destination that exists and is not a regular file (a FIFO here; /dev/full for a root user) is refused, and left as it was.
    const fifo = join(dir, "pipe.csv");
    execFileSync("mkfifo", [fifo]);
    const page = join(dir, "page.html");
    const [output, calendar, results] = await Promise.all([
      runCli(["report", sheet, "--output", fifo]),
      runCli(["report", sheet, "--output", page, "--calendar", fifo]),
      runCli(["plan", sheet, "--results", fifo]),
    ]);
    expect([output.code, calendar.code, results.code]).toEqual([2, 2, 2]);
    expect(output.stderr).toContain(`portin: cannot write the report to ${fifo}: it is a FIFO (named pipe), not a regular file; portin writes only files of its own (use --output PATH)\n`);
    expect(calendar.stderr).toContain(`portin: cannot write the calendar to ${fifo}: it is a FIFO (named pipe), not a regular file; portin writes only files of its own (use --calendar PATH)\n`);
    expect(results.stderr).toContain(`portin: cannot write results to ${fifo}: it is a FIFO (named pipe), not a regular file; portin writes only files of its own (use --results PATH)\n`);
    expect((await stat(fifo)).isFIFO()).toBe(true);
    expect(existsSync(page)).toBe(false);
  });
});
