/**
 * A run that cannot mislead (docs/contract.md §5 "Identity", §8): one service one journal,
 * sandbox runs and dry runs in files of their own, rejections per number, stale temporaries
 * cleared.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { against, FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, withoutE911, writeSheet } from "./harness.js";
import { sandboxPerTest } from "./sandboxed.js";
import { numbers, postedNumbers, trunkSheetOf } from "./ledger.js";

const sandboxed = sandboxPerTest();

/** 416-555-0199 is one of the sandbox account's unportable numbers. */
const UNPORTABLE = "4165550199";

async function sheetWithUnportable(dir: string, name: string, customer = "Acme Plumbing"): Promise<{ path: string; good: string[] }> {
  const good = numbers(3, 3000);
  const cells = FORM_CELLS.replace("Acme Plumbing", customer);
  const rows = [good[0], UNPORTABLE, good[1], good[2]].map((n) => `${n},4165550100,${cells}`);
  return { path: await writeSheet(dir, name, `number,pilot_number,${FORM_HEADER}\n${rows.join("\n")}\n`), good };
}

describe("one service, one journal", () => {
  it("takes http://localhost:PORT/ for the http://127.0.0.1:PORT a journal was written for, and sends nothing twice", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(3));
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    const posts = s.received().length;

    const local = ["--base-url", `${s.url.replace("127.0.0.1", "LOCALHOST")}/`, "--user", s.user, "--password", s.password];
    const again = await runCli(["submit", sheet, ...local]);
    expect(again.stderr).not.toContain("state file");
    expect(again.code).toBe(0);
    expect(s.received()).toHaveLength(posts);
    expect((await readResults(join(dir, "acme.results.csv"))).map((r) => r.result_status)).toEqual(["skipped", "skipped", "skipped"]);
  });
});

describe("a run on the built-in sandbox beside a real migration", () => {
  it("leaves the real results and journal byte for byte, says whose journal lies there, and names the sandbox in its summary", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(4));
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    const realResults = await readFile(join(dir, "acme.results.csv"));
    const realJournal = await readFile(join(dir, "acme.state.jsonl"));

    // PORTIN_BASE_URL forgotten in this shell: the built-in sandbox answers.
    const run = await runCli(["submit", sheet, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`portin: this sheet has a journal for ${s.url}/ (${join(dir, "acme.state.jsonl")}): did you mean to set PORTIN_BASE_URL?`);
    expect(run.stderr).toContain("service: the built-in sandbox (nothing real was ported)");
    expect(JSON.parse(run.stdout)).toMatchObject({ service: "the built-in sandbox", sandbox: true, results: join(dir, "acme.sandbox.results.csv") });
    expect(await readFile(join(dir, "acme.results.csv"))).toEqual(realResults);
    expect(await readFile(join(dir, "acme.state.jsonl"))).toEqual(realJournal);
    expect((await readResults(join(dir, "acme.sandbox.results.csv"))).map((r) => r.result_status)).toEqual(Array(4).fill("submitted"));
  });

  it("says nothing about journals when the sheet has none", async () => {
    const dir = await tempDir();
    const run = await runCli(["submit", await trunkSheetOf(dir, "fresh.csv", numbers(1))]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("did you mean");
  });
});

describe("plan writes its own file", () => {
  it("leaves submit's results, with the service's reasons, untouched and writes <input>.plan.csv", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const { path } = await sheetWithUnportable(dir, "acme.csv");
    expect((await runCli(["submit", path, ...against(s)])).code).toBe(1);
    const submitted = await readFile(join(dir, "acme.results.csv"), "utf8");
    expect(submitted).toContain("is not portable");

    const plan = await runCli(["plan", path, ...against(s)]);
    expect(plan.stderr).toContain(`results: ${join(dir, "acme.plan.csv")}`);
    expect(await readFile(join(dir, "acme.results.csv"), "utf8")).toBe(submitted);
    expect((await readResults(join(dir, "acme.plan.csv"))).map((r) => r.result_status)).toEqual(["skipped", "rejected", "skipped", "skipped"]);
  });
});

