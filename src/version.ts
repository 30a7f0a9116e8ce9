import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The package root, found by walking up: the same code runs from src/ (tests) and dist/src/ (the CLI). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

/**
 * A worker thread's script in the build, by its path under src/. A worker runs a JavaScript
 * file of its own, and neither the sources (vitest runs them; `npm test` builds first and
 * test/setup/fresh-build.ts checks the build is not older) nor the bundled CLI (whose modules
 * are all in dist/src/portin.cjs, scripts/bundle.ts) hold it beside the module that starts it.
 */
export function builtScript(underSrc: string): URL {
  return pathToFileURL(join(PACKAGE_ROOT, "dist", "src", underSrc));
}

/** docs/contract.md §1.2: the User-Agent every request carries. */
export const USER_AGENT = `portin/${VERSION}`;

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string };
      if (pkg.name === "portin") return dir;
    } catch {
      // not here: keep walking up
    }
    if (dirname(dir) === dir) throw new Error("portin: cannot find its own package.json");
  }
}
