/**
 * Start-up (docs/contract.md §8, "Start-up"): the built CLI is a bundle (scripts/bundle.ts), so
 * a command reads a handful of files, not the hundreds of modules its dependencies are made of;
 * and what stays outside it (fs-ext) is loaded from node_modules as node loads any package.
 * Counted, not timed: the count does not depend on the machine's load.
 */
import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { fixture, SAMPLE } from "./fixtures.js";
import { runCli, tempDir } from "./harness.js";

/**
 * Runs portin with a module hook that lists every file node loads as a module (ES modules, and
 * CommonJS imported or required), and, as it exits, the modules of node's own it loaded.
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
import { appendFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
register(${JSON.stringify(pathToFileURL(hooks).href)});
process.on("exit", () => {
  writeFileSync(${JSON.stringify(builtinList)}, process.moduleLoadList.join("\\n"));
  // What require() loaded (the bundle's CommonJS dependencies), which the hook above does not see.
  for (const file of Object.keys(createRequire(import.meta.url).cache)) appendFileSync(${JSON.stringify(list)}, pathToFileURL(file).href + "\\n");
});\n`,
  );
  await writeFile(list, "");
  const run = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` }, cwd: dir });
  const root = pathToFileURL(PACKAGE_ROOT).href + "/";
  const files = [...new Set((await readFile(list, "utf8")).split("\n").filter((url) => url !== "").map((url) => url.replace(root, "")))];
  // "NativeModule http2": node's own modules, by the name they are required by.
  const builtins = (await readFile(builtinList, "utf8")).split("\n").flatMap((line) => (line.startsWith("NativeModule ") ? [line.slice("NativeModule ".length)] : []));
  return { code: run.code, files, builtins };
}

describe("start-up", () => {
  it("portin trunks loads the launcher and the bundle, nothing from node_modules", async () => {
    const { code, files } = await filesLoaded(["trunks"]);
    expect(code).toBe(0);
    // The CLI's code is dist/src/portin.cjs; unbundled, this command loaded over 250 files.
    expect(files).toEqual(["dist/src/cli.cjs", "dist/src/portin.cjs"]);
  });

  it("portin plan of a CSV loads no workbook reader, and nothing from node_modules", async () => {
    const dir = await tempDir();
    for (const name of SAMPLE) await copyFile(fixture(name), join(dir, name));
    const { code, files } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample has invalid rows on purpose
    // Not even fs-native-extensions, the journal lock's native addon: no journal, so no lock to look at (journal/lock.ts).
    expect(files).toEqual(["dist/src/cli.cjs", "dist/src/portin.cjs"]);
  });

  it("portin submit with a journal loads the native lock from node_modules, as it takes the lock", async () => {
    const dir = await tempDir();
    for (const name of SAMPLE) await copyFile(fixture(name), join(dir, name));
    const state = join(dir, "sample.state.jsonl");
    const { code, files } = await filesLoaded(["submit", join(dir, "sample.csv"), "--state", state, "--results", join(dir, "submit.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample's invalid rows
    // fs-native-extensions finds its prebuilt binary for this platform through require-addon (~10 ms
    // in all, once a run that takes the lock); nothing else.
    expect(files).toEqual([
      "dist/src/cli.cjs",
      "dist/src/portin.cjs",
      "node_modules/fs-native-extensions/index.js",
      "node_modules/which-runtime/index.js",
      "node_modules/fs-native-extensions/binding.js",
      "node_modules/require-addon/lib/node.js",
      "node_modules/bare-addon-resolve/index.js",
      "node_modules/bare-module-resolve/index.js",
      "node_modules/bare-semver/index.js",
      "node_modules/bare-semver/lib/constants.js",
      "node_modules/bare-semver/lib/errors.js",
      "node_modules/bare-semver/lib/version.js",
      "node_modules/bare-semver/lib/range.js",
      "node_modules/bare-semver/lib/comparator.js",
      "node_modules/bare-module-resolve/lib/errors.js",
      "node_modules/bare-addon-resolve/lib/errors.js",
      "node_modules/fs-native-extensions/package.json",
      `node_modules/fs-native-extensions/prebuilds/${process.platform}-${process.arch}/fs-native-extensions.node`,
    ]);
    expect(await readFile(state, "utf8")).toMatch(/"type":"intent"/);
  });

  it("portin plan of a workbook runs each of its threads from a bundle of its own, loading nothing from node_modules", async () => {
    const dir = await tempDir();
    await copyFile(fixture("workbooks/openpyxl.xlsx"), join(dir, "numbers.xlsx"));
    // Every file a thread's CommonJS loader compiles, with the thread's id (0: the main thread), as it loads.
    const preload = join(dir, "threads.cjs");
    const seen = join(dir, "threads.txt");
    await writeFile(
      preload,
      `const { appendFileSync } = require("node:fs");
const { threadId } = require("node:worker_threads");
const Module = require("node:module");
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  appendFileSync(${JSON.stringify(seen)}, threadId + " " + filename + "\\n");
  return compile.call(this, content, filename);
};
`,
    );
    await writeFile(seen, "");
    const run = await runCli(["plan", join(dir, "numbers.xlsx"), "--results", join(dir, "plan.xlsx"), "--quiet"], { env: { NODE_OPTIONS: `--require=${preload}` }, cwd: dir });
    expect(run.code).toBe(1); // two of its rows are invalid on purpose
    expect((await stat(join(dir, "plan.xlsx"))).size).toBeGreaterThan(0);
    const inThreads = (await readFile(seen, "utf8"))
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("0 "))
      .map((line) => line.slice(line.indexOf(" ") + 1));
    // The reading thread's (yauzl, saxes and SheetJS bundled in) and the zip's.
    expect(inThreads).toEqual(expect.arrayContaining([join(PACKAGE_ROOT, "dist", "src", "input", "workbook-reader.cjs"), join(PACKAGE_ROOT, "dist", "src", "results", "zip-worker.cjs")]));
    expect(inThreads.filter((file) => file.includes("node_modules"))).toEqual([]);
  });

  it("portin plan of a CSV on the built-in sandbox starts no thread and loads no perf_hooks", async () => {
    const dir = await tempDir();
    for (const name of SAMPLE) await copyFile(fixture(name), join(dir, name));
    // A CSV is read on the main thread; portin's clocks read process.uptime(), not the
    // `performance` global, whose first use loads perf_hooks (monotonic.ts). Seen through a
    // preloaded script: loader hooks would run on a thread of their own.
    const preload = join(dir, "builtins.cjs");
    const seen = join(dir, "builtins.txt");
    await writeFile(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(seen)}, process.moduleLoadList.join("\\n")));\n`);
    const run = await runCli(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"], { env: { NODE_OPTIONS: `--require=${preload}` }, cwd: dir });
    expect(run.code).toBe(1);
    const builtins = (await readFile(seen, "utf8")).split("\n");
    // Loaded: it is the list that knows these names (a run without the preload loads the same).
    expect(builtins).toContain("NativeModule http");
    expect(builtins.filter((line) => /^NativeModule (worker_threads|perf_hooks)$/.test(line))).toEqual([]);
  });

  it("the bundled yargs speaks the user's language in its own words, read from its installed folder", async () => {
    const french = await runCli(["--help"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(french.stdout).toContain("Commandes :");
    const missing = await runCli(["plan"], { env: { LANG: "fr_CA.UTF-8", LC_ALL: undefined, LC_MESSAGES: undefined, LANGUAGE: undefined } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Pas assez d'arguments");
  });

  it("portin --version prints the package's version without reading the CLI's bundle", async () => {
    // An install holding the launcher alone: --version needs nothing else.
    const root = await tempDir();
    await mkdir(join(root, "dist", "src"), { recursive: true });
    await copyFile(join(PACKAGE_ROOT, "dist", "src", "cli.cjs"), join(root, "dist", "src", "cli.cjs"));
    await copyFile(join(PACKAGE_ROOT, "package.json"), join(root, "package.json"));
    const { version } = JSON.parse(await readFile(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
    const run = await runCli(["--version"], { cli: join(root, "dist", "src", "cli.cjs"), cwd: root });
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    // The bundle is read for anything else.
    expect((await runCli(["--help"], { cli: join(root, "dist", "src", "cli.cjs"), cwd: root })).code).not.toBe(0);
  });
});
