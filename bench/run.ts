/**
 * `npm run bench`: portin's speed and memory against this machine's floor, all
 * measured in one run and printed as one table. Everything runs the built CLI as a user
 * would, against `portin sandbox` in a separate process.
 * Environment: BENCH_RUNS (default 3) runs of each plan and CPU measurement, medians
 * reported with min and max; BENCH_ONLY=plan,narrow,mixed,dispatch,cpu,small,xlsx,xlsx-narrow,readers,old-books,startup,memory
 * to run some parts (memory: peak RSS of a re-run and of a `status` against `plan`'s, on
 * BENCH_MEMORY_ROWS rows, default 1,000,000); BENCH_SEED and BENCH_SHAPES (default 2) for the
 * random shapes of `mixed` and `xlsx-narrow`.
 */
import { cpus } from "node:os";
import { extname, join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { copyFile, rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { journalWindow } from "./journal-window.js";
import { measureNode, median, RSS_SOURCE } from "./measure.js";
import type { Measured } from "./measure.js";
import { startSandbox } from "./sandbox.js";
import type { BenchSandbox } from "./sandbox.js";
import { describeShape, drawShape, ISSUE_SHAPE, MIXED_DEFAULTS, mixedHeader, mixedRowCells, random, shapeName } from "./mixed.js";
import type { Shape } from "./mixed.js";
import { CACHE_DIR, ensureNarrowSheet, ensureSheet, writeSheet } from "./sheet.js";
import { ensureWorkbook } from "./workbook.js";
import { bookName, describeBook, drawBook, ensureLibreOfficeBook, ensureNarrowBook, ISSUE_BOOK } from "./narrow-workbook.js";
import type { BookShape } from "./narrow-workbook.js";

const CLI = fileURLToPath(new URL("../src/cli.cjs", import.meta.url));
const FLOOR = fileURLToPath(new URL("./floor.js", import.meta.url));
const XLSX_FLOOR = fileURLToPath(new URL("./xlsx-floor.js", import.meta.url));
const OUT = join(CACHE_DIR, "out");
const RUNS = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 3));

const PLAN_ROWS = 1_000_000;
/** The narrow sheets' size. */
const NARROW_ROWS = 200_000;
const LATENCY_MS = 50;
/** Requests per concurrency level: whole rounds, so the ideal window is rounds x latency. */
const DISPATCH_LEVELS = [
  { concurrency: 1, requests: 100 },
  // The issue's case: a short run of one-number requests, where start and end weigh most.
  { concurrency: 16, requests: 320 },
  { concurrency: 4, requests: 400 },
  { concurrency: 16, requests: 1600 },
  { concurrency: 64, requests: 3200 },
] as const;
const CPU_REQUESTS = 2000;
const XLSX_ROWS = 200_000;
const SMALL_ROWS = 1000;

interface Row {
  readonly measure: string;
  readonly portin: string;
  readonly reference: string;
  readonly ratio: string;
  readonly target: string;
}
const table: Row[] = [];
const notes: string[] = [];

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

function check(run: Measured, what: string, codes: readonly number[] = [0]): Measured {
  if (run.code === null || !codes.includes(run.code)) {
    throw new Error(`${what} exited ${String(run.code)}:\n${run.stderr.slice(-2000)}`);
  }
  return run;
}

/** "median (min-max)" of `values`, each written by `show`. */
function spread(values: readonly number[], show: (n: number) => string): string {
  if (values.length === 1) return show(values[0] ?? NaN);
  return `${show(median(values))} (${show(Math.min(...values))}-${show(Math.max(...values))})`;
}

const fmt = (n: number, digits = 0): string => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (n: number): string => `${fmt(n * 100)}%`;

