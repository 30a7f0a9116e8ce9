/**
 * Start-up (docs/contract.md §8, "Start-up"): the built CLI is a bundle (scripts/bundle.ts), so
 * a command reads a handful of files, not the hundreds of modules its dependencies are made of;
 * and what the bundle moves must still work as it did unbundled. Counted, not timed: the count
 * does not depend on the machine's load.
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/version.js";
import { HEAP_FLAGS } from "../../src/commands/heap-growth.js";
import { FIXTURES, runCli, tempDir } from "./harness.js";

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
  it("portin trunks loads the launcher alone as a module, nothing from node_modules", async () => {
    const { code, files } = await filesLoaded(["trunks"]);
    expect(code).toBe(0);
    // The launcher; the CLI's code is read from dist/src/portin.cjs and run from its code cache
    // (src/launcher.ts). Unbundled, this command loaded over 250 files; as ES module chunks, 20.
    expect(files).toEqual(["dist/src/cli.cjs"]);
  });

  it("portin plan of a CSV loads no workbook reader, and nothing from node_modules", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const { code, files } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample has invalid rows on purpose
    // Not even fs-ext, the journal lock's native addon: no lock file, so no lock to look at (journal/lock.ts).
    expect(files).toEqual(["dist/src/cli.cjs"]);
    // What node reads, and compiles where it has no code cache: 1.3 MB of ES modules before
    // the bundle left out the parts of zod, got and libphonenumber-js's metadata that portin
    // never uses (scripts/bundle.ts), 1.1 MB for every command with exceljs left outside.
    expect((await stat(join(PACKAGE_ROOT, "dist", "src", "portin.cjs"))).size).toBeLessThan(1_250_000);
  });

  it("portin submit with a journal loads the native lock from node_modules, as it takes the lock", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const state = join(dir, "sample.state.jsonl");
    const { code, files } = await filesLoaded(["submit", join(dir, "sample.csv"), "--state", state, "--results", join(dir, "submit.csv"), "--quiet"]);
    expect(code).toBe(1); // the sample's invalid rows
    expect(files).toEqual(["dist/src/cli.cjs", "node_modules/fs-ext/fs-ext.js", "node_modules/fs-ext/build/Release/fs_ext.node"]);
    expect(await readFile(state, "utf8")).toMatch(/"type":"intent"/);
  });

  it("portin plan of a workbook runs each of its threads from a bundle of its own, loading nothing from node_modules", async () => {
    const dir = await tempDir();
    await copyFile(join(FIXTURES, "workbooks", "openpyxl.xlsx"), join(dir, "numbers.xlsx"));
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

  it("portin plan on the built-in sandbox loads none of got's HTTP/2, nor file-type's stream readers, threads, assert, tty, perf_hooks, zlib or TLS", async () => {
    const dir = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(dir, name));
    const { code, builtins } = await filesLoaded(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"]);
    expect(code).toBe(1);
    // Loaded: it is the module that knows these names (a run without this hook loads the same).
    expect(builtins).toContain("http");
    // got loads these only for options portin never sets (http2, cache, dnsCache); the attachment's check reads a buffer.
    expect(builtins.filter((name) => /^(http2|internal\/http2\/|stream\/web$)/.test(name))).toEqual([]);
    // Each ~3-4 ms to load: a CSV run starts no thread, yargs's checks pass, and the attachment is no zip (file-type's `debug`); a clock reads process.uptime(), not the `performance` global; the sandbox compresses no answer and speaks http.
    // Seen through a preloaded script, not the loader hooks above, which run on a thread of their own.
    const preload = join(dir, "builtins.cjs");
    const seen = join(dir, "builtins.txt");
    await writeFile(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(seen)}, process.moduleLoadList.join("\\n")));\n`);
    const bare = await runCli(["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"], { env: { NODE_OPTIONS: `--require=${preload}` }, cwd: dir });
    expect(bare.code).toBe(1);
    expect((await readFile(seen, "utf8")).split("\n").filter((line) => /^NativeModule (worker_threads|assert|tty|perf_hooks|zlib|tls|https)$/.test(line))).toEqual([]);
  });

  it("the bundled yargs still speaks the user's language in its own words, as it did unbundled", async () => {
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

  it("the build leaves the commands run by hand a code cache that this node takes", () => {
    // Compiled as src/launcher.ts compiles the bundle, in a node of its own (a cache is refused
    // under other V8 flags than those it was made with: the CLI's, not vitest's).
    const check = `require("node:v8").setFlagsFromString(${JSON.stringify(HEAP_FLAGS)});
const { readFileSync, readdirSync } = require("node:fs");
const { Script } = require("node:vm");
const dir = ${JSON.stringify(join(PACKAGE_ROOT, "dist", "src"))};
const source = readFileSync(dir + "/portin.cjs", "utf8");
const id = /^\\/\\/ portin bundle ([0-9a-f]+)\\n/.exec(source)[1];
const taken = {};
for (const key of ["none", "trunks", "template", "plan", "status"]) {
  const cachedData = readFileSync(dir + "/code-cache/" + key + "-" + id + ".bin");
  taken[key] = !new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename: dir + "/portin.cjs", cachedData }).cachedDataRejected;
}
process.stdout.write(JSON.stringify(taken));`;
    const run = spawnSync(process.execPath, ["-e", check], { encoding: "utf8", env: { PATH: process.env["PATH"] ?? "" } });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ none: true, trunks: true, template: true, plan: true, status: true });
  });

  it("without a code cache, with one V8 refuses, or where none can be written, portin runs the same, and keeps one where it can", async () => {
    // An install of its own: the launcher and the bundle, as the build left them, beside this package's dependencies.
    const root = await tempDir();
    await mkdir(join(root, "dist", "src"), { recursive: true });
    for (const file of ["cli.cjs", "portin.cjs"]) await copyFile(join(PACKAGE_ROOT, "dist", "src", file), join(root, "dist", "src", file));
    await copyFile(join(PACKAGE_ROOT, "package.json"), join(root, "package.json"));
    for (const dir of ["node_modules", "fixtures"]) await symlink(join(PACKAGE_ROOT, dir), join(root, dir));
    const cacheDir = join(root, "dist", "src", "code-cache");
    const cli = join(root, "dist", "src", "cli.cjs");
    const work = await tempDir();
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join(FIXTURES, name), join(work, name));
    const plan = async (from?: string): Promise<{ code: number | null; results: string }> => {
      const run = await runCli(["plan", join(work, "sample.csv"), "--results", join(work, "plan.csv"), "--quiet"], { cwd: work, ...(from === undefined ? {} : { cli: from }) });
      return { code: run.code, results: await readFile(join(work, "plan.csv"), "utf8") };
    };
    const expected = await plan();
    expect(expected.code).toBe(1);

    // No cache (an install whose build did not run the commands): the run writes one.
    expect(await plan(cli)).toEqual(expected);
    const cached = (await readdir(cacheDir)).filter((file) => file.startsWith("plan-"));
    expect(cached).toHaveLength(1);
    const cacheFile = join(cacheDir, cached[0] ?? "");
    const made = await readFile(cacheFile);
    // Taken the next time, so left as it is.
    expect(await plan(cli)).toEqual(expected);
    expect((await readFile(cacheFile)).equals(made)).toBe(true);

    // A cache V8 refuses (here, not one at all): compiled from the text, and replaced.
    await writeFile(cacheFile, "not a code cache");
    expect(await plan(cli)).toEqual(expected);
    expect((await readFile(cacheFile, "utf8")) === "not a code cache").toBe(false);

    // Where no cache can be written (a file where its folder would be, as a read-only install
    // refuses the folder to anyone but root): the run is the same, and leaves the file as it was.
    await rm(cacheDir, { recursive: true });
    await writeFile(cacheDir, "in the way");
    expect(await plan(cli)).toEqual(expected);
    expect(await readFile(cacheDir, "utf8")).toBe("in the way");
    expect((await readdir(join(root, "dist", "src"))).filter((file) => file.includes("partial"))).toEqual([]);
  });
});
