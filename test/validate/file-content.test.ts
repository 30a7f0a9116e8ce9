/**
 * docs/contract.md §3: an attachment is what its name says, judged by its content. A `.pdf`
 * that is a web page, or an image under another image's extension, is refused naming both.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchColumns } from "../../src/input/columns.js";
import type { Lookups } from "../../src/validate/types.js";
import { createValidator } from "../../src/validate/validator.js";
import { PORT_FORM } from "../support/port-form.js";

const LOOKUPS: Lookups = { trunks: [{ pilotNumber: "4165550000", label: "HQ" }], offerings: [], providers: [{ id: 17, name: "Bell Canada" }] };
const HEADER = ["number", "pilot_number", "portform.FileLetterOfAuthorization"];

const PDF = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const TIFF = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
const SESSION_EXPIRED = "<!DOCTYPE html>\n<html><head><title>Session expired</title></head><body>Please sign in again.</body></html>\n";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-content-"));
  const files: [string, string | Buffer][] = [
    ["loa.pdf", PDF],
    ["LOA.PDF", PDF],
    ["loa-expired.pdf", SESSION_EXPIRED],
    ["scan.png", PNG],
    ["scan.jpg", JPEG],
    ["scan.jpeg", JPEG],
    ["scan.tif", TIFF],
    ["scan.tiff", TIFF],
    ["photo.jpg", PNG],
    ["fax.tif", PDF],
    ["letter.png", PDF],
    ["binary.pdf", Buffer.from([0x00, 0x01, 0x02, 0xfe, 0xff, 0x00])],
    ["notes.txt", "call the IT manager before the port"],
  ];
  for (const [name, contents] of files) await writeFile(join(dir, name), contents);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verdicts(cells: readonly string[]): Promise<string[]> {
  const validator = createValidator({
    layout: { source: "sheet.csv", baseDir: dir, delimiter: ",", header: HEADER, columns: matchColumns("sheet.csv", HEADER) },
    lookups: LOOKUPS,
    defaults: { portForm: PORT_FORM, request: {}, item: {} },
  });
  const out: string[] = [];
  for (const [index, cell] of cells.entries()) {
    const row = await validator.check({ index, line: index + 2, cells: [`416555${String(1000 + index)}`, "4165550000", cell] });
    out.push(row.valid ? "valid" : row.reason);
  }
  return out;
}

describe("attachments are judged by their content", () => {
  it("attaches PDFs, PNGs, JPEGs and TIFFs whose content matches their extension, in any case", async () => {
    expect(await verdicts(["loa.pdf", "LOA.PDF", "scan.png", "scan.jpg", "scan.jpeg", "scan.tif", "scan.tiff"])).toEqual(Array(7).fill("valid"));
  });

  it("refuses an HTML 'Session expired' page saved as loa.pdf, naming the PDF it claims to be and the HTML it is", async () => {
    expect(await verdicts(["loa-expired.pdf"])).toEqual([
      'portform.FileLetterOfAuthorization file "loa-expired.pdf" is named as a PDF but its content is HTML text (it begins "<!DOCTYPE html> <html><head><title>Session expired</title></…"): attach the document itself, not a page or file saved under its name',
    ]);
  });

  it("refuses an image or a PDF under another type's extension, naming both types", async () => {
    const [photo, fax, letter, binary] = await verdicts(["photo.jpg", "fax.tif", "letter.png", "binary.pdf"]);
    expect(photo).toMatch(/^portform\.FileLetterOfAuthorization file "photo\.jpg" is named as a JPEG image but its content is PNG \(image\/png\)/);
    expect(fax).toMatch(/"fax\.tif" is named as a TIFF image but its content is PDF \(application\/pdf\)/);
    expect(letter).toMatch(/"letter\.png" is named as a PNG image but its content is PDF \(application\/pdf\)/);
    expect(binary).toMatch(/"binary\.pdf" is named as a PDF but its content is of no type portin recognises/);
  });

  it("sends a file whose extension promises no type it can check as it is", async () => {
    expect(await verdicts(["notes.txt"])).toEqual(["valid"]);
  });
});
