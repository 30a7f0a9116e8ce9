/**
 * The built CLI hands libphonenumber-js's `core` entry the metadata of the +1 countries only
 * (scripts/nanp-metadata.mjs, docs/contract.md §8): the NPA-NXX verdict it gives must be the one
 * the full metadata gives through the library's default entry. Blocks spread over every area
 * code, through `portin plan` as a user runs it.
 */
import { join } from "node:path";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { FORM_CELLS, FORM_HEADER, readResults, runCli, tempDir, writeSheet } from "./harness.js";

describe("the bundled NPA-NXX verdict", () => {
  it("says 'not in service' of exactly the blocks the full metadata does", async () => {
    const blocks = Array.from({ length: 400 }, (_, i) => `${200 + ((i * 37) % 800)}${200 + ((i * 53 + (i >> 4)) % 800)}`);
    const dir = await tempDir();
    const sheet = await writeSheet(dir, "blocks.csv", `number,pilot_number,${FORM_HEADER}\n${blocks.map((block) => `${block}0100,4165550100,${FORM_CELLS}`).join("\n")}\n`);
    const results = join(dir, "blocks.results.csv");
    await runCli(["plan", sheet, "--results", results, "--quiet"]);
    const rows = await readResults(results);
    expect(rows).toHaveLength(blocks.length);
    const saidOutOfService = rows.map((row) => (row.result_message ?? "").includes("is not in service"));
    const expected = blocks.map((block) => {
      const parsed = parsePhoneNumberFromString(`+1${block}0100`);
      return !(parsed !== undefined && parsed.countryCallingCode === "1" && parsed.isValid());
    });
    expect(saidOutOfService).toEqual(expected);
    // Both verdicts are among the blocks asked.
    expect(new Set(expected)).toEqual(new Set([true, false]));
  });
});
