import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { FORM_CELLS, FORM_HEADER, runCli, tempDir, writeSheet } from "./harness.js";

describe("the results' copy of the input's cells", () => {
  it("holds the same cells whether the sheet is a file (re-read for the results) or standard input (kept in memory)", async () => {
    const dir = await tempDir();
    const rows = [
      `4165550101,4165550100,,${FORM_CELLS},first,`,
      `"416-555-0102",4165550100,,${FORM_CELLS},"two\r\nlines, ""quoted""",`,
      `4165550103,4165550100,,${FORM_CELLS},=1+1,`,
      `+1 (416) 555-0104,4165550100,,${FORM_CELLS},-,`,
      `4165550105,4165550100,,${FORM_CELLS},masked,s3cret`,
      ``,
      `4165550106,4165550100`,
      `4165550107,4165550100,,${FORM_CELLS},Montréal 📞,`,
    ];
    const text = [`number,pilot_number,offering_id,${FORM_HEADER},note,item.SipPassword`, ...rows].join("\r\n") + "\r\n";
    const sheet = await writeSheet(dir, "sheet.csv", text);
    const fromFile = join(dir, "file.results.csv");
    const fromStdin = join(dir, "stdin.results.csv");
    const file = await runCli(["plan", sheet, "--results", fromFile]);
    const stdin = await runCli(["plan", "-", "--results", fromStdin], { stdin: text });
    expect(file.code).toBe(1);
    expect(stdin.code).toBe(1);
    const written = await readFile(fromFile, "utf8");
    // A copied row keeps the input's own quoting ("416-555-0102"), so compare cells, not bytes.
    const records: string[][] = parse(written, { relax_column_count: true });
    expect(records).toEqual(parse(await readFile(fromStdin, "utf8"), { relax_column_count: true }));
    expect(records).toHaveLength(8);
    expect(records.every((record) => record.length === records[0]?.length)).toBe(true);
    expect(written).toContain(`"two\r\nlines, ""quoted"""`);
    expect(written).toContain(",'=1+1,");
    expect(written).toContain(",***,planned");
    expect(written).not.toContain("s3cret");
  });
});
