/**
 * Bundles the built CLI (dist/src/cli.js, which tsc has just written) into itself and a few
 * chunks, in place: `portin` then starts by reading a handful of files instead of resolving
 * and compiling some 400 modules one by one, which was most of its start-up
 * (docs/contract.md §8, "Start-up"). Each command stays a chunk of its own, loaded when its
 * name is on the command line, as cli.ts's LOADERS ask.
 *
 * What stays outside the bundle, loaded from node_modules as before:
 * - the library entry and the worker threads' scripts: the rest of dist/src, as tsc built it
 *   (package.json `exports`; version.ts builtScript);
 * - fs-ext, a native addon;
 * - exceljs, patched by patch-package and loaded only for workbooks;
 * - yargs's translations of its own messages (LANG=fr_CA gives French "Options :"), read
 *   from its installed folder: the bundled yargs would look for them beside its chunk.
 */
import { readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import type { Plugin } from "esbuild";

const CLI = "dist/src/cli.js";

/** Edits of yargs's platform shim: each line must be found, or the build fails rather than quietly losing the edit. */
const YARGS_SHIM_EDITS: readonly (readonly [string, string])[] = [
  // Its locales folder, found through node's resolution of yargs rather than beside the chunk.
  ["resolve(__dirname, '../../../locales')", "join(dirname(require.resolve('yargs/package.json')), 'locales')"],
  // cliui and string-width lay out help text only, and string-width compiles an emoji regular
  // expression and an Intl.Segmenter as it loads (~30 ms): loaded when help is drawn, not before.
  ["import cliui from 'cliui'", "import { cliui } from 'portin:lazy-layout'"],
  ["import stringWidth from 'string-width';", "import { stringWidth } from 'portin:lazy-layout';"],
];

/** The two functions help text is laid out with, each loading its module at its first call. */
const LAZY_LAYOUT = [
  'export function cliui(...args) { return require("cliui").default(...args); }',
  'export function stringWidth(text) { return require("string-width").default(text); }',
].join("\n");

const yargsShim: Plugin = {
  name: "yargs-shim",
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/, namespace: "file" }, async ({ path }) => {
      let source = await readFile(path, "utf8");
      for (const [from, to] of YARGS_SHIM_EDITS) {
        if (!source.includes(from)) throw new Error(`${path} no longer has ${from}: see scripts/bundle.ts`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: "js" };
    });
    // require() of an ES module in a bundle is esbuild's lazily initialised module: resolved from yargs's folder.
    bundle.onResolve({ filter: /^portin:lazy-layout$/ }, ({ resolveDir }) => ({ path: join(resolveDir, "lazy-layout.js"), namespace: "lazy-layout" }));
    bundle.onLoad({ filter: /.*/, namespace: "lazy-layout" }, ({ path }) => ({ contents: LAZY_LAYOUT, loader: "js", resolveDir: dirname(path) }));
  },
};

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

// tsc has just written dist/src/cli.js (npm run build); chunks of an earlier bundle must not linger.
await rm("dist/src/chunks", { recursive: true, force: true });
await build({
  entryPoints: [CLI],
  outdir: "dist/src",
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["fs-ext", "exceljs"],
  plugins: [yargsShim, zodEnglishOnly],
  // CommonJS dependencies bundled into ES modules (got's http2-wrapper) still call require().
  banner: { js: 'import { createRequire as __portinCreateRequire } from "node:module"; const require = __portinCreateRequire(import.meta.url);' },
  // A quarter fewer bytes for node to compile at each start; names are kept, so stack
  // traces (--debug) still name functions, and with node --enable-source-maps lead to src/*.ts.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  logLevel: "warning",
});
