import { Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openCommandSheet } from "../../src/commands/sheet-input.js";
import type { CommandIO } from "../../src/io.js";
import { fixture } from "../e2e/fixtures.js";

/** A CommandIO whose standard input counts its reads: node makes process.stdin's stream at its first read. */
function countingIO(text: string): { io: CommandIO; reads: () => number } {
  let reads = 0;
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  const io: CommandIO = {
    stdout: nowhere,
    stderr: nowhere,
    get stdin() {
      reads += 1;
      return Readable.from([text]);
    },
    signal: new AbortController().signal,
  };
  return { io, reads: () => reads };
}

async function rowCount(sheet: Awaited<ReturnType<typeof openCommandSheet>>["sheet"]): Promise<number> {
  const numbers: number[] = [];
  for await (const row of sheet.rows) numbers.push(row.line);
  return numbers.length;
}

describe("openCommandSheet", () => {
  it("leaves standard input unread when the sheet is a file", async () => {
    const { io, reads } = countingIO("number\n4165550101\n");
    const { sheet } = await openCommandSheet({ input: fixture("sample.csv"), encoding: "utf-8", expandRanges: false }, io);
    expect(await rowCount(sheet)).toBeGreaterThan(30);
    expect(reads()).toBe(0);
  });

  it("reads standard input for a sheet named -", async () => {
    const { io, reads } = countingIO("number,pilot_number\n4165550101,4165550100\n4165550102,4165550100\n");
    const { sheet } = await openCommandSheet({ input: "-", encoding: "utf-8", expandRanges: false }, io);
    expect(await rowCount(sheet)).toBe(2);
    expect(reads()).toBe(1);
  });
});
