import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, plan, submit } from "../../src/api.js";
import { findMember, ITEM_MEMBERS, REQUIRED_PORT_FORM_MEMBERS } from "../../src/catalog/members.js";
import { describeOperation, OPERATIONS } from "../../src/catalog/operations.js";
import { E911_MEMBERS } from "../../src/catalog/e911.js";
import type { Operation } from "../../src/catalog/operations.js";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import { refusalOf } from "../../src/validate/rules.js";
import { against, parseResults, runCli, tempDir } from "./harness.js";

let sandbox: RunningSandbox;
let dir: string;

beforeEach(async () => {
  sandbox = await startSandbox();
  dir = await tempDir();
});
afterEach(async () => {
  await sandbox.close();
});

function flagsOf(op: Operation): string[] {
  const target = op.targetKind === "trunk" ? ["--trunk"] : ["--type", String(op.offeringType)];
  return [...target, ...(op.numberKind === "toll-free" ? ["--toll-free"] : [])];
}

/** The columns the contract says `op` requires, in the template's order. */
function requiredColumns(op: Operation): string[] {
  return [
    "number",
    op.targetKind === "trunk" ? "pilot_number" : "offering_id",
    ...REQUIRED_PORT_FORM_MEMBERS.map((m) => `portform.${m}`),
    ...(op.numberKind === "regular" ? ["portform.CurrentProvider"] : []),
    ...op.requiredRequestMembers.map((m) => `request.${m}`),
    ...(op.items === null ? [] : ITEM_MEMBERS[op.items.kind].required.map((m) => `item.${m}`)),
  ];
}

describe("portin template", () => {
  it.each(OPERATIONS.map((op) => [op.id, op] as const))("writes the %s sheet, whose example row plan accepts and the service takes", async (_, op) => {
    const sheet = join(dir, `${op.id}.csv`);
    const made = await runCli(["template", ...flagsOf(op), "--output", sheet, ...against(sandbox)]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(`${describeOperation(op)}, to ${sheet}`);

    const text = await readFile(sheet, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, example, more] = text.slice(1).trimEnd().split("\n").map((line) => line.split(","));
    expect(more).toBeUndefined();
    const required = requiredColumns(op);
    // Required first, then optional, beginning with group; every cell of the example's required part filled.
    expect(header?.slice(0, required.length)).toEqual(required);
    expect(header?.[required.length]).toBe("group");
    expect(example?.slice(0, required.length).every((cell) => cell !== "")).toBe(true);
    expect(example?.slice(required.length).every((cell) => cell === "")).toBe(true);
    // Exactly the columns the operation takes: each member column one it can send, each item member it accepts present.
    for (const column of header?.slice(required.length + 1) ?? []) {
      const [scope, name] = column.split(".") as ["portform" | "request" | "item" | "e911", string];
      // A regular number on a trunk takes its 9-1-1 address (docs/e911.md); no other operation lists it.
      if (scope === "e911") {
        expect(op.id, column).toBe("dids");
        continue;
      }
      const member = findMember(scope, name);
      expect(member && refusalOf(member, op), column).toBeUndefined();
    }
    if (op.items !== null) {
      for (const member of ITEM_MEMBERS[op.items.kind].accepted) expect(header).toContain(`item.${member}`);
    }
    if (op.id === "dids") for (const member of E911_MEMBERS) expect(header).toContain(`e911.${member}`);

    // The template is the command's; plan and submit of it run in-process (the library's own
    // functions, which write the same files), as twelve times two more spawns of node told nothing
    // the spawned plan of the workbook template below, and the e2e tests of plan and submit, do not.
    let said = "";
    const stderr = new PassThrough().setEncoding("utf8").on("data", (d: string) => (said += d));
    const client = await connect({ baseUrl: sandbox.url, user: sandbox.user, password: sandbox.password });
    try {
      expect((await plan({ input: sheet }, client, { stderr })).exitCode, said).toBe(0);
      const [row] = parseResults(await readFile(join(dir, `${op.id}.plan.csv`), "utf8"));
      expect([row?.result_status, row?.result_operation]).toEqual(["planned", describeOperation(op)]);

      expect((await submit({ input: sheet, state: join(dir, `${op.id}.jsonl`) }, client, { stderr })).exitCode, said).toBe(0);
      expect(sandbox.accepted().map((r) => r.operation)).toEqual([op.id]);
    } finally {
      await client.close();
    }
  });

  it("writes to standard output by default, and never over an existing file", async () => {
    const out = await runCli(["template", "--type", "7"]);
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n")[0]).toMatch(/^number,offering_id,portform\.CustomerAccountNumber,.*,request\.FaxEmail,group,/);
    const taken = join(dir, "filled.csv");
    await writeFile(taken, "number\n4165550101\n");
    const refused = await runCli(["template", "--output", taken]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`portin: ${taken} already exists: give --output another path, or delete it first\n`);
    expect(await readFile(taken, "utf8")).toBe("number\n4165550101\n");
  });

  it("refuses a target that takes no toll-free numbers, before connecting", async () => {
    const tollFree = await runCli(["template", "--type", "4", "--toll-free"]);
    expect(tollFree.code).toBe(2);
    expect(tollFree.stderr).toMatch(/^portin: --toll-free with --type 4: toll-free numbers cannot be ported onto a Type 4 \(Business Line\) offering/);
  });

  it("writes a workbook whose example row plan accepts as written, every cell text", async () => {
    const book = join(dir, "lines.xlsx");
    const made = await runCli(["template", "--type", "4", "--output", book, ...against(sandbox)]);
    expect(made.code, made.stderr).toBe(0);
    const plan = await runCli(["plan", book, ...against(sandbox)]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("1 row: 1 planned");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(book);
    const sheet = workbook.getWorksheet("Numbers");
    expect(sheet?.getRow(1).getCell(1).value).toBe("number");
    expect(sheet?.getRow(1).font?.bold).toBe(true);
    // The header frozen, and every column text, so what a user types below stays as typed.
    expect(sheet?.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet?.getRow(1).values).toHaveLength((sheet?.columnCount ?? 0) + 1);
    for (let column = 1; column <= (sheet?.columnCount ?? 0); column++) expect(sheet?.getColumn(column).numFmt).toBe("@");
    const example = sheet?.getRow(2);
    const cells: unknown[] = [];
    example?.eachCell((cell) => cells.push(cell.value));
    expect(cells.length).toBeGreaterThan(3);
    for (const value of cells) expect(typeof value).toBe("string");
  });
});
