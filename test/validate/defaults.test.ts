import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import type { Provider } from "../../src/catalog/account.js";
import { loadDefaults, MAX_DEFAULTS_BYTES, NO_DEFAULTS, readDefaultsFile } from "../../src/validate/defaults.js";
import type { Defaults } from "../../src/validate/types.js";

/** Read once and converted, as a command and the engine do between them. */
async function load(path: string): Promise<Defaults> {
  return loadDefaults(await readDefaultsFile(path), PROVIDERS);
}

const PROVIDERS: Provider[] = [
  { id: 17, name: "Bell Canada" },
  { id: 12, name: "Rogers" },
];

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "portin-defaults-"));
  await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 signed");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function defaultsFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

async function refusal(content: unknown): Promise<InputError> {
  const path = await defaultsFile("bad.json", content);
  const error: unknown = await load(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${String(error)}`);
  return error;
}

describe("loadDefaults", () => {
  it("converts members with the cell converters and spells them as the wire does", async () => {
    const path = await defaultsFile("customer.json", {
      PortForm: {
        customername: "Acme Ltd",
        CustomerAccountNumber: 1234,
        CustomerCountry: "ca",
        CurrentProvider: "bell canada",
        ContactMeBLIF: "yes",
        ContactMeScheduling: false,
        NumbersToRemain: ["416-555-0110", 4165550111],
        AdditionalEmailAddresses: "a@x.example; b@x.example",
        RequestedPortDate: "2027-03-01",
        ExtraDetails: { Building: "B2", Floor: 3 },
        FileLetterOfAuthorization: "loa.pdf",
      },
      request: { faxemail: "fax@acme.example" },
      item: { Locale: "English CA", SecondLocale: "none", Enabled: 1 },
    });
    expect(await load(path)).toEqual({
      portForm: {
        CustomerName: "Acme Ltd",
        CustomerAccountNumber: "1234",
        CustomerCountry: "CA",
        CurrentProvider: 17,
        ContactMeBLIF: true,
        ContactMeScheduling: false,
        NumbersToRemain: [4165550110, 4165550111],
        AdditionalEmailAddresses: ["a@x.example", "b@x.example"],
        RequestedPortDate: "2027-03-01",
        ExtraDetails: [
          { Key: "Building", Value: "B2" },
          { Key: "Floor", Value: "3" },
        ],
        FileLetterOfAuthorization: [{ FileName: "loa.pdf", ContentType: "application/pdf", Base64Contents: Buffer.from("%PDF-1.4 signed").toString("base64") }],
      },
      request: { FaxEmail: "fax@acme.example" },
      item: { Locale: 2, SecondLocale: 9, Enabled: true },
    });
  });

  it("takes ExtraDetails written as Key=Value pairs too", async () => {
    const path = await defaultsFile("pairs.json", { portForm: { ExtraDetails: "Building = B2; Floor=3" } });
    expect((await load(path)).portForm).toEqual({
      ExtraDetails: [
        { Key: "Building", Value: "B2" },
        { Key: "Floor", Value: "3" },
      ],
    });
    expect((await refusal({ portForm: { ExtraDetails: "no pairs here" } })).message).toMatch(
      /: portForm\.ExtraDetails: "no pairs here" is not an extra detail \(Key=Value, ;-separated\)$/,
    );
  });

  it("treats every section as optional", async () => {
    expect(await load(await defaultsFile("empty.json", {}))).toEqual(NO_DEFAULTS);
  });

  it("refuses an unknown member, naming the file and the closest known member", async () => {
    const error = await refusal({ portForm: { CustomerNam: "Acme" } });
    expect(error.message).toBe(`--defaults file "${join(dir, "bad.json")}": portForm.CustomerNam: unknown member (did you mean portForm.CustomerName?)`);
    expect(error.exitCode).toBe(2);
  });

  it("refuses portin's own members, saying portin fills them, as the header check does", async () => {
    const error = await refusal({
      portForm: { NumbersToPort: [4165550101] },
      request: { PilotNumber: 4165550000, OfferingID: "OFF-1" },
      item: { Number: 4165550101, TN: 4165550101, PlanID: "OFF-1" },
    });
    expect(error.message).toBe(
      `--defaults file "${join(dir, "bad.json")}": ` +
        [
          "portForm.NumbersToPort: filled by portin from the number column, not by --defaults (remove it)",
          "request.PilotNumber: filled by portin from the pilot_number column, not by --defaults (remove it)",
          "request.OfferingID: filled by portin from the offering_id column, not by --defaults (remove it)",
          "item.Number: filled by portin from the number column, not by --defaults (remove it)",
          "item.TN: filled by portin from the number column, not by --defaults (remove it)",
          "item.PlanID: filled by portin from the offering_id column, not by --defaults (remove it)",
        ].join("; "),
    );
    expect(error.message).not.toContain("did you mean");
  });

  it("reports every wrong member in one line, as path: message", async () => {
    const error = await refusal({
      portForm: { CustomerNam: "Acme", RequestedPortDate: "2026-13-01", CustomerCity: "Toronto" },
      portForms: {},
      item: { Account: { n: 1 } },
    });
    expect(error.message).toBe(
      `--defaults file "${join(dir, "bad.json")}": ` +
        'portForm.CustomerNam: unknown member (did you mean portForm.CustomerName?); portForm.RequestedPortDate: "2026-13-01" is not a real date (there is no month 13); write it as YYYY-MM-DD; ' +
        'portForms: unknown key (expected portForm, request, item, e911 or columns); item.Account: must be a non-empty string, number, boolean or list, not {"n":1}',
    );
    expect(error.message).not.toContain("\n");
  });

  it("refuses an unknown top-level key", async () => {
    expect((await refusal({ portForms: {} })).message).toMatch(/": portForms: unknown key \(expected portForm, request, item, e911 or columns\)$/);
  });

  it("refuses a value of the wrong type, naming its JSON path", async () => {
    expect((await refusal({ portForm: { RequestedPortDate: "2026-13-01" } })).message).toMatch(
      /: portForm\.RequestedPortDate: "2026-13-01" is not a real date \(there is no month 13\); write it as YYYY-MM-DD$/,
    );
    expect((await refusal({ item: { Account: { n: 1 } } })).message).toMatch(
      /: item\.Account: must be a non-empty string, number, boolean or list, not \{"n":1\}$/,
    );
    expect((await refusal({ portForm: { CurrentProvider: "Telus" } })).message).toContain(
      'portForm.CurrentProvider: "Telus" is not a known provider ID or name',
    );
  });

  it("refuses a file it names that cannot be read, relative to the defaults file", async () => {
    expect((await refusal({ portForm: { FileLastInvoice: "invoice.pdf" } })).message).toContain(
      `portForm.FileLastInvoice: file "invoice.pdf" cannot be read (no such file: ${join(dir, "invoice.pdf")})`,
    );
  });

  it("refuses a file that is not JSON, or not an object", async () => {
    expect((await refusal("{ portForm: ")).message).toMatch(/^--defaults file ".*bad\.json": line 1, column 3: not valid JSON \(.*\); fix the file$/);
    expect((await refusal([1, 2])).message).toMatch(/must hold a JSON object/);
  });

  it("refuses JSON nested 100,000 deep in one line naming where, and reads brackets inside strings as text", async () => {
    const path = join(dir, "bad.json");
    const deep = `{"portForm": {"CustomerName": ${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    const error = await refusal(deep);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `--defaults file "${path}": line 1, column 45: nested more than 16 levels deep, more than members, lists and ExtraDetails take; fix the file`,
    );
    const brackets = await defaultsFile("brackets.json", JSON.stringify({ portForm: { CustomerName: `Acme ${"[{".repeat(50)} \\" ]` } }));
    expect((await load(brackets)).portForm).toEqual({ CustomerName: `Acme ${"[{".repeat(50)} \\" ]` });
  });

  it("names the line and column of a JSON syntax error, not its offset", async () => {
    const path = join(dir, "bad.json");
    const trailingComma = '{\n  "portForm": {\n    "CustomerName": "Acme",\n  }\n}\n';
    expect((await refusal(trailingComma)).message).toBe(
      `--defaults file "${path}": line 4, column 3: not valid JSON (Expected double-quoted property name); fix the file`,
    );
    const badLiteral = '{\n  "portForm": {\n    "ContactMeBLIF": tru\n  }\n}';
    expect((await refusal(badLiteral)).message).toBe(`--defaults file "${path}": line 3, column 25: not valid JSON (Unexpected token '\\n'); fix the file`);
    expect((await refusal('{"portForm": {"ContactMeBLIF": tru}}')).message).toBe(
      `--defaults file "${path}": line 1, column 35: not valid JSON (Unexpected token '}'); fix the file`,
    );
    expect((await refusal('\uFEFF{"portForm": {\r\n  "CustomerName": "Acme"')).message).toBe(
      `--defaults file "${path}": line 2, column 25: not valid JSON (Expected ',' or '}' after property value); fix the file`,
    );
  });

  it("reads a defaults file of 1 MiB and refuses a byte more, and /dev/zero, without reading on", async () => {
    const json = JSON.stringify({ portForm: { CustomerName: "Acme" } });
    const exact = await defaultsFile("exact.json", json + " ".repeat(MAX_DEFAULTS_BYTES - json.length));
    expect((await load(exact)).portForm).toEqual({ CustomerName: "Acme" });
    const over = await defaultsFile("over.json", json + " ".repeat(MAX_DEFAULTS_BYTES - json.length + 1));
    await expect(load(over)).rejects.toThrow(
      new InputError(`--defaults file "${over}" is larger than 1024 KiB, more than a customer's defaults take; check the path`),
    );
    await expect(load("/dev/zero")).rejects.toThrow("is larger than 1024 KiB");
  });

  it("refuses a file that cannot be read", async () => {
    const missing = join(dir, "missing.json");
    await expect(load(missing)).rejects.toThrow(
      new InputError(`cannot read --defaults file "${missing}" (no such file); check the path`),
    );
  });
});