async function withSandbox<T>(latencyMs: number, body: (sandbox: BenchSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox(CLI, latencyMs);
  try {
    return await body(sandbox);
  } finally {
    await sandbox.stop();
  }
}

interface PlanCase {
  /** How the table names the sheet: "1,000,000 rows", "narrow sheet, 200,000 rows". */
  readonly label: string;
  /** File names under bench/.cache/out/. */
  readonly name: string;
  readonly sheet: string;
  readonly rows: number;
  /** Flags beyond the sheet, the results and the connection. */
  readonly flags: readonly string[];
  /** The 1M-row plan keeps to 1.2x its floor and 400 MB; the narrow sheets aim at 1.5x. */
  readonly wallTarget: string;
  readonly rssTarget: string;
}

/** `plan` of one sheet against the floor of the same sheet, RUNS times, alternating. */
async function measurePlan(c: PlanCase): Promise<void> {
  const results = join(OUT, `${c.name}.results.csv`);
  const floorOut = join(OUT, `${c.name}.floor.csv`);
  const plans: Measured[] = [];
  const floors: Measured[] = [];
  await withSandbox(0, async (sandbox) => {
    for (let run = 1; run <= RUNS; run++) {
      log(`plan, ${c.label}, run ${run} of ${RUNS}: floor…`);
      floors.push(check(await measureNode([FLOOR, c.sheet, floorOut]), "the floor"));
      log(`plan, ${c.label}, run ${run} of ${RUNS}: portin plan…`);
      const plan = check(await measureNode([CLI, "plan", c.sheet, "--results", results, ...c.flags, ...sandbox.flags]), "portin plan");
      if (!plan.stderr.includes(`${c.rows} planned`)) throw new Error(`portin plan did not plan every row:\n${plan.stderr}`);
      log(`  floor ${fmt(floors.at(-1)?.wallMs ?? NaN)} ms, plan ${fmt(plan.wallMs)} ms, ${fmt(plan.maxRssMb)} MB`);
      plans.push(plan);
    }
  });
  await rm(results, { force: true });
  await rm(floorOut, { force: true });
  const planMs = median(plans.map((p) => p.wallMs));
  const floorMs = median(floors.map((p) => p.wallMs));
  const planRss = median(plans.map((p) => p.maxRssMb));
  const floorRss = median(floors.map((p) => p.maxRssMb));
  table.push({
    measure: `plan, ${c.label} (wall, rows/s)`,
    portin: `${fmt(planMs / 1000, 1)} s, ${fmt(c.rows / (planMs / 1000))}/s (runs: ${plans.map((p) => fmt(p.wallMs / 1000, 1)).join(", ")})`,
    reference: `floor ${fmt(floorMs / 1000, 1)} s, ${fmt(c.rows / (floorMs / 1000))}/s (runs: ${floors.map((p) => fmt(p.wallMs / 1000, 1)).join(", ")})`,
    // Run i of plan against run i of the floor, measured side by side: min/median/max of the ratios.
    ratio: spread(plans.map((p, i) => p.wallMs / (floors[i]?.wallMs ?? NaN)), (r) => `${fmt(r, 2)}x`),
    target: c.wallTarget,
  });
  table.push({
    measure: `plan, ${c.label} (peak RSS)`,
    portin: `${fmt(planRss)} MB`,
    reference: `floor ${fmt(floorRss)} MB`,
    ratio: "",
    target: c.rssTarget,
  });
  table.push({
    measure: `plan, ${c.label} (CPU user+sys)`,
    portin: `${fmt(median(plans.map((p) => p.cpuMs)) / 1000, 1)} s`,
    reference: `floor ${fmt(median(floors.map((p) => p.cpuMs)) / 1000, 1)} s`,
    ratio: "",
    target: "",
  });
}

async function benchPlan(): Promise<void> {
  const sheet = await ensureSheet(join(CACHE_DIR, "plan-1m.csv"), PLAN_ROWS);
  await measurePlan({ label: `${fmt(PLAN_ROWS)} rows`, name: "plan-1m", sheet, rows: PLAN_ROWS, flags: [], wallTarget: "<= 1.2x", rssTarget: "< 400 MB" });
}

/** A narrow sheet of NARROW_ROWS rows whose PortForm comes from `defaults`: planned against its floor, aiming at 1.5x. */
function measureNarrow(label: string, name: string, sheet: string, defaults: string): Promise<void> {
  return measurePlan({ label, name, sheet, rows: NARROW_ROWS, flags: ["--defaults", defaults], wallTarget: "<= 1.5x", rssTarget: "" });
}

async function benchNarrow(): Promise<void> {
  const defaults = join(CACHE_DIR, "narrow-200k.defaults.json");
  const sheet = await ensureNarrowSheet(join(CACHE_DIR, "narrow-200k.csv"), defaults, NARROW_ROWS);
  await measureNarrow(`narrow sheet, ${fmt(NARROW_ROWS)} rows`, "narrow-200k", sheet, defaults);
  notes.push(
    `Narrow sheet: ${fmt(NARROW_ROWS)} rows of \`number,pilot_number,offering_id,portform.CustomerReferenceNumber,note\`, half trunk and half offering rows (Types 1-7), one reference per ${fmt(1000)} rows; the PortForm and the request and item members its operations require come from \`--defaults\` (bench/sheet.ts NARROW_DEFAULTS). Its floor is floor.js on the same sheet.`,
  );
}

/**
 * `plan` of a workbook against exceljs's own streaming reader reading it,
 * with the workbook's results written as a workbook (the default) and, for comparison, as CSV.
 */
async function benchXlsx(): Promise<void> {
  log(`xlsx: making the ${fmt(XLSX_ROWS)}-row workbook once (exceljs, about a minute)…`);
  const book = await ensureWorkbook(join(CACHE_DIR, "plan-200k.xlsx"), XLSX_ROWS);
  const toXlsx = join(OUT, "plan-200k.plan.xlsx");
  const toCsv = join(OUT, "plan-200k.plan.csv");
  const floors: Measured[] = [];
  const plans: Measured[] = [];
  const csvPlans: Measured[] = [];
  const planned = (run: Measured): Measured => {
    if (!run.stderr.includes(`${XLSX_ROWS} planned`)) throw new Error(`portin plan did not plan every row:\n${run.stderr}`);
    return run;
  };
  await withSandbox(0, async (sandbox) => {
    for (let run = 1; run <= RUNS; run++) {
      log(`xlsx plan of ${fmt(XLSX_ROWS)} rows, run ${run} of ${RUNS}: exceljs reading it…`);
      floors.push(check(await measureNode([XLSX_FLOOR, book]), "the exceljs floor"));
      log(`xlsx plan of ${fmt(XLSX_ROWS)} rows, run ${run} of ${RUNS}: portin plan, results as .xlsx…`);
      plans.push(planned(check(await measureNode([CLI, "plan", book, "--results", toXlsx, ...sandbox.flags]), "portin plan")));
      log(`xlsx plan of ${fmt(XLSX_ROWS)} rows, run ${run} of ${RUNS}: portin plan, results as .csv…`);
      csvPlans.push(planned(check(await measureNode([CLI, "plan", book, "--results", toCsv, ...sandbox.flags]), "portin plan")));
    }
  });
  await rm(toXlsx, { force: true });
  await rm(toCsv, { force: true });
  const floorMs = median(floors.map((p) => p.wallMs));
  const floorRss = median(floors.map((p) => p.maxRssMb));
  for (const [what, runs] of [
    ["results .xlsx", plans],
    ["results .csv", csvPlans],
  ] as const) {
    const ms = median(runs.map((p) => p.wallMs));
    table.push({
      measure: `plan, ${fmt(XLSX_ROWS)}-row .xlsx, ${what} (wall, rows/s)`,
      portin: `${fmt(ms / 1000, 1)} s, ${fmt(XLSX_ROWS / (ms / 1000))}/s`,
      reference: `exceljs reading it ${fmt(floorMs / 1000, 1)} s`,
      ratio: `${fmt(ms / floorMs, 2)}x`,
      target: "<= 1.5x",
    });
    table.push({
      measure: `plan, ${fmt(XLSX_ROWS)}-row .xlsx, ${what} (peak RSS)`,
      portin: `${fmt(median(runs.map((p) => p.maxRssMb)))} MB`,
      reference: `exceljs reading it ${fmt(floorRss)} MB`,
      ratio: "",
      target: "< 300 MB",
    });
  }
  notes.push(
    `Workbook plan: \`node dist/src/cli.cjs plan <book.xlsx> --results <file>\` on a ${fmt(XLSX_ROWS)}-row, 27-column workbook (the plan sheet's rows; numbers, pilot numbers and accounts as number cells, port dates as date cells, shared strings); the reference is exceljs's WorkbookReader with its default options touching every row's values (bench/xlsx-floor.ts), as its own process. Wall time from spawn to exit; peak RSS by ${RSS_SOURCE}.`,
  );
}

/** The seed of the random shapes, printed so that a run can be replayed (BENCH_SEED). */
const SEED = Number(process.env["BENCH_SEED"] ?? Math.floor(Math.random() * 2 ** 31));
const SHAPES = Math.max(0, Number(process.env["BENCH_SHAPES"] ?? 2));

/**
 * `plan` of the narrow workbook (bench/narrow-workbook.ts), the issue's shape then BENCH_SHAPES
 * drawn from BENCH_SEED, each against exceljs's own streaming reader reading it, run i beside
 * run i: four cells a row, where exceljs's own cost no longer hides portin's.
 */
async function benchNarrowXlsx(): Promise<void> {
  log(`narrow workbook shapes: seed ${SEED} (replay: BENCH_SEED=${SEED})`);
  const next = random(SEED + 1);
  const books: BookShape[] = [ISSUE_BOOK, ...Array.from({ length: SHAPES }, () => drawBook(next))];
  const defaults = join(CACHE_DIR, "mixed.defaults.json");
  writeFileSync(defaults, JSON.stringify(MIXED_DEFAULTS, null, 2) + "\n");
  const toXlsx = join(OUT, "narrow-book.plan.xlsx");
  const toCsv = join(OUT, "narrow-book.plan.csv");
  const written = books.map((shape) => ({
    label: `narrow .xlsx (${describeBook(shape)}), ${fmt(XLSX_ROWS)} rows`,
    book: (): Promise<string> => ensureNarrowBook(join(CACHE_DIR, `${bookName(shape)}-${XLSX_ROWS}.xlsx`), shape, XLSX_ROWS),
  }));
  const saved = ensureLibreOfficeBook(join(CACHE_DIR, `narrow-book-libreoffice-${XLSX_ROWS}.xlsx`), XLSX_ROWS);
  if (saved !== null) written.push({ label: `narrow .xlsx (the issue's rows as LibreOffice saves them), ${fmt(XLSX_ROWS)} rows`, book: () => Promise.resolve(saved) });
  for (const { label, book: make } of written) {
    const book = await make();
    const floors: Measured[] = [];
    const plans: Measured[][] = [[], []];
    await withSandbox(0, async (sandbox) => {
      for (let run = 1; run <= RUNS; run++) {
        log(`${label}, run ${run} of ${RUNS}: exceljs reading it…`);
        floors.push(check(await measureNode([XLSX_FLOOR, book]), "the exceljs floor"));
        for (const [at, results] of [toXlsx, toCsv].entries()) {
          log(`${label}, run ${run} of ${RUNS}: portin plan, results ${extname(results)}…`);
          const plan = check(await measureNode([CLI, "plan", book, "--results", results, "--defaults", defaults, ...sandbox.flags]), "portin plan");
          if (!plan.stderr.includes(`${XLSX_ROWS} planned`)) throw new Error(`portin plan did not plan every row:\n${plan.stderr}`);
          log(`  exceljs ${fmt(floors.at(-1)?.wallMs ?? NaN)} ms, plan ${fmt(plan.wallMs)} ms, ${fmt(plan.maxRssMb)} MB`);
          plans[at]?.push(plan);
        }
      }
    });
    const runs = (measured: readonly Measured[]): string => measured.map((p) => fmt(p.wallMs / 1000, 1)).join(", ");
    for (const [at, what] of ["results .xlsx", "results .csv"].entries()) {
      const mine = plans[at] ?? [];
      table.push({
        measure: `plan, ${label}, ${what} (wall; CPU user+sys)`,
        portin: `${fmt(median(mine.map((p) => p.wallMs)) / 1000, 1)} s (runs: ${runs(mine)}); CPU ${fmt(median(mine.map((p) => p.cpuMs)) / 1000, 1)} s; ${fmt(median(mine.map((p) => p.maxRssMb)))} MB`,
        reference: `exceljs reading it ${fmt(median(floors.map((p) => p.wallMs)) / 1000, 1)} s (runs: ${runs(floors)}); CPU ${fmt(median(floors.map((p) => p.cpuMs)) / 1000, 1)} s`,
        ratio: spread(mine.map((p, i) => p.wallMs / (floors[i]?.wallMs ?? NaN)), (r) => `${fmt(r, 2)}x`),
        target: "<= 1.5x",
      });
    }
  }
  await rm(toXlsx, { force: true });
  await rm(toCsv, { force: true });
  notes.push(
    `Narrow workbook (bench/narrow-workbook.ts): ${fmt(XLSX_ROWS)} rows of \`number, pilot_number, portform.CustomerReferenceNumber, note\` on three trunks, 5% toll-free, 40 references, the PortForm's other members from --defaults; first the issue's shape (numbers and pilots as number cells, the reference a shared string, the note an inline string), then ${SHAPES} shapes from seed ${SEED} (BENCH_SEED=${SEED} replays them) varying each column's cell kind and where the shared strings sit in the zip, then ${saved === null ? "(left out: LibreOffice's soffice is not installed) " : ""}the issue's rows saved as .xlsx by LibreOffice from CSV, a writer's shape this bench did not design (every string shared, a style on every cell). The reference is bench/xlsx-floor.ts on the same file, run i beside run i; ratios min/median/max of those pairs.`,
  );
}

const READERS = fileURLToPath(new URL("./workbook-readers.js", import.meta.url));
/** The .xls and .ods: under the 65,536 rows an .xls holds. */
const OLD_BOOK_ROWS = 50_000;

/**
 * The workbook readers portin chose between (bench/workbook-readers.ts), each reading the
 * issue's narrow .xlsx alone, run i of each beside run i of the others: exceljs's streaming
 * reader, SheetJS's whole-file read, and portin's own reader over yauzl and saxes.
 */
async function benchReaders(): Promise<void> {
  const book = await ensureNarrowBook(join(CACHE_DIR, `${bookName(ISSUE_BOOK)}-${XLSX_ROWS}.xlsx`), ISSUE_BOOK, XLSX_ROWS);
  const readers = ["exceljs", "sheetjs", "portin"] as const;
  const runs = new Map<string, Measured[]>(readers.map((reader) => [reader, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const reader of readers) {
      log(`readers: ${reader} reading the narrow .xlsx, run ${run} of ${RUNS}…`);
      const measured = check(await measureNode([READERS, reader, book]), `the ${reader} reader`);
      log(`  ${fmt(measured.wallMs)} ms, ${fmt(measured.maxRssMb)} MB`);
      runs.get(reader)?.push(measured);
    }
  }
  const exceljs = runs.get("exceljs") ?? [];
  for (const reader of readers) {
    const mine = runs.get(reader) ?? [];
    table.push({
      measure: `${reader} reading the narrow .xlsx alone, ${fmt(XLSX_ROWS)} rows (wall; peak RSS)`,
      portin: `${fmt(median(mine.map((p) => p.wallMs)) / 1000, 2)} s; ${fmt(median(mine.map((p) => p.maxRssMb)))} MB`,
      reference: `exceljs ${fmt(median(exceljs.map((p) => p.wallMs)) / 1000, 2)} s; ${fmt(median(exceljs.map((p) => p.maxRssMb)))} MB`,
      ratio: spread(mine.map((p, i) => p.wallMs / (exceljs[i]?.wallMs ?? NaN)), (r) => `${fmt(r, 2)}x`),
      target: "",
    });
  }
  notes.push(
    `Readers: \`node dist/bench/workbook-readers.js <exceljs|sheetjs|portin> <book>\` on the narrow workbook in the issue's shape, each reader alone touching every cell's value: exceljs's streaming WorkbookReader (default options), SheetJS's readFile with dense: true, portin's own reader (yauzl + saxes, cells as their text).`,
  );
}

/**
 * `plan` of the issue's rows as LibreOffice saves them as .xls and as .ods (OLD_BOOK_ROWS rows;
 * an .xls holds 65,536), against SheetJS reading the same file alone: portin reads both formats
 * whole with SheetJS.
 */
async function benchOldBooks(): Promise<void> {
  const defaults = join(CACHE_DIR, "mixed.defaults.json");
  writeFileSync(defaults, JSON.stringify(MIXED_DEFAULTS, null, 2) + "\n");
  const results = join(OUT, "old-book.plan.xlsx");
  for (const format of ["xls", "ods"]) {
    log(`.${format}: making the ${fmt(OLD_BOOK_ROWS)}-row .${format} with LibreOffice once…`);
    const book = ensureLibreOfficeBook(join(CACHE_DIR, `narrow-book-libreoffice-${OLD_BOOK_ROWS}.${format}`), OLD_BOOK_ROWS);
    if (book === null) {
      notes.push(`.${format}: left out, LibreOffice's soffice is not installed.`);
      continue;
    }
    const floors: Measured[] = [];
    const plans: Measured[] = [];
    await withSandbox(0, async (sandbox) => {
      for (let run = 1; run <= RUNS; run++) {
        log(`.${format}, run ${run} of ${RUNS}: SheetJS reading it, then portin plan…`);
        floors.push(check(await measureNode([READERS, "sheetjs", book]), "the SheetJS reader"));
        const plan = check(await measureNode([CLI, "plan", book, "--results", results, "--defaults", defaults, ...sandbox.flags]), "portin plan");
        if (!plan.stderr.includes(`${OLD_BOOK_ROWS} planned`)) throw new Error(`portin plan did not plan every row:\n${plan.stderr}`);
        log(`  SheetJS ${fmt(floors.at(-1)?.wallMs ?? NaN)} ms, plan ${fmt(plan.wallMs)} ms, ${fmt(plan.maxRssMb)} MB`);
        plans.push(plan);
      }
    });
    table.push({
      measure: `plan, narrow .${format} saved by LibreOffice, ${fmt(OLD_BOOK_ROWS)} rows (wall; peak RSS)`,
      portin: `${fmt(median(plans.map((p) => p.wallMs)) / 1000, 2)} s; ${fmt(median(plans.map((p) => p.maxRssMb)))} MB`,
      reference: `SheetJS reading it ${fmt(median(floors.map((p) => p.wallMs)) / 1000, 2)} s; ${fmt(median(floors.map((p) => p.maxRssMb)))} MB`,
      ratio: spread(plans.map((p, i) => p.wallMs / (floors[i]?.wallMs ?? NaN)), (r) => `${fmt(r, 2)}x`),
      target: "",
    });
  }
  await rm(results, { force: true });
  notes.push(
    `Old formats: the narrow workbook's rows (${fmt(OLD_BOOK_ROWS)}) written as CSV and saved by LibreOffice as .xls and .ods; \`plan\` with results as .xlsx against bench/workbook-readers.js sheetjs on the same file, run i beside run i.`,
  );
}

/** Sheets sent to one sandbox never share a number: each gets its own range. */
let nextFirst = 2_000_000;
async function sendSheet(name: string, rows: number): Promise<string> {
  const first = nextFirst;
  nextFirst += rows;
  return ensureSheet(join(CACHE_DIR, `${name}-${rows}-at-${first}.csv`), rows, first);
}

async function submit(sheet: string, sandbox: BenchSandbox, flags: readonly string[]): Promise<{ run: Measured; state: string }> {
  const state = join(OUT, "bench.state.jsonl");
  await rm(state, { force: true });
  const run = check(await measureNode([CLI, "submit", sheet, "--results", join(OUT, "submit.results.csv"), "--state", state, ...flags, ...sandbox.flags]), "portin submit");
  return { run, state };
}

async function benchDispatch(): Promise<void> {
  const achieved: number[][] = DISPATCH_LEVELS.map(() => []);
  await withSandbox(LATENCY_MS, async (sandbox) => {
    for (let run = 1; run <= RUNS; run++) {
      for (const [at, level] of DISPATCH_LEVELS.entries()) {
        const sheet = await sendSheet(`dispatch-c${level.concurrency}-${level.requests}`, level.requests);
        log(`dispatch: ${level.requests} requests at concurrency ${level.concurrency}, ${LATENCY_MS} ms latency, run ${run} of ${RUNS}…`);
        const { state } = await submit(sheet, sandbox, ["--max-per-request", "1", "--concurrency", String(level.concurrency)]);
        const window = await journalWindow(state);
        if (window.requests !== level.requests) throw new Error(`expected ${level.requests} requests, the journal has ${window.requests}`);
        achieved[at]?.push(window.requests / (window.ms / 1000));
      }
    }
  });
  for (const [at, level] of DISPATCH_LEVELS.entries()) {
    const runs = achieved[at] ?? [];
    const ideal = level.concurrency / (LATENCY_MS / 1000);
    table.push({
      measure: `dispatch, ${level.requests} requests, concurrency ${level.concurrency}, ${LATENCY_MS} ms (req/s)`,
      portin: `${fmt(median(runs), 1)}/s (runs: ${runs.map((r) => pct(r / ideal)).join(", ")})`,
      reference: `ideal ${fmt(ideal)}/s`,
      ratio: spread(runs.map((r) => r / ideal), pct),
      target: level.concurrency === 16 ? ">= 90%" : level.concurrency === 64 ? ">= 75%" : "",
    });
  }
}

/**
 * The narrow mixed sheet of issue shapes (bench/mixed.ts): the issue's own shape, then
 * BENCH_SHAPES shapes drawn from BENCH_SEED, each planned against its floor.
 */
async function benchMixed(): Promise<void> {
  const seed = SEED;
  const count = SHAPES;
  log(`mixed shapes: seed ${seed} (replay: BENCH_SEED=${seed})`);
  const next = random(seed);
  const shapes: Shape[] = [ISSUE_SHAPE, ...Array.from({ length: count }, () => drawShape(next))];
  const defaults = join(CACHE_DIR, "mixed.defaults.json");
  writeFileSync(defaults, JSON.stringify(MIXED_DEFAULTS, null, 2) + "\n");
  for (const shape of shapes) {
    const name = `${shapeName(shape)}-${NARROW_ROWS}`;
    const sheet = await writeSheet(join(CACHE_DIR, `${name}.csv`), mixedHeader(shape), NARROW_ROWS, (i) => mixedRowCells(shape, i));
    await measureNarrow(`${shape === ISSUE_SHAPE ? "narrow mixed sheet" : "random shape"}: ${describeShape(shape)}, ${fmt(NARROW_ROWS)} rows`, name, sheet, defaults);
  }
  notes.push(
    `Mixed sheets (bench/mixed.ts): the narrow mixed sheet, then ${count} random shapes from seed ${seed} (BENCH_SEED=${seed} replays them): columns, offering and toll-free shares, number writings and distinct PortForms drawn around it; the PortForm's other members from --defaults.`,
  );
}

/** `portin` start-up: each command against `node -e 0`, on the built-in sandbox where it connects. */
async function benchStartup(): Promise<void> {
  // Each run is under a second, and `node -e 0` itself took 70-130 ms from one run to the next
  // on this machine: a median of 15 ratios moves less from one bench to the next than one of 5.
  const runs = Math.max(RUNS, 15);
  const sample = fileURLToPath(new URL("../../fixtures/sample.csv", import.meta.url));
  const cases: readonly { what: string; args: readonly string[]; target: string; codes?: readonly number[] }[] = [
    { what: "node -e 0", args: ["-e", "0"], target: "" },
    { what: "portin --version", args: [CLI, "--version"], target: "<= 2x" },
    { what: "portin --help", args: [CLI, "--help"], target: "" },
    { what: "portin trunks", args: [CLI, "trunks"], target: "" },
    { what: "portin template --trunk", args: [CLI, "template", "--trunk"], target: "" },
    { what: "portin plan fixtures/sample.csv", args: [CLI, "plan", sample, "--results", join(OUT, "sample.plan.csv"), "--quiet"], target: "<= 3x", codes: [1] },
    // No order was sent for the sample here, so status answers from the sheet and the sandbox's empty order list.
    { what: "portin status fixtures/sample.csv", args: [CLI, "status", sample, "--output", join(OUT, "sample.status.csv")], target: "" },
  ];
  const measured: Measured[][] = cases.map(() => []);
  // Interleaved, so that the machine's load at any moment weighs on every case alike.
  for (let run = 1; run <= runs; run++) {
    log(`start-up, run ${run} of ${runs}…`);
    for (const [at, c] of cases.entries()) measured[at]?.push(check(await measureNode(c.args), c.what, c.codes ?? [0]));
  }
  const base = measured[0] ?? [];
  for (const [at, c] of cases.entries()) {
    const mine = measured[at] ?? [];
    table.push({
      measure: `start-up, ${c.what} (wall; CPU user+sys)`,
      portin: `${spread(mine.map((m) => m.wallMs), (ms) => `${fmt(ms)} ms`)}; CPU ${fmt(median(mine.map((m) => m.cpuMs)))} ms`,
      reference: at === 0 ? "" : `node -e 0 ${fmt(median(base.map((m) => m.wallMs)))} ms`,
      ratio: at === 0 ? "" : spread(mine.map((m, i) => m.wallMs / (base[i]?.wallMs ?? NaN)), (r) => `${fmt(r, 1)}x`),
      target: c.target,
    });
  }
  notes.push(`Start-up: ${runs} interleaved runs of each command and of \`node -e 0\`; ratios are run i against run i of \`node -e 0\`, min/median/max.`);
}

async function benchCpu(): Promise<void> {
  const submits: number[] = [];
  const plans: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const sheet = await sendSheet("cpu", CPU_REQUESTS);
    log(`client CPU: ${CPU_REQUESTS} requests at 0 ms latency, run ${run} of ${RUNS}…`);
    await withSandbox(0, async (sandbox) => {
      const { run: sent } = await submit(sheet, sandbox, ["--max-per-request", "1", "--concurrency", "16"]);
      submits.push(sent.cpuMs);
      const plan = check(await measureNode([CLI, "plan", sheet, "--results", join(OUT, "plan.results.csv"), "--state", join(OUT, "none.state.jsonl"), ...sandbox.flags]), "portin plan");
      plans.push(plan.cpuMs);
    });
  }
  const perRequest = (median(submits) - median(plans)) / CPU_REQUESTS;
  table.push({
    measure: "client CPU per request, 0 ms latency",
    portin: `${fmt(perRequest, 2)} ms`,
    reference: "got on loopback ~1 ms",
    ratio: "",
    target: "",
  });
  notes.push(
    `Client CPU per request: (CPU of \`submit --max-per-request 1 --concurrency 16 --state …\` of ${fmt(CPU_REQUESTS)} rows) minus (CPU of \`plan\` of the same sheet), over ${fmt(CPU_REQUESTS)}; CLI processes' user+sys, medians of ${RUNS}. Includes the journal's intent and outcome records and their fsyncs.`,
  );
}

async function benchSmall(): Promise<void> {
  await withSandbox(LATENCY_MS, async (sandbox) => {
    const oneByOne = await sendSheet("small", SMALL_ROWS);
    log(`${SMALL_ROWS} rows, one per request, one at a time, ${LATENCY_MS} ms latency…`);
    const { run, state } = await submit(oneByOne, sandbox, ["--max-per-request", "1", "--concurrency", "1"]);
    const window = await journalWindow(state);
    const achieved = window.requests / (window.ms / 1000);
    const ideal = 1000 / LATENCY_MS;
    table.push({
      measure: `${fmt(SMALL_ROWS)} rows, --max-per-request 1 --concurrency 1, ${LATENCY_MS} ms`,
      portin: `${fmt(achieved, 1)} req/s (whole run ${fmt(run.wallMs / 1000, 1)} s)`,
      reference: `ideal ${fmt(ideal)}/s; Newman ~14/s`,
      ratio: pct(achieved / ideal),
      target: ">= 90%",
    });
    const defaults = await sendSheet("small-defaults", SMALL_ROWS);
    log(`${SMALL_ROWS} rows with default options, ${LATENCY_MS} ms latency…`);
    const { run: fast, state: fastState } = await submit(defaults, sandbox, []);
    const fastWindow = await journalWindow(fastState);
    table.push({
      measure: `${fmt(SMALL_ROWS)} rows, default options, ${LATENCY_MS} ms`,
      portin: `whole run ${fmt(fast.wallMs / 1000, 2)} s, ${fastWindow.requests} requests`,
      reference: `Newman ~${fmt(SMALL_ROWS / 14)} s`,
      ratio: `${fmt(SMALL_ROWS / 14 / (fast.wallMs / 1000))}x faster`,
      target: "",
    });
  });
}

/** Runs of the memory part: each is a plan, a re-run and a status of a million rows, minutes each. */
const MEMORY_RUNS = Math.min(RUNS, 2);
/** The memory part's sheet: 1,000,000 rows, the issue's size; fewer (BENCH_MEMORY_ROWS) for a quicker look. */
const MEMORY_ROWS = Math.max(1000, Number(process.env["BENCH_MEMORY_ROWS"] ?? PLAN_ROWS));

/**
 * Memory bounded by the sheet, not the journal (docs/contract.md §5): the MEMORY_ROWS-row sheet is
 * submitted once to a fresh sandbox (at 1M rows the journal is ~40 MB, 10,000 orders), then, MEMORY_RUNS
 * times, `plan`, a re-run of `submit` (every row `skipped`) and `status`, each with default
 * flags on a fresh copy of that journal, so that every run reads the same file. Peak RSS of
 * the re-run and of `status` against `plan`'s of the same run. The journal is made anew each
 * time: `status` asks the sandbox about its tickets, and a sandbox keeps its orders in memory.
 */
async function benchMemory(): Promise<void> {
  const sheet = await ensureSheet(join(CACHE_DIR, MEMORY_ROWS === PLAN_ROWS ? "plan-1m.csv" : `memory-${MEMORY_ROWS}.csv`), MEMORY_ROWS);
  const made = join(OUT, "memory.state.jsonl");
  const state = join(OUT, "memory.run.state.jsonl");
  const results = join(OUT, "memory.results.csv");
  const plans: Measured[] = [];
  const reruns: Measured[] = [];
  const statuses: Measured[] = [];
  const nextNights: Measured[] = [];
  const reports: Measured[] = [];
  const page = join(OUT, "memory.report.html");
  await withSandbox(0, async (sandbox) => {
    log(`memory: submitting the ${fmt(MEMORY_ROWS)}-row sheet once, for its journal (a minute or two)…`);
    await rm(made, { force: true });
    check(await measureNode([CLI, "submit", sheet, "--results", results, "--state", made, "--concurrency", "16", "--quiet", ...sandbox.flags]), "portin submit");
    for (let run = 1; run <= MEMORY_RUNS; run++) {
      log(`memory, run ${run} of ${MEMORY_RUNS}: plan…`);
      const plan = check(await measureNode([CLI, "plan", sheet, "--results", results, "--quiet", ...sandbox.flags]), "portin plan");
      plans.push(plan);
      log(`memory, run ${run} of ${MEMORY_RUNS}: re-run of submit, every row already submitted…`);
      await copyFile(made, state);
      const rerun = check(await measureNode([CLI, "submit", sheet, "--results", results, "--state", state, "--quiet", ...sandbox.flags]), "portin submit (re-run)");
      if (!rerun.stderr.includes(`${MEMORY_ROWS} skipped`)) throw new Error(`the re-run did not skip every row:\n${rerun.stderr.slice(-2000)}`);
      reruns.push(rerun);
      log(`memory, run ${run} of ${MEMORY_RUNS}: status…`);
      await copyFile(made, state);
      statuses.push(check(await measureNode([CLI, "status", sheet, "--output", results, "--state", state, ...sandbox.flags]), "portin status", [0, 1]));
      // The next night's check reads the readings of the one before: each number's last status, and what changed.
      log(`memory, run ${run} of ${MEMORY_RUNS}: status again, the journal holding the first check's readings…`);
      nextNights.push(check(await measureNode([CLI, "status", sheet, "--output", results, "--state", state, ...sandbox.flags]), "portin status (again)", [0, 1]));
      // The page of the migration, from the sheet and the journal the two checks wrote: a bounded table, the summary for every row.
      log(`memory, run ${run} of ${MEMORY_RUNS}: report…`);
      reports.push(check(await measureNode([CLI, "report", sheet, "--state", state, "--output", page]), "portin report"));
      log(
        `  plan ${fmt(plan.maxRssMb)} MB, re-run ${fmt(rerun.maxRssMb)} MB, status ${fmt(statuses.at(-1)?.maxRssMb ?? NaN)} MB, again ${fmt(nextNights.at(-1)?.maxRssMb ?? NaN)} MB, report ${fmt(reports.at(-1)?.maxRssMb ?? NaN)} MB (page ${fmt((await stat(page)).size / 1024 / 1024, 1)} MiB)`,
      );
    }
  });
  await Promise.all([made, state, results, page].map((path) => rm(path, { force: true })));
  const mb = (n: number): string => `${fmt(n)} MB`;
  table.push({ measure: `memory, plan, ${fmt(MEMORY_ROWS)} rows (peak RSS)`, portin: spread(plans.map((p) => p.maxRssMb), mb), reference: "", ratio: "", target: "" });
  for (const [what, runs] of [
    ["re-run of submit, every row skipped", reruns],
    ["status", statuses],
    ["status again, the journal holding a check's readings", nextNights],
    ["report, from the journal of two checks", reports],
  ] as const) {
    table.push({
      measure: `memory, ${what}, ${fmt(MEMORY_ROWS)} rows (peak RSS)`,
      portin: `${spread(runs.map((r) => r.maxRssMb), mb)} (wall ${spread(runs.map((r) => r.wallMs / 1000), (n) => `${fmt(n)} s`)})`,
      reference: `plan ${mb(median(plans.map((p) => p.maxRssMb)))}`,
      // Run i against plan's run i, measured side by side.
      ratio: spread(runs.map((r, i) => r.maxRssMb / (plans[i]?.maxRssMb ?? NaN)), (r) => `${fmt(r, 2)}x`),
      target: "<= 1.5x plan",
    });
  }
  notes.push(
    `Memory: the ${fmt(MEMORY_ROWS)}-row plan sheet submitted once (\`submit --concurrency 16\`; at 1,000,000 rows ~40 MB of journal, 10,000 orders) to \`portin sandbox\`; then ${MEMORY_RUNS} times \`plan\`, a re-run of \`submit\` with default flags (every row \`skipped\`) and \`status\`, each on a fresh copy of that journal, and \`status\` again on the journal the first \`status\` appended its readings to (a second night's check: each number's last status, what changed). Peak RSS by ${RSS_SOURCE}; ratios are run i against plan's run i.`,
  );
}

function render(): string {
  const header: Row = { measure: "measure", portin: "portin", reference: "reference", ratio: "ratio", target: "target" };
  const keys = ["measure", "portin", "reference", "ratio", "target"] as const;
  const line = (row: Row) => `| ${keys.map((k) => row[k]).join(" | ")} |`;
  return [line(header), `|${keys.map(() => "---").join("|")}|`, ...table.map(line)].join("\n");
}

mkdirSync(OUT, { recursive: true });
const started = performance.now();
// BENCH_ONLY=startup,plan,narrow,mixed,dispatch,cpu,small,xlsx,xlsx-narrow,readers,old-books,memory runs some parts, for working on one of them.
const only = new Set((process.env["BENCH_ONLY"] ?? "startup,plan,narrow,mixed,dispatch,cpu,small,xlsx,xlsx-narrow,readers,old-books,memory").split(","));
if (only.has("startup")) await benchStartup();
if (only.has("plan")) await benchPlan();
if (only.has("narrow")) await benchNarrow();
if (only.has("mixed")) await benchMixed();
if (only.has("dispatch")) await benchDispatch();
if (only.has("cpu")) await benchCpu();
if (only.has("small")) await benchSmall();
if (only.has("xlsx")) await benchXlsx();
if (only.has("xlsx-narrow")) await benchNarrowXlsx();
if (only.has("readers")) await benchReaders();
if (only.has("old-books")) await benchOldBooks();
if (only.has("memory")) await benchMemory();
const cpu = cpus()[0]?.model ?? "unknown CPU";
process.stdout.write(`\nportin benchmark: node ${process.version}, ${cpus().length} x ${cpu}; plan, dispatch and CPU figures are medians of ${RUNS} runs, (min-max) beside them\n\n`);
process.stdout.write(render() + "\n\n");
// Only the notes of the parts that ran (BENCH_ONLY).
if (only.has("dispatch")) {
  notes.unshift(
    `Dispatch: \`submit --max-per-request 1 --concurrency N --state …\` against \`portin sandbox --latency ${LATENCY_MS}\`; requests/s over the journal's window, first intent to last outcome; ideal = N / latency.`,
  );
}
if (only.has("plan")) {
  notes.unshift(
    `Plan: \`node dist/src/cli.cjs plan <sheet> --results <file>\` against \`portin sandbox\` in another process; the floor is csv-parse (arrays) in and csv-stringify out of the same rows plus 8 result cells, as its own node process. Wall time from spawn to exit; peak RSS by ${RSS_SOURCE}.`,
  );
}
for (const note of notes) process.stdout.write(`- ${note}\n`);
process.stdout.write(`\n(bench took ${fmt((performance.now() - started) / 1000)} s)\n`);
