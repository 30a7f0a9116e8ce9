import { existsSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { CellSpool } from "../../src/input/spool.js";

function spools(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith("portin-cells-"));
}

async function keepAll(spool: CellSpool, rows: readonly (readonly [number, readonly string[]])[]): Promise<void> {
  for (const [index, cells] of rows) await spool.keep(index, cells);
}

describe("CellSpool", () => {
  it("keeps its temporary file readable by its owner only (0600, in a 0700 folder) under umask 022", async () => {
    const before = new Set(spools());
    const umask = process.umask(0o022);
    const spool = new CellSpool();
    try {
      for (let i = 0; i < 60_000; i++) await spool.keep(i, [String(i), "Acme Plumbing, 12 Front St, Toronto"]);
      const [created] = spools().filter((name) => !before.has(name));
      expect(created).toBeDefined();
      const dir = `${tmpdir()}/${created ?? ""}`;
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(readdirSync(dir).map((name) => statSync(`${dir}/${name}`).mode & 0o777)).toEqual([0o600]);
    } finally {
      process.umask(umask);
      await spool.close();
    }
  });

  it("gives back the rows it kept, and nothing for rows it did not, without touching the disk for a few", async () => {
    const before = spools();
    const spool = new CellSpool();
    await keepAll(spool, [
      [1, ["4165550101", "=1+1"]],
      [4, ["", "x"]],
    ]);
    expect(spools()).toEqual(before);
    expect(await spool.get(0)).toBeUndefined();
    expect(await spool.get(1)).toEqual(["4165550101", "=1+1"]);
    expect(await spool.get(2)).toBeUndefined();
    expect(await spool.get(4)).toEqual(["", "x"]);
    await spool.close();
  });

  it("moves to a temporary file past a few megabytes and gives every row back in order, whatever its cells hold and however long", async () => {
    const before = new Set(spools());
    const spool = new CellSpool();
    const odd = ["line\nbreak", "unit\u001fsep", "record\u001esep", 'quote " and \\ back', "é 名 😀", ""];
    const rowCount = 60_000;
    // Row 30,001 is longer than the spool reads at a time.
    const long = "é".repeat(800_000);
    const cellsOf = (i: number): string[] =>
      i === 30_001 ? [String(i), long] : i % 1000 === 7 ? [String(i), ...odd] : [String(i), `customer ${i % 97}`, "Front St", "ext 12"];
    for (let i = 0; i < rowCount; i++) if (i % 3 !== 2) await spool.keep(i, cellsOf(i));
    const created = spools().filter((name) => !before.has(name));
    expect(created).toHaveLength(1);
    for (let i = 0; i < rowCount; i++) {
      const cells = await spool.get(i);
      if (i % 3 === 2) expect(cells).toBeUndefined();
      else expect(cells).toEqual(cellsOf(i));
    }
    await spool.close();
    expect(existsSync(`${tmpdir()}/${created[0] ?? ""}`)).toBe(false);
  });

  it("gives a row kept as one cell back as that cell's UTF-8 bytes, from memory or from its file, whatever the cell holds", async () => {
    const text = (value: Uint8Array | string | undefined): string | undefined => (value === undefined || typeof value === "string" ? value : Buffer.from(value).toString("utf8"));
    const small = new CellSpool();
    await small.keep(3, ["4165550101,é 名"]);
    expect(text(await small.getOnly(2))).toBeUndefined();
    expect(text(await small.getOnly(3))).toBe("4165550101,é 名");
    await small.close();

    const spool = new CellSpool();
    const rowCount = 80_000;
    const long = "名".repeat(700_000);
    const cellOf = (i: number): string =>
      i === 40_001 ? long : i % 1000 === 7 ? `${i},"line\nbreak",unit\u001f,record\u001e,😀` : `${i},customer ${i % 97},Front St,ext 12`;
    for (let i = 0; i < rowCount; i++) if (i % 5 !== 4) await spool.keep(i, [cellOf(i)]);
    for (let i = 0; i < rowCount; i++) {
      const got = text(await spool.getOnly(i));
      if (i % 5 === 4) expect(got).toBeUndefined();
      else expect(got).toBe(cellOf(i));
    }
    await spool.close();
  });
});
