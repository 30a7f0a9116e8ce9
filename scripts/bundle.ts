/**
 * Bundles the built CLI (dist/src/cli.js, which tsc has just written) into one CommonJS file,
 * dist/src/portin.cjs, and puts the launcher (src/launcher.ts) at dist/src/cli.cjs, the `bin`:
 * `portin` then starts by reading two files instead of resolving and compiling some 400
 * modules one by one, and runs the bundle from V8's code cache of the command on its line,
 * which the build leaves for the commands a person runs by hand (docs/contract.md §8,
 * "Start-up"). A command's modules are still initialised only when its name is on the command
 * line, as cli.ts's LOADERS ask: esbuild runs a module imported by import() at its first import.
 *
 * Each worker thread runs a bundle of its own (THREAD_SCRIPTS below): the thread that reads a
 * workbook, its script with exceljs's streaming reader and the ~370 modules that reader
 * requires, as patch-package left them in node_modules at install, before this build; the
 * thread that zips a results workbook, its script with yazl.
 *
 * What stays outside the bundles, loaded from node_modules as before:
 * - the library entry: the rest of dist/src, as tsc built it (package.json `exports`);
 * - fs-ext, a native addon;
 * - exceljs whole, which `portin template` loads to write a workbook (the reading thread's
 *   bundle carries its own copy of the streaming reader);
 * - got's HTTP/2 wrapper, HTTP cache and DNS cache, required only if got asks for them
 *   (DEPENDENCY_EDITS below);
 * - yargs's translations of its own messages (LANG=fr_CA gives French "Options :"), read
 *   from its installed folder: the bundled yargs would look for them beside the bundle.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import type { Plugin } from "esbuild";

/** tsc's CLI, the bundle's entry: bundled, it is removed, so that the `bin` is the one way in. */
const CLI = "dist/src/cli.js";
const LAUNCHER = "dist/src/launcher.js";
/** The `bin` (package.json): the launcher, CommonJS, since an ES module entry loads node's ES module loader (~10 modules, some 8 ms) first. */
const BIN = "dist/src/cli.cjs";
const BUNDLE = "dist/src/portin.cjs";
const CODE_CACHE_DIR = "dist/src/code-cache";
/**
 * The worker threads' scripts (version.ts builtScript), as tsc wrote them; each becomes a
 * CommonJS bundle beside it, `.cjs` for `.js`, which its thread runs without node's ES module
 * loader. The workbook reader's carries yauzl, saxes and SheetJS (this last initialised only
 * for an .xls or .ods), keeping SheetJS's megabyte out of the bundle every command loads.
 */
const THREAD_SCRIPTS = ["dist/src/input/workbook-reader.js", "dist/src/results/zip-worker.js"];
const threadBundle = (script: string): string => script.replace(/\.js$/, ".cjs");

/** Text replaced in one dependency's file as it is bundled. */
interface Edit {
  readonly file: RegExp;
  readonly edits: readonly (readonly [string, string])[];
}

/**
 * Edits of dependencies, each for start-up and none changing what the dependency does for
 * portin. Each line must be found, or the build fails rather than quietly losing the edit.
 */
