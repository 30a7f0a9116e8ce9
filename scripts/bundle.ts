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
 * - got's HTTP/2 wrapper, HTTP cache and DNS cache, required only if got asks for them
 *   (DEPENDENCY_EDITS below);
 * - yargs's translations of its own messages (LANG=fr_CA gives French "Options :"), read
 *   from its installed folder: the bundled yargs would look for them beside its chunk.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import type { Plugin } from "esbuild";

const CLI = "dist/src/cli.js";

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
      // Its locales folder, found through node's resolution of yargs rather than beside the chunk.
      ["resolve(__dirname, '../../../locales')", "join(dirname(require.resolve('yargs/package.json')), 'locales')"],
      // Where yargs looks for the package.json it guesses a version from (portin names its
      // own): unbundled, the folder that holds its node_modules, portin's own; from a chunk,
      // which has no node_modules in its path, it was the working directory, and yargs listed
      // every folder from there up to the root at each start.
      ["__dirname.substring(0, __dirname.lastIndexOf('node_modules'))", "join(dirname(createRequire(import.meta.url).resolve('yargs/package.json')), '..', '..')"],
      // cliui and string-width lay out help text only, and string-width compiles an emoji regular
      // expression and an Intl.Segmenter as it loads (~30 ms): loaded when help is drawn, not before.
      ["import cliui from 'cliui'", "import { cliui } from 'portin:lazy'"],
      ["import stringWidth from 'string-width';", "import { stringWidth } from 'portin:lazy';"],
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
  "let gotRequire;",
  'const fromGot = (name) => (gotRequire ??= createRequire(require.resolve("got")))(name);',
  "let cacheMade = false;",
  'export class CacheableRequest { constructor(...args) { cacheMade = true; return new (fromGot("cacheable-request").default)(...args); } }',
  'export const CacheableCacheError = { [Symbol.hasInstance]: (value) => cacheMade && value instanceof fromGot("cacheable-request").CacheError };',
  'export class CacheableLookup { constructor(...args) { return new (fromGot("cacheable-lookup").default)(...args); } }',
  'export const http2wrapper = { get globalAgent() { return fromGot("http2-wrapper").globalAgent; }, get auto() { return fromGot("http2-wrapper").auto; } };',
  'export function listFormatter(type) { let made; return { format: (list) => (made ??= new Intl.ListFormat("en", { style: "long", type })).format(list) }; }',
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
  plugins: [dependencyEdits, nanpMetadataOnly, zodAsUsed, zodEnglishOnly],
  // CommonJS dependencies bundled into ES modules (got's http2-wrapper) still call require().
  banner: { js: 'import { createRequire as __portinCreateRequire } from "node:module"; const require = __portinCreateRequire(import.meta.url);' },
  // A quarter fewer bytes for node to compile at each start; names are kept, so stack
  // traces (--debug) still name functions, and with node --enable-source-maps lead to src/*.ts.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  logLevel: "warning",
});
