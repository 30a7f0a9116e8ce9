/**
 * A sheet open in Excel or LibreOffice (docs/input-sheet.md): the lock file beside it makes
 * portin say that it reads the copy last saved, so unsaved edits are not silently left out.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./harness.js";
import { numbers, trunkSheetOf } from "./ledger.js";

it("says the sheet looks open in Excel or LibreOffice when its lock file is beside it, and nothing when none is", async () => {
  const dir = await tempDir();
  const [excel, libre, closed] = await Promise.all([
    trunkSheetOf(dir, "wave.csv", numbers(1, 3500)),
    trunkSheetOf(dir, "night-two.csv", numbers(1, 3501)),
    trunkSheetOf(dir, "closed.csv", numbers(1, 3502)),
  ]);
  await writeFile(join(dir, "~$wave.csv"), "owner");
  await writeFile(join(dir, ".~lock.night-two.csv#"), "owner,host,,2026-11-28T23:00;");
  const [a, b, c] = await Promise.all([runCli(["plan", excel]), runCli(["plan", libre]), runCli(["plan", closed])]);
  expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
  expect(a.stderr).toContain(`portin: ${excel} looks open in Excel (~$wave.csv is beside it): portin reads the copy last saved; save it there first if it has changes\n`);
  expect(b.stderr).toContain(`portin: ${libre} looks open in LibreOffice (.~lock.night-two.csv# is beside it): portin reads the copy last saved; save it there first if it has changes\n`);
  expect(c.stderr).not.toContain("looks open");
});
