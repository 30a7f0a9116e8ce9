#!/usr/bin/env node
/**
 * The built `portin` (package.json `bin`, dist/src/cli.cjs: scripts/bundle.ts puts this there,
 * as CommonJS: an ES module entry would load node's ES module loader first).
 * The CLI itself, cli.ts and all it loads, is one CommonJS bundle, portin.cjs: this compiles
 * it with V8's code cache for the command on the line, so that a start deserialises the code
 * that command ran the last time instead of parsing and compiling it again, the most of
 * start-up that was left (docs/contract.md §8, "Start-up"). ES modules cannot be given a code
 * cache on Node 20, hence CommonJS.
 *
 * The cache is an optimisation only: missing, unreadable, or refused by V8 (another node, other
 * V8 flags), the bundle is compiled from its text as node would, and the same code runs. The
 * build writes a cache for the commands run by hand (scripts/bundle.ts); a run that had none,
 * or had one V8 refused, writes its own as it exits, where the install can be written to,
 * and quietly does without where it cannot (a read-only install). `portin --version` alone is
 * answered here, without reading the bundle at all.
 */
import { accessSync, constants as fsConstants, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script, constants as vmConstants } from "node:vm";
import { holdHeapNearLive } from "./commands/heap-growth.js";
import { COMMAND_LINES } from "./commands/names.js";
import { VERSION } from "./version.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const BUNDLE = join(HERE, "portin.cjs");
const CODE_CACHE_DIR = join(HERE, "code-cache");

/**
 * Which code cache a command line starts from: a cache holds the functions one run compiled,
 * so each command has its own (`plan` does not deserialise `report`'s HTML). Only names
 * portin knows make a file, whatever words are typed.
 */
function cacheKey(args: readonly string[]): string {
  return args.find((arg) => Object.hasOwn(COMMAND_LINES, arg)) ?? "none";
}

/**
 * The bundle's first line names it (`// portin bundle <hash of its text>`, scripts/bundle.ts):
 * V8 checks a cache against the length of the text it was made from, not the text, so a cache
 * is kept under the name of the exact bundle it belongs to.
 */
function bundleId(source: string): string {
  return /^\/\/ portin bundle ([0-9a-f]+)\n/.exec(source)?.[1] ?? "unnamed";
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside, then renamed over: runs that start at once never read half a cache. */
function writeCache(file: string, script: Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    accessSync(dirname(file), fsConstants.W_OK);
  } catch {
    return; // a read-only install: the bundle is compiled at each start, as without a cache
  }
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, file);
  } catch {
    // A full disk or a folder made read-only meanwhile: the next run compiles, and tries again.
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing more to do: a leftover `.partial` is never read.
    }
  }
}

/** Runs the bundle from its code cache, as node's CommonJS loader would run it from its text. */
function runCached(args: readonly string[]): void {
  // ASCII, as the build checks (scripts/bundle.ts): a byte a character, without UTF-8's decoding.
  const source = readFileSync(BUNDLE, "latin1");
  const cacheFile = join(CODE_CACHE_DIR, `${cacheKey(args)}-${bundleId(source)}.bin`);
  const cachedData = readCache(cacheFile);
  // Node's own wrapper of a CommonJS module, on the bundle's first line, so that line numbers hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    // esbuild turns the bundle's own import()s into require()s; any other resolves as in a module.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected === true) process.once("exit", () => writeCache(cacheFile, script));
  const bundle = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, HERE);
}

const args = process.argv.slice(2);
// Before any code is compiled: a cache records the V8 flags it was made under.
holdHeapNearLive();
// `portin --version` answers before the CLI is read (docs/contract.md §8): it is what a script asks first.
if (args.length === 1 && args[0] === "--version") process.stdout.write(`${VERSION}\n`);
// node --enable-source-maps maps stack traces to src/*.ts for the modules its loaders load,
// not for a vm script: then node's loader runs the bundle, without a code cache.
else if (process.sourceMapsEnabled) createRequire(import.meta.url)(BUNDLE);
else runCached(args);
