import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSheet } from "../../src/input/sheet.js";
import type { SheetLayout, SheetRow } from "../../src/input/types.js";
import { afterAll } from "vitest";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` to a fresh temp dir and returns its path. */
export function sheetFile(text: string | Buffer, name = "sheet.csv"): string {
  const dir = mkdtempSync(join(tmpdir(), "portin-input-"));
  made.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export async function readAll(path: string): Promise<{ layout: SheetLayout; rows: SheetRow[] }> {
  const { layout, rows } = await openSheet(path);
  const all: SheetRow[] = [];
  for await (const row of rows) all.push(row);
  return { layout, rows: all };
}

/** The message of what `promise` rejects with, and its class name. */
export async function refusal(promise: Promise<unknown>): Promise<{ name: string; message: string; exitCode: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { exitCode?: unknown };
    return { name: e.name, message: e.message, exitCode: e.exitCode };
  }
  throw new Error("expected a refusal, but it succeeded");
}