const DEPENDENCY_EDITS: readonly Edit[] = [
  {
    file: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/,
    edits: [
      // Its locales folder, in yargs's installed folder (yargsDir in LAZY) rather than beside the bundle.
      ["resolve(__dirname, '../../../locales')", "join(yargsDir(), 'locales')"],
      // Where yargs looks for the package.json it guesses a version from (portin names its
      // own): unbundled, the folder that holds its node_modules, portin's own; from a bundle,
      // which has no node_modules in its path, it was the working directory, and yargs listed
      // every folder from there up to the root at each start.
      ["__dirname.substring(0, __dirname.lastIndexOf('node_modules'))", "join(yargsDir(), '..', '..')"],
      // cliui and string-width lay out help text only, and string-width compiles an emoji regular
      // expression and an Intl.Segmenter as it loads (~30 ms): loaded when help is drawn, not before.
      ["import cliui from 'cliui'", "import { cliui, yargsDir } from 'portin:lazy'"],
      ["import stringWidth from 'string-width';", "import { stringWidth } from 'portin:lazy';"],
      // yargs checks its own calls with node:assert, whose modules cost ~3 ms to load: loaded when a check fails.
      ["import { notStrictEqual, strictEqual } from 'assert'", "import { notStrictEqual, strictEqual } from 'portin:lazy'"],
    ],
  },
  // got's HTTP/2 wrapper (with node:http2), HTTP cache and DNS cache: half of got's code, while
  // portin's client sets none of `http2`, `cache` or `dnsCache` (service/client.ts). Each is
  // loaded at got's first use of it: the edits replace got's imports, not its code.
  {
    file: /[\\/]got[\\/]dist[\\/]source[\\/]core[\\/]index\.js$/,
    edits: [["import CacheableRequest, { CacheError as CacheableCacheError, } from 'cacheable-request';", "import { CacheableRequest, CacheableCacheError } from 'portin:lazy';"]],
  },
  {
    file: /[\\/]got[\\/]dist[\\/]source[\\/]core[\\/]options\.js$/,
    edits: [
      ["import CacheableLookup from 'cacheable-lookup';", "import { CacheableLookup } from 'portin:lazy';"],
      ["import http2wrapper from 'http2-wrapper';", "import { http2wrapper } from 'portin:lazy';"],
      // node:tls and node:https (~5 ms to load), used by got for https URLs alone: loaded at the
      // first such request. got hands checkServerIdentity to every request; node:http ignores it.
      ["import { checkServerIdentity } from 'node:tls';", "import { checkServerIdentity } from 'portin:lazy';"],
      ["import https from 'node:https';", "import { lazyHttps as https } from 'portin:lazy';"],
    ],
  },
  // file-type's zip reader logs through `debug`, which loads node:tty and reads the environment as
  // it loads: made at its first message, which only a zip attachment's reading writes.
  {
    file: /[\\/]@tokenizer[\\/]inflate[\\/]lib[\\/]ZipHandler\.js$/,
    edits: [["import initDebug from 'debug';", "import { initDebug } from 'portin:lazy';"]],
  },
  // got's answer decompression loads node:zlib (~3 ms) as it loads, and asks it whether it has
  // zstd for every answer: loaded at the first answer that is compressed, which is the first
  // that needs it. The list of encodings it takes is the same for each encoding it is asked about.
  {
    file: /[\\/]decompress-response[\\/]index\.js$/,
    edits: [
      ["import zlib from 'node:zlib';", "import { lazyZlib as zlib } from 'portin:lazy';"],
      ["const supportsZstd = typeof zlib.createZstdDecompress === 'function';", "const supportsZstd = () => typeof zlib.createZstdDecompress === 'function';"],
      ["if (supportsZstd) {", "if (contentEncoding === 'zstd' && supportsZstd()) {"],
    ],
  },
  // got's type checks make two list formatters as they load, for the message of a failed
  // check: the first Intl object of a run loads ICU's data. Made at the first such message.
  {
    file: /[\\/]@sindresorhus[\\/]is[\\/]distribution[\\/]index\.js$/,
    edits: [
      ["const andFormatter = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });", "const andFormatter = listFormatter('conjunction');"],
      ["const orFormatter = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });", "const orFormatter = listFormatter('disjunction');\nimport { listFormatter } from 'portin:lazy';"],
    ],
  },
];

/**
 * What the edits import: stand-ins that load or make the real thing at their first use.
 * require() of a bundled ES module is esbuild's lazily initialised module, compiled with its
 * chunk at every start but not run; got's three are not bundled at all but required from
 * got's own folder, as unbundled got would import them, when got first asks for one. A
 * constructor that returns an object makes `new` give that object; a cache error can only
 * exist once the cache was made.
 */
