/**
 * The nightly cron recipe of docs/after-cutover.md, run as written (docs/contract.md §6): a
 * row that cannot progress without a person is mailed every night until it is resolved, and a
 * number the service says is not portable is advised to be removed or ported another way.
 * Only the recipe's site-specific values are replaced (folder, service, user, password file);
 * `npx portin` runs the built CLI and `mail` records what it was given.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { PACKAGE_ROOT } from "../../src/version.js";
import { CLI, tempDir } from "./harness.js";
import { trunkSheetOf } from "./ledger.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const page = await readFile(join(PACKAGE_ROOT, "docs", "after-cutover.md"), "utf8");

function recipe(): string {
  const from = page.indexOf("<!-- readme-test: nightly-cron -->");
  const match = /```sh\n([\s\S]*?)```/.exec(page.slice(from));
  if (from < 0 || !match?.[1]) throw new Error("docs/after-cutover.md has no nightly cron recipe");
  return match[1];
}

/** The recipe with this test's folder, sandbox and password file for the site's own. */
function recipeFor(dir: string, s: RunningSandbox): string {
  const site: [string, string][] = [
    ["cd /srv/porting/acme", `cd '${dir}'`],
    ["https://api.thinktel.ca/rest.svc", s.url],
    ["PORTIN_USER=acme-migrations", `PORTIN_USER=${s.user}`],
    ["/etc/portin/acme.password", join(dir, "password")],
  ];
  let script = recipe();
  for (const [theirs, ours] of site) {
    expect(script).toContain(theirs);
    script = script.replace(theirs, ours);
  }
  return script;
}

interface Mail {
  readonly args: string[];
  readonly body: string;
}

/** Runs one night of the recipe; resolves with the mails it sent. */
async function night(dir: string, script: string): Promise<Mail[]> {
  const mailbox = join(dir, "mailbox");
  await mkdir(mailbox, { recursive: true });
  for (const old of await readdir(mailbox)) await writeFile(join(mailbox, old), "");
  await new Promise<void>((resolve, reject) => {
    const child = spawn("sh", ["-c", script], {
      env: { ...process.env, PATH: `${join(dir, "bin")}:${process.env["PATH"] ?? ""}`, MAILBOX: mailbox },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
  const mails: Mail[] = [];
  for (const name of (await readdir(mailbox)).sort()) {
    const text = await readFile(join(mailbox, name), "utf8");
    if (text === "") continue;
    const [args = "", body = ""] = text.split("\n---\n");
    mails.push({ args: args.split("\n"), body });
  }
  return mails;
}

describe("the nightly cron recipe of docs/after-cutover.md", () => {
  it("mails a person every night about a number that is not portable, with advice they can follow, until the row is removed", async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const dir = await tempDir();
    const bin = join(dir, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "npx"), `#!/bin/sh\n[ "$1" = portin ] || exit 127\nshift\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    await writeFile(join(bin, "mail"), `#!/bin/sh\nn=$(ls "$MAILBOX" | wc -l)\n{ printf '%s\\n' "$@"; echo ---; cat; } >"$MAILBOX/mail-$n"\n`);
    await chmod(join(bin, "npx"), 0o755);
    await chmod(join(bin, "mail"), 0o755);
    await writeFile(join(dir, "password"), s.password);
    const script = recipeFor(dir, s);

    // 4165550199 is a wireless number to the sandbox (fixtures/sandbox-account.json `unportable`).
    await trunkSheetOf(dir, "acme.csv", ["4165553000", "4165550199"]);
    for (let i = 0; i < 2; i++) {
      const mails = await night(dir, script);
      const alert = mails.find((mail) => mail.args.includes("portin acme: rows need a person"));
      expect(alert, `night ${i + 1}: ${JSON.stringify(mails)}`).toBeDefined();
      expect(alert?.args).toEqual(expect.arrayContaining(["-A", "acme.results.csv", "ops@example.com"]));
      expect(alert?.body).toContain("next: 1 row not portable to this service, as the service says");
      expect(alert?.body).toContain("remove those rows, or port these numbers another way");
      expect(alert?.body).not.toMatch(/\bfix\b/i);
      expect(await readFile(join(dir, "acme.results.csv"), "utf8")).toContain("4165550199 is not portable");
    }

    // The person removes the row: the next night mails no alert.
    await trunkSheetOf(dir, "acme.csv", ["4165553000"]);
    const mails = await night(dir, script);
    expect(mails.map((mail) => mail.args[1])).toEqual(["portin acme: overnight"]);
  });
});
