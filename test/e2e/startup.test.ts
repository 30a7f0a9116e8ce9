/**
 * Start-up (docs/contract.md §8, "Start-up"): the built CLI is a bundle (scripts/bundle.ts), so
 * a command reads a handful of files, not the hundreds of modules its dependencies are made of;
 * and what the bundle moves must still work as it did unbundled. Counted, not timed: the count
 * does not depend on the machine's load.
 */
import { copyFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { FIXTURES, runCli, tempDir } from "./harness.js";

/**
 * Runs portin with a module hook that lists every file node loads (ES modules, and CommonJS
 * imported from them), and, as it exits, the modules of node's own it loaded.
 */
async function filesLoaded(args: readonly string[]): Promise<{ code: number | null; files: string[]; builtins: string[] }> {
  const dir = await tempDir();
  const list = join(dir, "loaded.txt");
  const builtinList = join(dir, "builtins.txt");
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
  await writeFile(
    register,
    `import { register } from "node:module";
import { writeFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(hooks).href)});
process.on("exit", () => writeFileSync(${JSON.stringify(builtinList)}, process.moduleLoadList.join("\\n")));\n`,
  );
  await writeFile(list, "");
  const run = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` }, cwd: dir });
  const root = pathToFileURL(PACKAGE_ROOT).href + "/";
  const files = (await readFile(list, "utf8")).split("\n").filter((url) => url !== "").map((url) => url.replace(root, ""));
  // "NativeModule http2": node's own modules, by the name they are required by.
  const builtins = (await readFile(builtinList, "utf8")).split("\n").flatMap((line) => (line.startsWith("NativeModule ") ? [line.slice("NativeModule ".length)] : []));
  return { code: run.code, files, builtins };
}

describe("start-up", () => {
  it("portin trunks loads the bundle's few files and nothing from node_modules", async () => {
    const { code, files } = await filesLoaded(["trunks"]);
    expect(code).toBe(0);
    expect(files).toContain("dist/src/cli.js");
    expect(files.filter((file) => file.includes("node_modules"))).toEqual([]);
    // Unbundled, this command loaded over 250 files.
    expect(files.length).toBeLessThan(30);
  });

  it("portin plan of a CSV loads no workbook reader, and from node_modules only the native lock", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const { code, files } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample has invalid rows on purpose
    expect(files.filter((file) => file.includes("node_modules"))).toEqual(["node_modules/fs-ext/fs-ext.js"]);
    expect(files.filter((file) => /exceljs|workbook/.test(file))).toEqual([]);
    expect(files.length).toBeLessThan(45);
    // What node compiles: 1.3 MB before the bundle left out the parts of zod, got and
    // libphonenumber-js's metadata that portin never uses (scripts/bundle.ts), under 1 MB after.
    const bytes = (await Promise.all(files.map(async (file) => (await stat(join(PACKAGE_ROOT, file))).size))).reduce((sum, size) => sum + size, 0);
    expect(bytes).toBeLessThan(1_100_000);
  });

  it("portin plan on the built-in sandbox loads none of got's HTTP/2, nor file-type's stream readers", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const { code, builtins } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1);
    // Loaded: it is the module that knows these names (a run without this hook loads the same).
    expect(builtins).toContain("http");
    // got loads these only for options portin never sets (http2, cache, dnsCache); the attachment's check reads a buffer.
    expect(builtins.filter((name) => /^(http2|internal\/http2\/|stream\/web$)/.test(name))).toEqual([]);
  });

  it("the bundled yargs still speaks the user's language in its own words, as it did unbundled", async () => {
    const french = await runCli(["--help"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(french.stdout).toContain("Commandes :");
    const missing = await runCli(["plan"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Pas assez d'arguments");
  });
});
