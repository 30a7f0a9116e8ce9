/**
 * Attachments confined to the sheet's folder (docs/contract.md §3), as a user meets them: a
 * sheet from a customer names files outside its folder. The built CLI must make those rows
 * invalid, in `plan` as in `submit`, and send nothing of them.
 */
import { execFileSync } from "node:child_process";
import { link, mkdir, readFile, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { against, FORM_CELLS, FORM_HEADER, parseResults, readResults, runCli, tempDir, writeSheet } from "./harness.js";

let sandbox: RunningSandbox;
let root = "";
let dir = "";
const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- not really";

beforeAll(async () => {
  sandbox = await startSandbox();
  root = await tempDir();
  dir = join(root, "customer");
  await mkdir(join(dir, "scans"), { recursive: true });
  await writeFile(join(root, "id_rsa"), SECRET);
  await writeFile(join(dir, "loa.pdf"), "%PDF-1.4 signed");
  await writeFile(join(dir, "scans", "invoice.pdf"), "%PDF-1.4 invoice");
  await writeFile(join(dir, "empty.pdf"), "");
  await writeFile(join(dir, "huge.pdf"), "%");
  await truncate(join(dir, "huge.pdf"), 40 * 1024 * 1024);
  execFileSync("mkfifo", [join(dir, "pipe.pdf")]);
  await symlink(join(root, "id_rsa"), join(dir, "key.pdf"));
  await symlink("loa.pdf", join(dir, "same-loa.pdf"));
  // A hard link in the customer's folder to a file outside it: no real path gives it away.
  await link(join(root, "id_rsa"), join(dir, "hard.pdf"));
});
afterAll(async () => {
  await sandbox.close();
});

/** Every path tried, and what portin must make of its row. */
const PATHS: [path: () => string, status: "ok" | "invalid", message: RegExp][] = [
  [() => "loa.pdf", "ok", /^$/],
  [() => "scans/invoice.pdf", "ok", /^$/],
  [() => "same-loa.pdf", "ok", /^$/],
  [() => "../id_rsa", "invalid", /file "\.\.\/id_rsa" is outside the sheet's folder: an attachment must be a regular file inside the sheet's folder \(/],
  [() => "scans/../../id_rsa", "invalid", /is outside the sheet's folder/],
  [() => join(root, "id_rsa"), "invalid", /is an absolute path: an attachment must be a regular file inside the sheet's folder/],
  [() => "/etc/passwd", "invalid", /file "\/etc\/passwd" is an absolute path/],
  [() => "key.pdf", "invalid", /file "key\.pdf" leads outside the sheet's folder through a symbolic link \(to .*id_rsa\)/],
  [() => "scans", "invalid", /file "scans" is a directory/],
  [() => "pipe.pdf", "invalid", /file "pipe\.pdf" is a FIFO \(named pipe\)/],
  [() => "empty.pdf", "invalid", /file "empty\.pdf" is empty \(0 bytes\)/],
  [() => "huge.pdf", "invalid", /file "huge\.pdf" is 41,943,040 bytes, over the 10 MiB portin attaches at most/],
  [() => "loa.pdf;../id_rsa", "invalid", /"\.\.\/id_rsa" is outside/],
  [() => "hard.pdf", "invalid", /file "hard\.pdf" is a hard link \(the file has other names, which may be outside the folder\): attach a copy of it instead: an attachment must be a regular file inside/],
];

async function sheetOfPaths(name: string): Promise<string> {
  const lines = PATHS.map(([path], i) => `416-555-${String(4000 + i)},4165550100,${FORM_CELLS},"${path()}"`);
  return writeSheet(dir, name, `number,pilot_number,${FORM_HEADER},portform.FileLetterOfAuthorization\n${lines.join("\n")}\n`);
}

function expectVerdicts(rows: Record<string, string>[], okStatus: string): void {
  expect(rows).toHaveLength(PATHS.length);
  for (const [i, [path, status, message]] of PATHS.entries()) {
    const row = rows[i]!;
    expect(row.result_status, path()).toBe(status === "ok" ? okStatus : "invalid");
    if (status === "invalid") expect(row.result_message, path()).toMatch(message);
  }
}

it("plans only the rows whose attachments are regular files inside the sheet's folder", async () => {
  const sheet = await sheetOfPaths("plan.csv");
  const run = await runCli(["plan", sheet, "--results", "-"]);
  expect(run.code).toBe(1);
  expect(run.stderr).not.toContain(SECRET);
  expectVerdicts(parseResults(run.stdout), "planned");
});

it("submits only those rows, and nothing of a file outside the folder reaches the service", async () => {
  const sheet = await sheetOfPaths("submit.csv");
  const run = await runCli(["submit", sheet, ...against(sandbox)]);
  expect(run.code).toBe(1);
  expectVerdicts(await readResults(join(dir, "submit.results.csv")), "submitted");
  const sent = JSON.stringify(sandbox.accepted());
  expect(sent).not.toContain(Buffer.from(SECRET).toString("base64"));
  expect(sandbox.accepted().flatMap((r) => r.numbers)).toEqual(["4165554000", "4165554001", "4165554002"]);
  expect(await readFile(join(dir, "submit.results.csv"), "utf8")).not.toContain(SECRET);
});

it("takes a sheet on standard input's attachments from the current directory only, and says so", async () => {
  const sheet = `number,pilot_number,${FORM_HEADER},portform.FileLetterOfAuthorization\n416-555-4100,4165550100,${FORM_CELLS},loa.pdf\n416-555-4101,4165550100,${FORM_CELLS},../id_rsa\n`;
  const run = await runCli(["plan", "-"], { stdin: sheet, cwd: dir });
  expect(run.code).toBe(1);
  const rows = parseResults(run.stdout);
  expect(rows.map((r) => r.result_status)).toEqual(["planned", "invalid"]);
  expect(rows[1]?.result_message).toBe(
    `portform.FileLetterOfAuthorization file "../id_rsa" is outside the current directory: an attachment must be a regular file inside the current directory (${dir}), as the sheet comes from standard input, which has no folder`,
  );
});

it("refuses a --defaults file naming a file outside its folder, before anything is sent", async () => {
  const sheet = await writeSheet(dir, "defaulted.csv", `number,pilot_number,${FORM_HEADER}\n416-555-4200,4165550100,${FORM_CELLS}\n`);
  const defaults = await writeSheet(dir, "defaulted.defaults.json", JSON.stringify({ portForm: { FileLetterOfAuthorization: "../id_rsa" } }));
  const before = sandbox.received().length;
  const run = await runCli(["submit", sheet, ...against(sandbox), "--defaults", defaults]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`portForm.FileLetterOfAuthorization: file "../id_rsa" is outside the --defaults file's folder`);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(sandbox.received().length).toBe(before);
});
