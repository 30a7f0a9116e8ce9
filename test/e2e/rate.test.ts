import { describe, expect, it } from "vitest";
import { copyFixtures, SAMPLE } from "./fixtures.js";
import { runCli, tempDir } from "./harness.js";

describe("--rate", () => {
  it("takes a fraction of a request per second", async () => {
    const dir = await copyFixtures(await tempDir(), SAMPLE);
    const run = await runCli(["plan", "fixtures/sample.csv", "--rate", "0.5", "--results", "-"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("--rate");
  });

  it.each(["0", "-1", "abc"])("refuses %j, naming it and saying what it takes", async (value) => {
    const dir = await copyFixtures(await tempDir(), SAMPLE);
    const run = await runCli(["plan", "fixtures/sample.csv", `--rate=${value}`], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`portin: --rate takes a number above 0 (0.5 is one request every 2 s), not "${value}"`);
  });
});