describe("rejections per number", () => {
  it("rejects only the number the service named, with its own reason, and submits the rest in the same run", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const { path, good } = await sheetWithUnportable(dir, "acme.csv");
    const run = await runCli(["submit", path, ...against(s)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("portin submit: 4 rows: 3 submitted, 1 rejected");

    const rows = await readResults(join(dir, "acme.results.csv"));
    expect(rows.map((r) => [r.result_number, r.result_status, r.result_batch])).toEqual([
      [good[0], "submitted", "2"],
      [UNPORTABLE, "rejected", "1"],
      [good[1], "submitted", "2"],
      [good[2], "submitted", "2"],
    ]);
    expect(rows[1]!.result_message).toBe(`${UNPORTABLE} is not portable: the losing carrier reports it as a wireless number; remove the row, or port this number another way`);
    for (const row of [rows[0], rows[2], rows[3]]) expect(row!.result_message).toBe(withoutE911("Accepted"));
    // The first request carried all four; the second, sent at once, the three the rejection did not name.
    expect(postedNumbers(s)).toEqual([good[0], UNPORTABLE, good[1], good[2], good[0], good[1], good[2]]);
    expect(s.accepted().map((r) => r.numbers)).toEqual([good]);
  });

  it("does not resend an unchanged rejected row, resends it once the row changes, and with --retry-rejected", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const { path } = await sheetWithUnportable(dir, "acme.csv");
    expect((await runCli(["submit", path, ...against(s)])).code).toBe(1);
    let posts = s.received().length;

    // A cron job every 20 minutes: the unchanged row stays rejected and nothing is sent.
    for (let run = 0; run < 2; run++) {
      const again = await runCli(["submit", path, ...against(s)]);
      expect(again.code).toBe(1);
      expect(s.received()).toHaveLength(posts);
      const [, rejected] = await readResults(join(dir, "acme.results.csv"));
      expect(rejected).toMatchObject({ result_status: "rejected", result_ticket: "", result_http_status: "200" });
      expect(rejected!.result_message).toBe(
        `rejected by an earlier run: the service said ${UNPORTABLE} is not portable: the losing carrier reports it as a wireless number; remove the row, or port this number another way`,
      );
      // No edit makes it portable: the advice is one a person can follow (docs/contract.md §6).
      expect(again.stderr).toContain("next: 1 row not portable to this service, as the service says");
    }

    // The user fixes the row (here its customer): sent once, and the new answer recorded.
    await sheetWithUnportable(dir, "acme.csv", "Acme Plumbing Ltd");
    expect((await runCli(["submit", path, ...against(s)])).code).toBe(1);
    expect(postedNumbers(s, posts)).toEqual([UNPORTABLE]);
    posts = s.received().length;
    expect((await runCli(["submit", path, ...against(s)])).code).toBe(1);
    expect(s.received()).toHaveLength(posts);

    expect((await runCli(["submit", path, "--retry-rejected", ...against(s)])).code).toBe(1);
    expect(postedNumbers(s, posts)).toEqual([UNPORTABLE]);
  });

  it("resends rows an earlier run saw failed, as before", async () => {
    const s = await sandboxed();
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(2, 3100));
    const state = join(dir, "acme.state.jsonl");
    const failed = { type: "outcome", requestId: "r1", status: "failed", ticket: null, httpStatus: 429, message: "not accepted", at: "t" };
    const header = { type: "header", version: 1, tool: "portin/0.1.0", baseUrl: `${s.url}/`, user: s.user, createdAt: "t" };
    const intent = { type: "intent", requestId: "r1", operation: "dids", numbers: numbers(2, 3100), at: "t" };
    await writeFile(state, [header, intent, failed].map((r) => JSON.stringify(r)).join("\n") + "\n");
    expect((await runCli(["submit", sheet, ...against(s)])).code).toBe(0);
    expect(postedNumbers(s)).toEqual(numbers(2, 3100));
  });
});

describe("results files", () => {
  it("removes the temporary results file a killed run left behind, and leaves a live run's alone", async () => {
    const dir = await tempDir();
    const sheet = await trunkSheetOf(dir, "acme.csv", numbers(1));
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    const dead = join(dir, `acme.sandbox.results.csv.tmp-${exited}`);
    const live = join(dir, `acme.sandbox.results.csv.tmp-${process.pid}`);
    await writeFile(dead, "half a results file");
    await writeFile(live, "another run's results, still being written");

    expect((await runCli(["submit", sheet])).code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
