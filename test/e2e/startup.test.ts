/**
 * Start-up (docs/contract.md §8, "Start-up"): the built CLI is a bundle (scripts/bundle.ts), so
 * a command reads a handful of files, not the hundreds of modules its dependencies are made of;
 * and what the bundle moves must still work as it did unbundled. Counted, not timed: the count
 * does not depend on the machine's load.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, runCli, tempDir } from "./harness.js";

/** Runs portin with a module hook that lists every file node loads (ES modules, and CommonJS imported from them). */
async function filesLoaded(args: readonly string[]): Promise<{ code: number | null; files: string[] }> {
  const dir = await tempDir();
  const list = join(dir, "loaded.txt");
  const hooks = join(dir, "hooks.mjs");
  await writeFile(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(list)}, url + "\\n");
  return next(url, context);
}\n`,
  );
  const register = join(dir, "register.mjs");
  await writeFile(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  await writeFile(list, "");
  const run = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` }, cwd: dir });
  const root = pathToFileURL(PACKAGE_ROOT).href + "/";
  const files = (await readFile(list, "utf8")).split("\n").filter((url) => url !== "").map((url) => url.replace(root, ""));
  return { code: run.code, files };
}

describe("start-up", () => {
  it("portin trunks loads the bundle's few files and nothing from node_modules", async () => {
    const { code, files } = await filesLoaded(["trunks"]);
    expect(code).toBe(0);
    expect(files).toContain("dist/src/cli.js");
    expect(files.filter((file) => file.includes("node_modules"))).toEqual([]);
    // Unbundled, this command loaded over 250 files.
    expect(files.length).toBeLessThan(40);
  });

  it("portin plan of a CSV loads no workbook reader, and from node_modules only the native lock", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const { code, files } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample has invalid rows on purpose
    expect(files.filter((file) => file.includes("node_modules"))).toEqual(["node_modules/fs-ext/fs-ext.js"]);
    expect(files.filter((file) => /exceljs|workbook/.test(file))).toEqual([]);
    expect(files.length).toBeLessThan(60);
  });

  it("the bundled yargs still speaks the user's language in its own words, as it did unbundled", async () => {
    const french = await runCli(["--help"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(french.stdout).toContain("Commandes :");
    const missing = await runCli(["plan"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Pas assez d'arguments");
  });
});