const LAZY = [
  'import { createRequire } from "node:module";',
  'export function cliui(...args) { return require("cliui").default(...args); }',
  'export function stringWidth(text) { return require("string-width").default(text); }',
  'export function checkServerIdentity(...args) { return require("node:tls").checkServerIdentity(...args); }',
  // A builtin module as an object whose members are read from it, required at the first read.
  'const lazyModule = (id) => new Proxy({}, { get: (_, name) => require(id)[name] });',
  'export const lazyHttps = lazyModule("node:https");',
  'export const lazyZlib = lazyModule("node:zlib");',
  'export function initDebug(namespace) { let made; return (...args) => (made ??= require("debug")(namespace))(...args); }',
  'export function notStrictEqual(actual, expected, message) { if (Object.is(actual, expected)) require("node:assert").notStrictEqual(actual, expected, message); }',
  'export function strictEqual(actual, expected, message) { if (!Object.is(actual, expected)) require("node:assert").strictEqual(actual, expected, message); }',
  "let gotRequire;",
  'const fromGot = (name) => (gotRequire ??= createRequire(require.resolve("got")))(name);',
  "let cacheMade = false;",
  'export class CacheableRequest { constructor(...args) { cacheMade = true; return new (fromGot("cacheable-request").default)(...args); } }',
  'export const CacheableCacheError = { [Symbol.hasInstance]: (value) => cacheMade && value instanceof fromGot("cacheable-request").CacheError };',
  'export class CacheableLookup { constructor(...args) { return new (fromGot("cacheable-lookup").default)(...args); } }',
  'export const http2wrapper = { get globalAgent() { return fromGot("http2-wrapper").globalAgent; }, get auto() { return fromGot("http2-wrapper").auto; } };',
  'export function listFormatter(type) { let made; return { format: (list) => (made ??= new Intl.ListFormat("en", { style: "long", type })).format(list) }; }',
  // yargs's installed folder: the first of the folders require.resolve searches that holds it,
  // as require.resolve("yargs/package.json") finds it (real path included), without reading
  // yargs's `exports`, whose resolution cost every start some 5 ms, twice.
  'import { existsSync as portinExists, realpathSync as portinRealpath } from "node:fs";',
  'import { dirname as portinDirname, join as portinJoin } from "node:path";',
  "let yargsFolder;",
  "export function yargsDir() {",
  '  if (yargsFolder !== undefined) return yargsFolder;',
  '  const found = (require.resolve.paths("yargs") ?? []).map((dir) => portinJoin(dir, "yargs")).find((dir) => portinExists(portinJoin(dir, "package.json")));',
  '  return (yargsFolder = found === undefined ? portinDirname(require.resolve("yargs/package.json")) : portinRealpath(found));',
  "}",
].join("\n");

const dependencyEdits: Plugin = {
  name: "dependency-edits",
  setup(bundle) {
    for (const { file, edits } of DEPENDENCY_EDITS) {
      bundle.onLoad({ filter: file, namespace: "file" }, async ({ path }) => ({ contents: edited(path, await readFile(path, "utf8"), edits), loader: "js" }));
    }
    // Placed in the folder of the file that imports it, so that its require()s find that dependency's own modules.
    bundle.onResolve({ filter: /^portin:lazy$/ }, ({ resolveDir }) => ({ path: join(resolveDir, "portin-lazy.js"), namespace: "portin-lazy" }));
    bundle.onLoad({ filter: /.*/, namespace: "portin-lazy" }, ({ path }) => ({ contents: LAZY, loader: "js", resolveDir: dirname(path) }));
  },
};

/**
 * libphonenumber-js's metadata, kept for the +1 countries only: portin asks it about +1
 * numbers alone (validate/nanp.ts parses `+1` and ten digits), which it answers from those
 * countries' entries, 4 KB of the 83 KB that every start otherwise parsed and built.
 * Checked when made: every one of the 1,000,000 NPA-NXX blocks gets the same verdict from
 * both (a NANP number's validity is its NPA-NXX block's, validate/nanp.ts).
 */
