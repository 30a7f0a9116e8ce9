import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PLAIN_EVERY_MS, showProgress } from "../../src/commands/progress-display.js";
import { RunProgress } from "../../src/engine/progress.js";

/** stderr as a test sees it: what was written, and whether it claims to be a terminal. */
function stderr(isTTY: boolean): Writable & { text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { isTTY, columns: 120, text: () => text });
}

const ESC = "\u001b";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The fake timers move Date.now along with the timers they fire. */
const clock = (): number => Date.now();

function advance(ms: number): void {
  vi.advanceTimersByTime(ms);
}

function sending(): RunProgress {
  return Object.assign(new RunProgress(), { phase: "sending", rows: 1300, requests: 13, sent: 0, inFlight: 0, retried: 0 });
}

describe("progress off a terminal (cron)", () => {
  it("writes one plain line at most every 10 s, with rate and ETA, and no control codes", () => {
    const out = stderr(false);
    const progress = sending();
    const display = showProgress(progress, out, { isTTY: false, quiet: false, now: clock });
    advance(PLAIN_EVERY_MS - 1);
    expect(out.text()).toBe("");
    Object.assign(progress, { sent: 4, inFlight: 2, retried: 1 });
    advance(1);
    expect(out.text()).toBe("portin: sending: 4/13 requests sent, 2 in flight, 1 retried, 0.4 requests/s, ETA 23 s\n");
    Object.assign(progress, { sent: 9, inFlight: 4 });
    advance(PLAIN_EVERY_MS * 2.5);
    display.stop();
    advance(PLAIN_EVERY_MS * 3);
    const lines = out.text().trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("portin: sending: 9/13 requests sent, 4 in flight, 1 retried, 0.3 requests/s, ETA 13 s");
    expect(out.text()).not.toContain(ESC);
  });

  it("says the run is looking up the account before it reads any row, not that it read 0 rows", () => {
    const out = stderr(false);
    const progress = new RunProgress();
    const display = showProgress(progress, out, { isTTY: false, quiet: false, now: clock });
    advance(PLAIN_EVERY_MS);
    display.stop();
    expect(out.text()).toBe("portin: looking up the account: trunks, offerings and providers\n");
  });

  it("says which phase the run is in, counting rows while reading", () => {
    const out = stderr(false);
    const progress = Object.assign(new RunProgress(), { phase: "reading", rows: 250_000 });
    const display = showProgress(progress, out, { isTTY: false, quiet: false, now: clock });
    advance(PLAIN_EVERY_MS);
    display.stop();
    expect(out.text()).toBe("portin: reading: 250,000 rows read and checked, 25,000 rows/s\n");
  });
});

describe("progress on a terminal", () => {
  it("draws a bar in place with what was sent, what is in flight and retried, and clears it at the end", () => {
    const out = stderr(true);
    const progress = sending();
    const display = showProgress(progress, out, { isTTY: true, quiet: false, now: clock });
    Object.assign(progress, { sent: 6, inFlight: 4, retried: 2 });
    advance(2_000);
    const drawn = out.text();
    expect(drawn).toContain(`${ESC}[?25l`); // cursor hidden while drawing
    expect(drawn).toMatch(/portin sending =+-+ 46% \| 6\/13 requests sent, 4 in flight, 2 retried, 3\.0 requests\/s, ETA 2 s/);
    display.stop();
    expect(out.text().slice(drawn.length)).toContain(`${ESC}[2K`); // the line cleared for the summary
    expect(out.text()).toContain(`${ESC}[?25h`); // and the cursor given back
  });
});

describe("--quiet", () => {
  it.each([true, false])("shows nothing, on a terminal (%s) or off one", (isTTY) => {
    const out = stderr(isTTY);
    const display = showProgress(sending(), out, { isTTY, quiet: true, now: clock });
    advance(PLAIN_EVERY_MS * 3);
    display.stop();
    expect(out.text()).toBe("");
  });
});
