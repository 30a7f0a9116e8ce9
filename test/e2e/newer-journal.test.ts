/**
 * A journal another (newer) portin wrote (docs/contract.md §5): a format past this one's, or a
 * record of a kind this portin does not know, is refused alike by every command that reads
 * it, and left as it is: `submit` once cut an unknown last record away as if a crash had torn
 * it, and `report` read a format the others refuse.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";

/** submit and plan meet the unknown kind, status and report the newer format. */
const COMMANDS = ["submit", "status", "plan", "report"] as const;

it("refuses a journal of a newer format, or with a record of an unknown kind, in every command, and leaves it as it is", async () => {
  const dir = await tempDir();
  const sheet = await trunkSheetOf(dir, "wave.csv", numbers(2, 3400));
  const state = join(dir, "wave.state.jsonl");
  expect((await runCli(["submit", sheet, "--state", state])).code).toBe(0);
  const written = await readFile(state, "utf8");

  const unknownKind = join(dir, "unknown-kind.jsonl");
  await writeFile(unknownKind, `${written}{"type":"handover","to":"night shift","at":"2026-12-01T02:00:00Z"}\n`);
  const newerFormat = join(dir, "newer-format.jsonl");
  await writeFile(newerFormat, written.replace('"version":1,', '"version":2,'));
  const before = new Map([
    [unknownKind, await readFile(unknownKind, "utf8")],
    [newerFormat, await readFile(newerFormat, "utf8")],
  ]);
  // Each run on a copy of its own: a refusal is judged on what that run was given. Each command
  // meets one of the two journals, each journal two commands, which keeps the test short.
  const runs = await Promise.all(
    [unknownKind, newerFormat].flatMap((journal, at) =>
      COMMANDS.filter((_, k) => k % 2 === at).map(async (command) => {
        const copy = `${journal}.${command}.jsonl`;
        await copyFile(journal, copy);
        const run = await runCli([command, sheet, "--state", copy, ...(command === "plan" ? ["--results", join(dir, `${command}.plan.csv`)] : [])]);
        return { journal, command, copy, run };
      }),
    ),
  );
  for (const { journal, command, copy, run } of runs) {
    expect(run.code, `${command} ${journal}: ${run.stderr}`).toBe(2);
    const why =
      journal === unknownKind
        ? `state file ${copy} line ${written.split("\n").length} holds a record of kind "handover", which portin `
        : `state file ${copy} was written by portin/`;
    expect(run.stderr, command).toContain(`portin: ${why}`);
    expect(run.stderr, command).toContain("; upgrade portin and run again (a new --state path would start a fresh journal and send every number again)\n");
    expect(await readFile(copy, "utf8"), command).toBe(before.get(journal));
  }
});
