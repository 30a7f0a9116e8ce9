import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { UsageError } from "../../src/errors.js";
import { defaultAccountFile, loadAccount } from "../../src/sandbox/account.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";

const dir = mkdtempSync(join(tmpdir(), "portin-sandbox-account-"));
function accountFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const SMALL_ACCOUNT = {
  trunks: [{ Number: 2125550100, Label: "NYC" }],
  offerings: [{ OfferingID: "X-1", Type: 4, ProductName: { En: "Line", Fr: "Ligne" } }],
  providers: [{ ID: 5, Name: "Verizon" }],
};

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("the sandbox account", () => {
  test("defaults to fixtures/sandbox-account.json at the package root", () => {
    expect(defaultAccountFile()).toBe(join(process.cwd(), "fixtures", "sandbox-account.json"));
    const account = loadAccount();
    expect(account.trunks.map((t) => t.Number)).toEqual([4165550100, 5145550100, 6045550100]);
    expect(account.unportable.map((u) => u.number)).toEqual([4165550199, 8665550199]);
  });

  test("serves the lookups of an account file given instead", async () => {
    sandbox = await startSandbox({ accountFile: accountFile("small.json", SMALL_ACCOUNT) });
    const res = await fetch(`${sandbox.url}/SipTrunks`, { headers: { Authorization: `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}` } });
    expect(await res.json()).toEqual([{ Number: 2125550100, Label: "NYC" }]);
  });

  test("refuses an account file with every problem named by its path", () => {
    const file = accountFile("bad.json", {
      ...SMALL_ACCOUNT,
      trunks: [{ Number: 41655501, Label: "short" }],
      providers: [
        { ID: 5, Name: "Verizon" },
        { ID: 5, Name: "AT&T" },
      ],
    });
    expect(() => loadAccount(file)).toThrow(UsageError);
    expect(() => loadAccount(file)).toThrow(
      `sandbox account file '${file}' is not valid: trunks.0.Number: must be a 10-digit NANP telephone number; providers.1: repeats provider ID 5`,
    );
  });

  test("refuses an account file that is not JSON, or is missing, naming the file", async () => {
    const notJson = accountFile("not.json", "{ trunks: [");
    expect(() => loadAccount(notJson)).toThrow(new RegExp(`^sandbox account file '${notJson.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}' is not JSON`));
    await expect(startSandbox({ accountFile: join(dir, "missing.json") })).rejects.toThrow(
      `cannot read sandbox account file '${join(dir, "missing.json")}' (ENOENT): check the path given to --account`,
    );
  });
});
