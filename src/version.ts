import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root, found by walking up: the same code runs from src/ (tests) and dist/src/ (the CLI). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

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
