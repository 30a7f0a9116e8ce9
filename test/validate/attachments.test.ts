/**
 * A `portform.File…` cell may only name a regular file inside the sheet's folder
 * (docs/contract.md §3). Each refused path is checked never to reach the reader: nothing
 * outside is ever read.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchColumns } from "../../src/input/columns.js";
import { STDIN_SOURCE } from "../../src/input/sheet.js";
import type { SheetLayout } from "../../src/input/types.js";
import type { FileAttachment } from "../../src/catalog/members.js";
import { loadDefaults, readDefaultsFile } from "../../src/validate/defaults.js";
import type { ReadFile } from "../../src/validate/files.js";
import { MAX_ATTACHMENT_BYTES, MAX_ROW_ATTACHMENT_BYTES, MAX_RUN_ATTACHMENT_BYTES, readRegularFile } from "../../src/validate/files.js";
import type { CheckedRow, Lookups } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { PORT_FORM } from "../support/port-form.js";

const LOOKUPS: Lookups = { trunks: [{ pilotNumber: "4165550000", label: "HQ" }], offerings: [], providers: [{ id: 17, name: "Bell Canada" }] };
const HEADER = ["number", "pilot_number", "portform.FileLetterOfAuthorization"];

let root = "";
/** The sheet's folder. */
let dir = "";
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "portin-attach-"));
  dir = join(root, "sheet");
  await mkdir(join(dir, "sub"), { recursive: true });
  await mkdir(join(dir, "dir.pdf"));
  await writeFile(join(root, "outside.pdf"), "SECRET OUTSIDE THE FOLDER");
  // Attachments are judged by their content (docs/contract.md §3): a PDF begins %PDF.
  await writeFile(join(dir, "loa.pdf"), "%PDF-1.4\nsigned letter");
  await writeFile(join(dir, "sub", "inner.pdf"), "%PDF-1.4\ninner letter");
  await writeFile(join(dir, "empty.pdf"), "");
  // Sparse files: their size is what counts, and they take no disk.
  for (const [name, size] of [
    ["exact.pdf", MAX_ATTACHMENT_BYTES],
    ["big.pdf", MAX_ATTACHMENT_BYTES + 1],
    ["nine-a.pdf", 9 * 1024 * 1024],
    ["nine-b.pdf", 9 * 1024 * 1024],
  ] as const) {
    await writeFile(join(dir, name), "%PDF-1.4\n");
    await truncate(join(dir, name), size);
  }
  execFileSync("mkfifo", [join(dir, "fifo.pdf")]);
  await symlink(join(root, "outside.pdf"), join(dir, "link-out.pdf"));
  await symlink("/etc/passwd", join(dir, "link-etc.pdf"));
  await symlink("loa.pdf", join(dir, "link-in.pdf"));
  await symlink(root, join(dir, "link-up"));
  await symlink("sub", join(dir, "link-sub"));
  await symlink(dir, join(root, "sheet-link"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function layoutIn(baseDir: string, source = "sheet.csv"): SheetLayout {
  return { source, baseDir, delimiter: ",", header: HEADER, columns: matchColumns(source, HEADER) };
}

/** Checks one row per cell with a reader that records what it was asked to read. */
async function checkCells(cells: readonly string[], layout = layoutIn(dir)): Promise<{ rows: CheckedRow[]; reads: string[] }> {
  const reads: string[] = [];
  const readFileCounted: ReadFile = (path) => {
    reads.push(path);
    return readFile(path);
  };
  const validator = createValidator({ layout, lookups: LOOKUPS, defaults: { portForm: PORT_FORM, request: {}, item: {} }, readFile: readFileCounted });
  const rows: CheckedRow[] = [];
  for (const [index, cell] of cells.entries()) {
    rows.push(await validator.check({ index, line: index + 2, cells: [`41655501${String(index + 10)}`, "4165550000", cell] }));
  }
  return { rows, reads };
}

async function reasonFor(cell: string, layout?: SheetLayout): Promise<string> {
  const { rows, reads } = await checkCells([cell], layout);
  const [row] = rows;
  if (row === undefined || row.valid) throw new Error(`expected ${JSON.stringify(cell)} to be refused`);
  expect(reads, `${cell} must not be read`).toEqual([]);
  return row.reason;
}

const RULE = () => `an attachment must be a regular file inside the sheet's folder (${dir})`;

describe("attachments are confined to the sheet's folder", () => {
  it("attaches a file in the folder, one in a subfolder, and one through a link that stays inside", async () => {
    const { rows } = await checkCells(["loa.pdf", "sub/inner.pdf", "./sub/../loa.pdf", "link-in.pdf", "link-sub/inner.pdf"]);
    expect(rows.map((r) => (r.valid ? "valid" : r.reason))).toEqual(["valid", "valid", "valid", "valid", "valid"]);
    const sent = rows.map((r) => (r.valid ? (r.portForm["FileLetterOfAuthorization"] as readonly FileAttachment[])[0] : undefined));
    expect(Buffer.from(sent[3]?.Base64Contents ?? "", "base64").toString()).toBe("%PDF-1.4\nsigned letter");
    expect(sent[3]?.FileName).toBe("link-in.pdf");
  });

  it("attaches a file in a folder reached through a symbolic link", async () => {
    const { rows } = await checkCells(["loa.pdf"], layoutIn(join(root, "sheet-link")));
    expect(rows[0]?.valid).toBe(true);
  });

  it.each([
    ["../outside.pdf", "is outside the sheet's folder"],
    ["sub/../../outside.pdf", "is outside the sheet's folder"],
    ["..", "is outside the sheet's folder"],
  ])("refuses %s, which climbs out of the folder, without reading it", async (cell, problem) => {
    expect(await reasonFor(cell)).toBe(`portform.FileLetterOfAuthorization file ${JSON.stringify(cell)} ${problem}: ${RULE()}`);
  });

  it("refuses absolute paths, even to a file inside the folder", async () => {
    for (const cell of ["/etc/passwd", join(dir, "loa.pdf"), "/dev/zero"]) {
      expect(await reasonFor(cell)).toBe(`portform.FileLetterOfAuthorization file ${JSON.stringify(cell)} is an absolute path: ${RULE()}`);
    }
  });

  it("refuses symbolic links that lead out of the folder, naming where they lead", async () => {
    expect(await reasonFor("link-out.pdf")).toBe(
      `portform.FileLetterOfAuthorization file "link-out.pdf" leads outside the sheet's folder through a symbolic link (to ${join(root, "outside.pdf")}): ${RULE()}`,
    );
    expect(await reasonFor("link-etc.pdf")).toMatch(/^portform\.FileLetterOfAuthorization file "link-etc\.pdf" leads outside the sheet's folder through a symbolic link \(to \/etc\/passwd\)/);
    expect(await reasonFor("link-up/outside.pdf")).toMatch(/"link-up\/outside\.pdf" leads outside the sheet's folder through a symbolic link/);
    // Inside as written (link-up/outside.pdf once ".." is taken lexically), outside once the link is followed.
    expect(await reasonFor("link-up/sheet/../outside.pdf")).toMatch(/leads outside the sheet's folder/);
  });

  it("refuses a directory, the folder itself and a FIFO by their kind, without blocking on the FIFO", async () => {
    expect(await reasonFor("dir.pdf")).toBe(`portform.FileLetterOfAuthorization file "dir.pdf" is a directory: ${RULE()}`);
    expect(await reasonFor(".")).toBe(`portform.FileLetterOfAuthorization file "." is a directory: ${RULE()}`);
    expect(await reasonFor("fifo.pdf")).toBe(`portform.FileLetterOfAuthorization file "fifo.pdf" is a FIFO (named pipe): ${RULE()}`);
  });

  it("refuses a device, by its kind, without reading it", async () => {
    // /dev is the one folder every test machine has devices in; a sheet there names them relatively.
    expect(await reasonFor("null", layoutIn("/dev"))).toBe(
      'portform.FileLetterOfAuthorization file "null" is a character device: an attachment must be a regular file inside the sheet\'s folder (/dev)',
    );
    expect(await reasonFor("zero", layoutIn("/dev"))).toMatch(/"zero" is a character device/);
  });

  it("refuses a path holding a NUL character, as any cell holding a control character is", async () => {
    expect(await reasonFor("loa.pdf\0.txt")).toBe(
      'portform.FileLetterOfAuthorization "loa.pdf\\x00.txt" holds a control character (U+0000) at character 8, which a spreadsheet does not show: retype the cell',
    );
  });

  it("reads only a regular file even when one is swapped in after the checks: no link followed, no FIFO waited on", async () => {
    await expect(readRegularFile(join(dir, "fifo.pdf"))).rejects.toThrow("is a FIFO (named pipe)");
    await expect(readRegularFile(join(dir, "link-in.pdf"))).rejects.toMatchObject({ code: "ELOOP" });
    await expect(readRegularFile(join(dir, "dir.pdf"))).rejects.toThrow("is a directory");
    await expect(readRegularFile(join(dir, "big.pdf"))).rejects.toThrow("over the 10 MiB");
    expect(Buffer.from(await readRegularFile(join(dir, "loa.pdf"))).toString()).toBe("%PDF-1.4\nsigned letter");
  });

  it("names a file that does not exist as before", async () => {
    expect(await reasonFor("missing.pdf")).toBe(`portform.FileLetterOfAuthorization file "missing.pdf" cannot be read (no such file: ${join(dir, "missing.pdf")})`);
  });
});

describe("attachment sizes", () => {
  it("refuses an empty file, without reading it", async () => {
    expect(await reasonFor("empty.pdf")).toBe('portform.FileLetterOfAuthorization file "empty.pdf" is empty (0 bytes): attach the signed document itself');
  });

  it("attaches a file of exactly 10 MiB and refuses one byte more, without reading it", async () => {
    const { rows } = await checkCells(["exact.pdf"]);
    expect(rows[0]?.valid).toBe(true);
    expect(await reasonFor("big.pdf")).toBe(
      'portform.FileLetterOfAuthorization file "big.pdf" is 10,485,761 bytes, over the 10 MiB portin attaches at most: send a smaller scan',
    );
  });

  it("refuses a row whose attachments together pass 16 MiB, though each is under 10 MiB", async () => {
    const { rows } = await checkCells(["nine-a.pdf", "nine-a.pdf;nine-b.pdf"]);
    expect(rows[0]?.valid).toBe(true);
    expect(rows[1]).toMatchObject({
      valid: false,
      number: "4165550111",
      reason: `the row's attachments come to 18 MiB, over the ${MAX_ROW_ATTACHMENT_BYTES / 1024 / 1024} MiB portin sends in one request: send smaller scans`,
    });
  });

  it("attaches distinct files up to 256 MiB in one run, and refuses the file that would pass it", async () => {
    const many = join(root, "many");
    await mkdir(many);
    const names: string[] = [];
    let left = MAX_RUN_ATTACHMENT_BYTES;
    for (let i = 0; left > 0; i++) {
      const size = Math.min(MAX_ATTACHMENT_BYTES, left);
      names.push(`scan-${i}.pdf`);
      await writeFile(join(many, `scan-${i}.pdf`), "%PDF");
      await truncate(join(many, `scan-${i}.pdf`), size);
      left -= size;
    }
    await writeFile(join(many, "one-more.pdf"), "%PDF");
    // The budget counts sizes before reading: a reader of a PDF's four first bytes keeps the test light.
    const reads: string[] = [];
    const oneByte: ReadFile = (path) => {
      reads.push(path);
      return Promise.resolve(new Uint8Array(Buffer.from("%PDF")));
    };
    const validator = createValidator({ layout: layoutIn(many), lookups: LOOKUPS, defaults: { portForm: PORT_FORM, request: {}, item: {} }, readFile: oneByte });
    const cells = [...names, "one-more.pdf", names[0] ?? ""];
    const rows: CheckedRow[] = [];
    for (const [index, cell] of cells.entries()) rows.push(await validator.check({ index, line: index + 2, cells: [`416555${String(2000 + index)}`, "4165550000", cell] }));
    expect(rows.slice(0, names.length).every((r) => r.valid)).toBe(true);
    expect(rows[names.length]).toMatchObject({
      valid: false,
      reason: 'portform.FileLetterOfAuthorization file "one-more.pdf" would take the run\'s attachments past 256 MiB, more than portin holds at once: split the sheet',
    });
    // A file already attached costs nothing more.
    expect(rows[names.length + 1]?.valid).toBe(true);
    expect(reads).toHaveLength(names.length);
  });

  it("checks what a reader returned too: a file emptied between the check and the read is refused", async () => {
    const reader: ReadFile = () => Promise.resolve(new Uint8Array(0));
    const validator = createValidator({ layout: layoutIn(dir), lookups: LOOKUPS, defaults: { portForm: PORT_FORM, request: {}, item: {} }, readFile: reader });
    const row = await validator.check({ index: 0, line: 2, cells: ["4165550101", "4165550000", "loa.pdf"] });
    expect(row).toMatchObject({ valid: false, reason: 'portform.FileLetterOfAuthorization file "loa.pdf" is empty (0 bytes): attach the signed document itself' });
  });
});

describe("standard input and --defaults", () => {
  it("confines a sheet from standard input to the current directory, and says why", async () => {
    const layout = layoutIn(dir, STDIN_SOURCE);
    const { rows } = await checkCells(["loa.pdf"], layout);
    expect(rows[0]?.valid).toBe(true);
    expect(await reasonFor("../outside.pdf", layout)).toBe(
      `portform.FileLetterOfAuthorization file "../outside.pdf" is outside the current directory: an attachment must be a regular file inside the current directory (${dir}), as the sheet comes from standard input, which has no folder`,
    );
  });

  it("confines a --defaults file's attachments to its own folder, refusing the file whole", async () => {
    const path = join(dir, "customer.defaults.json");
    await writeFile(path, JSON.stringify({ portForm: { FileLetterOfAuthorization: "../outside.pdf", FileLastInvoice: "link-out.pdf" } }));
    const error = await readDefaultsFile(path)
      .then((file) => loadDefaults(file, LOOKUPS.providers))
      .then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      `--defaults file ${JSON.stringify(path)}: ` +
        `portForm.FileLetterOfAuthorization: file "../outside.pdf" is outside the --defaults file's folder: an attachment must be a regular file inside the --defaults file's folder (${dir}); ` +
        `portForm.FileLastInvoice: file "link-out.pdf" leads outside the --defaults file's folder through a symbolic link (to ${join(root, "outside.pdf")}): an attachment must be a regular file inside the --defaults file's folder (${dir})`,
    );
  });
});
