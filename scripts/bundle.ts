/**
 * Bundles the built CLI (dist/src/cli.js, which tsc has just written) into one CommonJS file,
 * dist/src/portin.cjs, and puts the launcher (src/launcher.ts) at dist/src/cli.cjs, the `bin`:
 * `portin` then starts by reading two files instead of resolving and compiling the ~400
 * modules its dependencies are made of, one by one (docs/contract.md §8, "Start-up"). A
 * command's modules are still initialised only when its name is on the command line, as
 * cli.ts's LOADERS ask: esbuild runs a module imported by import() at its first import.
 *
 * The bundle holds each dependency as its package ships it: nothing here edits, replaces or
 * leaves out a part of a dependency's code (docs/architecture.md, "Build"). What is smaller is
 * smaller through a library's own documented entry: libphonenumber-js's `core`, handed the
 * +1 countries' metadata that scripts/nanp-metadata.mjs writes before tsc runs.
 *
 * Each worker thread runs a bundle of its own (THREAD_SCRIPTS below): the thread that reads a
 * workbook, its script with yauzl, saxes and SheetJS; the thread that zips a results workbook,
 * its script with yazl.
 *
 * What stays outside the bundles, loaded from node_modules as before:
 * - the library entry: the rest of dist/src, as tsc built it (package.json `exports`);
 * - fs-native-extensions, the journal lock's addon (prebuilt binaries);
 * - pdf-lib (some 700 KB bundled), which only `portin loa` and a sheet attaching a letter portin
 *   made load: every other command would read and compile it at each start.
 * - pg, the PostgreSQL client, which only a journal shared in a database loads (journal/postgres.ts);
 *   outside the bundle, its optional `pg-native` stays a require() pg itself makes, as it ships.
 * yargs is bundled: it would look for its translations of its own messages beside the bundle,
 * so cli.ts reads them from yargs's installed folder and hands them to its `updateLocale`
 * (loaded from node_modules instead, yargs's ~45 ES modules cost every start ~50 ms of CPU).
 */
import { rm } from "node:fs/promises";
import { build } from "esbuild";

/** tsc's CLI, the bundle's entry: bundled, it is removed, so that the `bin` is the one way in. */
const CLI = "dist/src/cli.js";
const LAUNCHER = "dist/src/launcher.js";
/** The `bin` (package.json): the launcher, CommonJS, since an ES module entry loads node's ES module loader (~10 modules, some 8 ms) first. */
const BIN = "dist/src/cli.cjs";
const BUNDLE = "dist/src/portin.cjs";
/**
 * The worker threads' scripts (version.ts builtScript), as tsc wrote them; each becomes a
 * CommonJS bundle beside it, `.cjs` for `.js`, which its thread runs without node's ES module
 * loader. The workbook reader's carries yauzl, saxes and SheetJS (this last initialised only
 * for an .xls or .ods), keeping SheetJS's megabyte out of the bundle every command loads.
 */
const THREAD_SCRIPTS = ["dist/src/input/workbook-reader.js", "dist/src/results/zip-worker.js"];
const threadBundle = (script: string): string => script.replace(/\.js$/, ".cjs");

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
for (const stale of ["dist/src/chunks", BUNDLE, `${BUNDLE}.map`, BIN, `${BIN}.map`]) await rm(stale, { recursive: true, force: true });
await build({
  // CommonJS, one file: the launcher require()s it, without node's ES module loader.
  ...ONE_COMMONJS_FILE,
  entryPoints: [CLI],
  outfile: BUNDLE,
  external: ["fs-native-extensions", "pdf-lib", "pg"],
  ...IMPORT_META_URL,
  // Fewer bytes still; names are kept, so stack traces (--debug) still name functions.
  minifySyntax: true,
});
// The launcher becomes the `bin` (package.json), with portin's version for `--version`.
await build({ ...ONE_COMMONJS_FILE, entryPoints: [LAUNCHER], outfile: BIN, ...IMPORT_META_URL });
// Neither thread's script asks where it is: esbuild warns if one ever does (import.meta in CommonJS).
for (const script of THREAD_SCRIPTS) await build({ ...ONE_COMMONJS_FILE, entryPoints: [script], outfile: threadBundle(script) });
for (const bundled of [CLI, ...THREAD_SCRIPTS].flatMap((file) => [file, `${file}.map`])) await rm(bundled, { force: true });
