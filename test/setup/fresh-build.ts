/**
 * Vitest runs the sources, but the worker threads run the build (input/workbook.ts,
 * results/xlsx-zip.ts): a build older than the sources would test old code without a word.
 * `npm test` builds first; a bare `npx vitest` after an edit stops here and says so.
 *
 * The run's temporary files, the tests' own folders and those of the CLIs they spawn, go in
 * one folder of the run's own (TMPDIR, which every test file and child inherits), removed as
 * the run ends: each run of the suite had left some 270 folders in the machine's /tmp.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WORKER_SCRIPTS = ["dist/src/input/workbook-reader.cjs", "dist/src/results/zip-worker.cjs"];

function newestSource(dir: string, extension = ".ts"): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path, extension) : entry.name.endsWith(extension) ? statSync(path).mtimeMs : 0);
  }
  return newest;
}

export function setup(): () => void {
  const built = Math.min(...WORKER_SCRIPTS.map((path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0));
  if (built < newestSource("src")) {
    throw new Error("dist/ is older than src/, and worker threads run the build under vitest: run `npm run build` first (npm test does)");
  }
  // The threads' bundles carry dependencies as installed (and patched, were a patch in patches/: scripts/bundle.ts).
  const installed = Math.max(newestSource("patches", ".patch"), statSync("package-lock.json").mtimeMs);
  if (built < installed) {
    throw new Error("dist/ is older than patches/ or package-lock.json, and the worker threads' bundles carry the dependencies: run `npm install`, then `npm run build`");
  }
  const runTemporaries = mkdtempSync(join(tmpdir(), "portin-test-run-"));
  process.env.TMPDIR = runTemporaries;
  return () => rmSync(runTemporaries, { recursive: true, force: true });
}