const nanpMetadataOnly: Plugin = {
  name: "nanp-metadata-only",
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]libphonenumber-js[\\/]metadata\.min\.json\.js$/, namespace: "file" }, async ({ path }) => {
      const full = JSON.parse(await readFile(join(dirname(path), "metadata.min.json"), "utf8")) as {
        version: number;
        country_calling_codes: Record<string, string[]>;
        countries: Record<string, unknown>;
      };
      const nanp = full.country_calling_codes["1"] ?? [];
      if (nanp.length === 0 || !nanp.every((country) => country in full.countries)) throw new Error(`${path}: no +1 countries found: see scripts/bundle.ts`);
      const kept = {
        version: full.version,
        country_calling_codes: { 1: nanp },
        countries: Object.fromEntries(nanp.map((country) => [country, full.countries[country]])),
        nonGeographic: {},
      };
      return { contents: `export default ${JSON.stringify(kept)};`, loader: "js" };
    });
  },
};

/** `source` with each edit made: each must be found, or the build fails rather than quietly losing the edit. */
function edited(path: string, source: string, edits: Edit["edits"]): string {
  for (const [from, to] of edits) {
    if (!source.includes(from)) throw new Error(`${path} no longer has ${from}: see scripts/bundle.ts`);
    source = source.replace(from, to);
  }
  return source;
}

/**
 * zod's `z` holds all of zod, which a bundler must keep whole: portin's code is given a `z`
 * with only the members it uses, read from tsc's output (`z.string`, `z.iso`, …), so that
 * the bundle leaves the rest of zod out, half of it, compiled at every start otherwise. A
 * member the code names that zod lacks fails the build.
 */
const zodAsUsed: Plugin = {
  name: "zod-as-used",
  setup(bundle) {
    bundle.onResolve({ filter: /^zod$/ }, ({ importer, namespace }) =>
      namespace === "file" && !/[\\/]node_modules[\\/]/.test(importer) ? { path: "zod", namespace: "zod-as-used" } : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: "zod-as-used" }, async () => {
      const members = await zodMembersUsed();
      // Imported under names of their own: `enum` cannot name a binding.
      const imports = members.map((member) => `${member} as zod_${member}`).join(", ");
      const entries = members.map((member) => `${member}: zod_${member}`).join(", ");
      return { contents: `import { ${imports} } from "zod";\nexport const z = Object.freeze({ ${entries} });`, loader: "js", resolveDir: process.cwd() };
    });
  },
};

/** The members of `z` that the JavaScript tsc wrote in dist/src uses: `z.` followed by a name. */
async function zodMembersUsed(): Promise<string[]> {
  const members = new Set<string>();
  for (const file of await readdir("dist/src", { recursive: true })) {
    if (!file.endsWith(".js")) continue;
    for (const [, member = ""] of (await readFile(join("dist/src", file), "utf8")).matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) members.add(member);
  }
  return [...members].sort();
}

/**
 * zod's translations of its messages into 50 languages: half of zod's code, compiled at every
 * start, while portin's messages are English and zod sets its English one itself.
 */
const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js" }));
  },
};

/**
 * For CommonJS output: where each module asks where it is (version.ts finds the package root
 * from it, the launcher its bundle and caches), the output file's own URL.
 */
