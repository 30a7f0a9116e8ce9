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
import { build } from "esbuild";
import type { Plugin } from "esbuild";

const CLI = "dist/src/cli.js";

const YARGS_LOCALES = "resolve(__dirname, '../../../locales')";

/** yargs's platform shim, with its locales folder found through node's resolution of yargs. */
const yargsLocales: Plugin = {
  name: "yargs-locales",
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      // A yargs that no longer has this line needs this plugin rethought: fail the build, not the translations.
      if (!source.includes(YARGS_LOCALES)) throw new Error(`${path} no longer has ${YARGS_LOCALES}: see scripts/bundle.ts`);
      return { contents: source.replace(YARGS_LOCALES, "join(dirname(require.resolve('yargs/package.json')), 'locales')"), loader: "js" };
    });
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
  plugins: [yargsLocales],
  // CommonJS dependencies bundled into ES modules (got's http2-wrapper) still call require().
  banner: { js: 'import { createRequire as __portinCreateRequire } from "node:module"; const require = __portinCreateRequire(import.meta.url);' },
  // Stack traces (--debug, with node --enable-source-maps) still lead to src/*.ts.
  sourcemap: "linked",
  logLevel: "warning",
});
