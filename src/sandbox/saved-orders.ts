/**
 * The built-in sandbox's memory between runs of one sheet (docs/contract.md §2): its orders
 * (each with only the PortForm members its carrier reads: no item's password, no attachment),
 * how many requests it accepted and the day its calendar started, in a JSON file beside the
 * sheet, so that `submit` then `status` on the in-process sandbox behave as on the service.
 * Written whole (a temporary file renamed into place), readable by its owner only.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { UsageError } from "../errors.js";
import { once } from "../once.js";
import { describeIssues } from "../service/zod-issues.js";
import { REJECTIONS } from "./carrier.js";
import type { Fate } from "./carrier.js";
import type { LedgerSnapshot } from "./ledger.js";
import { PORTAL_STATUSES } from "./portal.js";
import { checkV911Shape } from "./body-schemas.js";
import type { V911Record } from "./body-schemas.js";

/** The file's shape; a file of another version is refused rather than misread. */
const VERSION = 1;

/** Made at the first file read: a sheet's runs on the built-in sandbox have none until one sends (bench/README.md, Start-up). */
const savedFileSchema = once(() => {
  const tenDigits = z.string().regex(/^\d{10}$/);
  const body = z.record(z.string(), z.unknown());
  const savedFate = z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("port") }),
    z.strictObject({ kind: z.literal("reject"), code: z.enum(REJECTIONS.map((r) => r.code) as [string, ...string[]]), value: z.string() }),
  ]);
  return z.strictObject({
    version: z.literal(VERSION),
    startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    portalCount: z.number().int().min(0),
    acceptedCount: z.number().int().min(0),
    orders: z.array(
      z.strictObject({
        ticket: z.string().min(1),
        numbers: z.array(tenDigits).min(1),
        body,
        acceptedDay: z.number().int(),
        fate: savedFate,
        placedAs: z.enum(PORTAL_STATUSES).optional(),
        listedAs: z.array(z.string().min(1)).min(1).optional(),
        service: z.string(),
        parent: z.string(),
      }),
    ),
    // docs/contract.md §1.5: the 9-1-1 records, absent from a file written before the sandbox kept them.
    v911: z.array(z.record(z.string(), z.unknown())).optional(),
  });
});

type SavedFile = z.infer<ReturnType<typeof savedFileSchema>>;

export interface SavedSandbox {
  /** YYYY-MM-DD: the sandbox's day 0, whose calendar follows the real one. */
  readonly startDate: string;
  readonly ledger: LedgerSnapshot;
  readonly v911: readonly V911Record[];
}

function fateOf(saved: SavedFile["orders"][number]["fate"]): Fate {
  if (saved.kind === "port") return { kind: "port" };
  const rejection = REJECTIONS.find((r) => r.code === saved.code);
  // The schema admits only the codes of REJECTIONS.
  if (!rejection) throw new Error(`no rejection ${saved.code}`);
  return { kind: "reject", rejection, value: saved.value };
}

/** The sandbox an earlier run left in `file`, or null when there is none yet. */
export function loadSavedSandbox(file: string): SavedSandbox | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new UsageError(`cannot read the built-in sandbox's orders in ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}): check its permissions, or delete it to start the sandbox afresh`);
  }
  const damaged = (why: string): UsageError =>
    new UsageError(`the built-in sandbox's orders in ${file} are damaged (${why}): delete the file to start the sandbox afresh (its orders are make-believe)`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw damaged(`not JSON: ${(error as Error).message}`);
  }
  const parsed = savedFileSchema().safeParse(json);
  if (!parsed.success) throw damaged(describeIssues(parsed.error));
  const { startDate, portalCount, acceptedCount, orders } = parsed.data;
  const v911 = (parsed.data.v911 ?? []).map((raw, i) => {
    const shaped = checkV911Shape(raw);
    if (!shaped.ok) throw damaged(`v911.${i}: ${shaped.message}`);
    return shaped.record;
  });
  return {
    startDate,
    v911,
    ledger: {
      acceptedCount,
      portalCount,
      orders: orders.map(({ fate, placedAs, listedAs, ...order }) => ({
        ...order,
        fate: fateOf(fate),
        ...(placedAs === undefined ? {} : { placedAs }),
        ...(listedAs === undefined ? {} : { listedAs }),
      })),
    },
  };
}

/** Writes the sandbox's orders to `file`, mode 0600, whole or not at all. */
export function saveSandbox(file: string, saved: SavedSandbox): void {
  const content: SavedFile = {
    version: VERSION,
    startDate: saved.startDate,
    portalCount: saved.ledger.portalCount,
    acceptedCount: saved.ledger.acceptedCount,
    orders: saved.ledger.orders.map((order) => ({
      ticket: order.ticket,
      numbers: [...order.numbers],
      body: order.body,
      acceptedDay: order.acceptedDay,
      fate: order.fate.kind === "port" ? { kind: "port" } : { kind: "reject", code: order.fate.rejection.code, value: order.fate.value },
      ...(order.placedAs === undefined ? {} : { placedAs: order.placedAs }),
      ...(order.listedAs === undefined ? {} : { listedAs: [...order.listedAs] }),
      service: order.service,
      parent: order.parent,
    })),
    ...(saved.v911.length === 0 ? {} : { v911: saved.v911.map((record) => ({ ...record })) }),
  };
  const temporary = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    writeFileSync(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new UsageError(`cannot keep the built-in sandbox's orders in ${file} (${(error as NodeJS.ErrnoException).code ?? "unwritable"}): the next run on this sheet will not know them`);
  }
}