const IMPORT_META_URL = {
  define: { "import.meta.url": "__portinImportMetaUrl" },
  banner: { js: '"use strict"; var __portinImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/**
 * What every output is: one CommonJS file for node 20, whose whitespace is left out (fewer bytes
 * to read and, without a code cache, to compile) and whose source map leads stack traces to src/*.ts.
 */
const ONE_COMMONJS_FILE = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  sourcemap: "linked",
  logLevel: "warning",
} as const;

// tsc has just written dist/src/cli.js and launcher.js (npm run build); what an earlier build made must not linger.
for (const stale of ["dist/src/chunks", BUNDLE, `${BUNDLE}.map`, BIN, `${BIN}.map`, CODE_CACHE_DIR]) await rm(stale, { recursive: true, force: true });
await build({
  // CommonJS, one file: V8's code cache takes a script, not an ES module, on Node 20 (src/launcher.ts).
  ...ONE_COMMONJS_FILE,
  entryPoints: [CLI],
  outfile: BUNDLE,
  external: ["fs-ext", "exceljs"],
  plugins: [dependencyEdits, nanpMetadataOnly, zodAsUsed, zodEnglishOnly],
  ...IMPORT_META_URL,
  // The stand-ins of DEPENDENCY_EDITS resolve got from node_modules at run time, on purpose.
  logOverride: { "require-resolve-not-external": "silent" },
  // Fewer bytes still; names are kept, so stack traces (--debug) still name functions.
  minifySyntax: true,
});
await nameBundle();
// The launcher becomes the `bin` (package.json), with the command names it keys caches by and portin's version.
await build({ ...ONE_COMMONJS_FILE, entryPoints: [LAUNCHER], outfile: BIN, ...IMPORT_META_URL });
// Neither thread's script asks where it is: esbuild warns if one ever does (import.meta in CommonJS).
for (const script of THREAD_SCRIPTS) await build({ ...ONE_COMMONJS_FILE, entryPoints: [script], outfile: threadBundle(script) });
for (const bundled of [CLI, ...THREAD_SCRIPTS].flatMap((file) => [file, `${file}.map`])) await rm(bundled, { force: true });
await warmCodeCaches();

/**
 * The bundle's first line, esbuild's `#!` (it runs under src/launcher.ts, not as a script of its
 * own), becomes its name: a hash of its text, under which the launcher keeps its code caches.
 * One line for one, so the source map still matches.
 */
async function nameBundle(): Promise<void> {
  const text = await readFile(BUNDLE, "utf8");
  const [first = "", ...rest] = text.split("\n");
  if (!first.startsWith("#!")) throw new Error(`${BUNDLE} does not start with esbuild's #! line: see scripts/bundle.ts`);
  const body = rest.join("\n");
  // esbuild writes strings as ASCII, regular expressions as written: the launcher reads the
  // bundle as latin1, a byte a character, ~3 ms faster than decoding it as UTF-8 (src/launcher.ts).
  const wide = /[\u0080-\uffff]/.exec(body);
  if (wide !== null) {
    throw new Error(`${BUNDLE} holds a character outside ASCII (${JSON.stringify(body.slice(Math.max(0, wide.index - 30), wide.index + 10))}): write it as \\u${(wide[0].codePointAt(0) ?? 0).toString(16).padStart(4, "0")} in the source`);
  }
  await writeFile(BUNDLE, `// portin bundle ${createHash("sha256").update(body).digest("hex").slice(0, 16)}\n${body}`);
}

/**
 * Runs the commands a person runs by hand once each, on the sample sheet in a folder of its
 * own, so that each leaves its code cache (src/launcher.ts) and even a read-only install starts
 * from one. Without: the first run of each command writes it, if it can. A failure here is
 * reported, and the build goes on: the caches only make start-up faster.
 */
async function warmCodeCaches(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "portin-warm-"));
  try {
    for (const name of ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"]) await copyFile(join("fixtures", name), join(dir, name));
    // Each with the exit code it ends with: plan of the sample exits 1, it has invalid rows on purpose.
    const runs: readonly (readonly [readonly string[], number])[] = [
      [["--help"], 0],
      [["trunks"], 0],
      [["offerings"], 0],
      [["providers"], 0],
      [["template", "--trunk", "--output", join(dir, "template.csv")], 0],
      [["plan", join(dir, "sample.csv"), "--results", join(dir, "plan.csv"), "--quiet"], 1],
      [["status", join(dir, "sample.csv"), "--output", join(dir, "status.csv")], 0],
    ];
    // On the built-in sandbox whatever the builder's shell holds: a build never asks a real service.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PORTIN_")));
    for (const [args, code] of runs) {
      const run = spawnSync(process.execPath, [resolve(BIN), ...args], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
      if (run.status !== code) process.stderr.write(`bundle: portin ${args.join(" ")} exited ${String(run.status)}, not ${code}: ${run.stderr}\n`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
